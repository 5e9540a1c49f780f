// The README's runnable examples (```ts run blocks) run as written, against the built package.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts run\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const dir = join(root, 'test', 'node', '.readme-examples');

describe('README examples', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has runnable examples', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(blocks.map((code, i) => [i, code] as const))(
    'example %i runs and prints what its comments say',
    async (i, code) => {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `example-${i}.ts`);
      writeFileSync(file, code);
      const printed: unknown[][] = [];
      const spy = vi.spyOn(console, 'log').mockImplementation((...args) => void printed.push(args));
      try {
        await import(file);
      } finally {
        spy.mockRestore();
      }
      // `console.log(x); // expected` lines state their output
      const expected = [...code.matchAll(/console\.log\(.*\);\s*\/\/\s*(.+)$/gm)].map((m) => (m[1] as string).trim());
      expect(printed.map((args) => args.join(' '))).toEqual(expected);
    },
  );
});
