// The adapter guides' runnable examples (```ts run blocks): type-checked with `tsc --strict` against the built
// package and the newest SDK types, then run, printing what their comments say. docs/gemini.md's examples talk
// to a stand-in Gemini on loopback through the real @google/genai client.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const guides = [
  { guide: 'openai.md', types: 'openai-types', least: 4 },
  { guide: 'gemini.md', types: 'gemini-types', least: 2 },
  { guide: 'langchain.md', types: 'langchain-types', least: 1 },
];

describe.each(guides)('docs/$guide examples', ({ guide, types, least }) => {
  const docs = readFileSync(join(root, 'docs', guide), 'utf8');
  const blocks = [...docs.matchAll(/```ts run\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const dir = join(import.meta.dirname, types, '.docs');

  beforeAll(() => {
    mkdirSync(dir, { recursive: true });
    for (const [i, code] of blocks.entries()) writeFileSync(join(dir, `example-${i}.ts`), code);
    const config = { extends: '../tsconfig.json', include: ['*.ts'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has runnable examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(least);
  });

  it('type-check under tsc --strict', { timeout: 60_000 }, () => {
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const run = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { cwd: root, encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
  });

  it.each(blocks.map((code, i) => [i, code] as const))('example %i prints what its comments say', async (i, code) => {
    const printed: unknown[][] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args) => void printed.push(args));
    try {
      await import(join(dir, `example-${i}.ts`));
    } finally {
      spy.mockRestore();
    }
    const expected = [...code.matchAll(/console\.log\(.*\);\s*\/\/\s*(.+)$/gm)].map((m) => (m[1] as string).trim());
    expect(printed.map((args) => args.join(' '))).toEqual(expected);
  });
});
