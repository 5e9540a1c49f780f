// Issue 42 item 7: docs/compatibility.md lists the Node version each peer declares (`engines.node`), at the version
// the tests run: on Node 20 npm warns EBADENGINE for those that declare 22. Checked against node_modules, so an
// upgrade that changes a version or an engine fails here until the table says so.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const doc = readFileSync(join(root, 'docs', 'compatibility.md'), 'utf8');

interface Row {
  readonly name: string;
  readonly version: string;
  readonly engine: string | undefined;
}

/** The rows of the Node versions table: `| \`name\` | version | \`engine\` or none |`. */
const rows: Row[] = [...doc.matchAll(/^\| `([@\w/.-]+)` \| (\d+\.\d+\.\d+) \| (?:`([^`]+)`|none) \|$/gm)].map((m) => ({
  name: m[1] as string,
  version: m[2] as string,
  engine: m[3],
}));

/** The installed package.json of `name` at `version`: its own folder, or an alias such as `openai6`. */
function installed(name: string, version: string): { version: string; engines?: { node?: string } } | undefined {
  const aliases = Object.entries(own.devDependencies)
    .filter(([, spec]) => spec.startsWith(`npm:${name}@`))
    .map(([alias]) => alias);
  for (const folder of [name, ...aliases]) {
    const path = join(root, 'node_modules', folder, 'package.json');
    if (!existsSync(path)) continue;
    const pkg = JSON.parse(readFileSync(path, 'utf8'));
    if (pkg.version === version) return pkg;
  }
  return undefined;
}

describe('docs/compatibility.md: the Node versions of the peers', () => {
  it('lists every peer dependency', () => {
    expect(rows.length).toBeGreaterThan(10);
    const listed = new Set(rows.map((row) => row.name));
    for (const peer of Object.keys(own.peerDependencies)) expect(listed.has(peer), peer).toBe(true);
    expect(listed.has('@ai-sdk/provider-utils')).toBe(true);
  });

  it.each(rows.map((row) => [`${row.name} ${row.version}`, row] as const))(
    '%s is installed and declares what the table says',
    (_, row) => {
      const pkg = installed(row.name, row.version);
      expect(pkg, `${row.name}@${row.version} in node_modules`).toBeDefined();
      expect(pkg?.engines?.node).toBe(row.engine);
    },
  );

  it('names exactly the packages that declare Node 22 as the ones that warn', () => {
    const node22 = rows.filter((row) => /\b22\b/.test(row.engine ?? '')).map((row) => `${row.name}@${row.version}`);
    expect(node22).toEqual([
      '@google/genai@3.3.0',
      'ai@7.0.173',
      '@ai-sdk/provider-utils@5.0.81',
      '@ai-sdk/provider@4.0.38',
      '@ai-sdk/openai@4.0.118',
      '@ai-sdk/anthropic@4.0.105',
      'openai@7.60.0',
    ]);
    expect(doc).toContain('the Gemini adapter, the AI SDK adapter and `openai` 7 are the ones that warn on Node 20');
    expect(own).toMatchObject({ engines: { node: '>=20' } });
  });
});
