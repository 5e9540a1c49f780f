// Issue 42 item 5: the README is the package's front page on npm and in node_modules, where only `files` (dist/,
// docs/) and README, LICENSE, package.json are. Its part before "Contributing" must stand on what the package
// holds: no command that needs the repository (`npm ci`, `npm start`, `npm test`, `npm run …`) and no path into a
// folder the package lacks (bench/, test/, demo/, scripts/, src/), in prose or links. The contributors' two
// commands stay, in the Contributing section at the end, saying what they do.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
const readme = readFileSync(join(root, 'README.md'), 'utf8');

// The repository's top-level folders and files that the package does not ship (node_modules and build output aside).
const shipped = new Set([...manifest.files, 'README.md', 'LICENSE', 'package.json']);
const repoOnly = readdirSync(root).filter(
  (entry) =>
    !shipped.has(entry) && !entry.startsWith('.') && !['node_modules', 'dist-demo', 'test-results'].includes(entry),
);

/** What a package user cannot follow in a Markdown text: repository commands and paths into repo-only entries. */
function repoOnlyRefs(markdown: string, only: readonly string[] = repoOnly): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/<!--[\s\S]*?-->/g, '');
  const code = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('\n');
  const found: string[] = [];
  for (const m of `${prose}\n${code}`.matchAll(/\bnpm (ci|start|test|run [\w:-]+)\b/g)) found.push(m[0]);
  const targets = [
    ...[...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string),
    ...[...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string),
  ];
  for (const target of targets) {
    const first = target.replace(/^\.\//, '').split('/')[0] ?? '';
    if (target.includes('/') && only.includes(first)) found.push(target);
  }
  return found;
}

const at = readme.indexOf('\n## Contributing');
const userPart = readme.slice(0, at);
const contributing = readme.slice(at);

describe('the README as the package shows it', () => {
  it('finds what a package user cannot follow (the check can fail)', () => {
    expect(repoOnly).toEqual(expect.arrayContaining(['bench', 'test', 'demo', 'scripts', 'src']));
    expect(repoOnly).not.toContain('docs');
    const text = [
      'Run `npm ci && npm start`, see `bench/TUNING.md` and [the worker](demo/worker/).',
      '```sh\nnpm run bench\n```',
      '<!-- source: demo/x.ts -->',
      '`tool-search-layer/openai`, [stores](docs/stores.md), `ai/test`, `dist/index.js`',
    ].join('\n');
    expect(repoOnlyRefs(text)).toEqual(['npm ci', 'npm start', 'npm run bench', 'bench/TUNING.md', 'demo/worker/']);
  });

  it('stands on what the package holds before its Contributing section', () => {
    expect(at).toBeGreaterThan(0);
    expect(userPart).toContain('npm install tool-search-layer');
    expect(repoOnlyRefs(userPart)).toEqual([]);
  });

  it('keeps the contributors’ two commands, at the end, saying what they do', () => {
    expect(contributing.indexOf('\n## ', 1)).toBe(contributing.indexOf('\n## License'));
    expect(contributing).toMatch(/^npm ci && npm start\s+# the playground/m);
    expect(contributing).toMatch(/^npm test\s+# every test/m);
    expect(repoOnlyRefs(contributing)).toEqual(expect.arrayContaining(['npm ci', 'npm start', 'npm test']));
  });
});
