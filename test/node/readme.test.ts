// The examples of README.md and docs/*.md, against the built package (`tool-search-layer` resolves to dist/ through
// its own package.json exports) and the installed SDKs:
// - ```ts run blocks run as written, and print what their `console.log(x); // expected` comments say;
// - ```ts run and ```ts check blocks (complete programs) pass `tsc --strict`, all of them in one tsc run;
// - a ```ts block right after `<!-- source: path/to/file.ts -->` is that file, verbatim (the file is tested).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assertDistBuilt } from '../../scripts/package-entries.mjs';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'test', 'node', '.readme-examples');

/** One example: where it is written, its code, and whether it runs or is only type-checked. */
interface Example {
  readonly doc: string;
  readonly line: number;
  readonly kind: 'run' | 'check';
  readonly code: string;
  readonly file: string;
}

const docs = [
  'README.md',
  ...(existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => `docs/${name}`)
    : []),
];
const texts = new Map(docs.map((doc) => [doc, readFileSync(join(root, doc), 'utf8')]));

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

const examples: Example[] = docs.flatMap((doc) =>
  [...(texts.get(doc) as string).matchAll(/^```ts (run|check)\n([\s\S]*?)^```$/gm)].map((match, i) => ({
    doc,
    // The first line of code, 1-based, in the Markdown file.
    line: lineOf(texts.get(doc) as string, match.index) + 1,
    kind: match[1] as 'run' | 'check',
    code: match[2] as string,
    file: join(dir, `${doc.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-')}-${i}.ts`),
  })),
);

const sourced = docs.flatMap((doc) =>
  [...(texts.get(doc) as string).matchAll(/^<!-- source: (\S+) -->\n+```ts\n([\s\S]*?)^```$/gm)].map((match) => ({
    doc,
    path: match[1] as string,
    code: match[2] as string,
  })),
);

// The compiler's options for the examples: what a user's strict project has, the DOM and Node's globals.
const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
  },
  include: ['*.ts'],
};

/** tsc's messages for each example file, with the Markdown file and line each one points at. */
const diagnostics = new Map<string, string[]>();

beforeAll(() => {
  assertDistBuilt();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // `export {}` makes every example a module, so that top-level await and names are its own.
  for (const example of examples) writeFileSync(example.file, `${example.code}\nexport {};\n`);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
    encoding: 'utf8',
    cwd: root,
  });
  const byFile = new Map(examples.map((example) => [relative(root, example.file), example]));
  let current: string[] | undefined;
  for (const message of `${run.stdout}${run.stderr}`.split('\n')) {
    const at = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(message);
    // tsc names files relative to its working directory, the repository's root.
    const own = at && byFile.get(relative(root, join(root, at[1] as string)));
    if (at && own) {
      const where = `${own.doc}:${own.line + Number(at[2]) - 1}:${at[3]}`;
      current = diagnostics.get(own.file) ?? [];
      diagnostics.set(own.file, current);
      current.push(`${where} ${at[4]}`);
    } else if (at) {
      current = diagnostics.get('other') ?? [];
      diagnostics.set('other', current);
      current.push(message);
    } else if (message.startsWith(' ') && current) {
      current.push(message);
    } else if (message.trim()) {
      current = diagnostics.get('other') ?? [];
      diagnostics.set('other', current);
      current.push(message);
    }
  }
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README and docs examples', () => {
  it('has runnable examples', () => {
    expect(examples.filter((example) => example.kind === 'run').length).toBeGreaterThan(0);
  });

  it('type-checks with no message outside the examples (tsc ran)', () => {
    expect(diagnostics.get('other') ?? []).toEqual([]);
  });

  it.each(examples.map((example) => [`${example.doc}:${example.line}`, example] as const))(
    '%s passes tsc --strict against the built .d.ts',
    (_, example) => {
      expect(diagnostics.get(example.file) ?? []).toEqual([]);
    },
  );

  it.each(
    examples
      .filter((example) => example.kind === 'run')
      .map((example) => [`${example.doc}:${example.line}`, example] as const),
  )('%s runs and prints what its comments say', async (_, example) => {
    const printed: unknown[][] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args) => void printed.push(args));
    try {
      await import(example.file);
    } finally {
      spy.mockRestore();
    }
    // `console.log(x); // expected` lines state their output
    const expected = [...example.code.matchAll(/console\.log\(.*\);\s*\/\/\s*(.+)$/gm)].map((m) =>
      (m[1] as string).trim(),
    );
    expect(printed.map((args) => args.join(' '))).toEqual(expected);
  });

  it.each(sourced.map((block) => [`${block.doc}: ${block.path}`, block] as const))(
    '%s is the file, verbatim',
    (_, block) => {
      expect(block.code).toBe(readFileSync(join(root, block.path), 'utf8'));
    },
  );
});
