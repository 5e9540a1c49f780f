// The bench's data comes with the repository: every set loads from bench/data with BENCH_DATA unset, its names
// are unique, and every labelled name is one of its tools. A clone without anything beside it runs the bench.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Loaded {
  dir: string;
  sets: { name: string; tools: string[]; queries: { relevant: string[] }[] }[];
}

/** Loads every set in a child process whose environment has no BENCH_DATA, as a fresh clone's would. */
function loadWithoutOverride(): Loaded {
  const script = `
    import { benchDir, catalogueSets, labelledSets, loadSet } from './bench/data.ts';
    const sets = [...labelledSets, ...catalogueSets].map((name) => {
      const set = loadSet(name);
      return { name, tools: set.tools.map((t) => t.name), queries: set.queries.map((q) => ({ relevant: q.relevant })) };
    });
    process.stdout.write(JSON.stringify({ dir: benchDir, sets }));
  `;
  const { BENCH_DATA: _ignored, ...env } = process.env;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env,
    maxBuffer: 256 * 1024 * 1024,
    encoding: 'utf8',
  });
  return JSON.parse(out) as Loaded;
}

describe('bench data in the repository', () => {
  const loaded = loadWithoutOverride();

  it('is read from bench/data when BENCH_DATA is unset', () => {
    expect(loaded.dir).toBe(`${root}bench/data`);
    expect(loaded.sets.map((s) => s.name)).toEqual([
      'seal-tools',
      'bfcl',
      'metatool',
      'gorilla-apibench',
      'api-bank',
      'restbench',
      'acebench-zh',
      'stabletoolbench',
      'mcp-github',
      'mcp-npm-capture',
    ]);
  });

  for (const set of loaded.sets) {
    it(`${set.name}: tools with unique names, labels that name its tools`, () => {
      expect(set.tools.length).toBeGreaterThan(50);
      expect(new Set(set.tools).size).toBe(set.tools.length);
      const names = new Set(set.tools);
      const missing = set.queries.flatMap((q) => q.relevant.filter((name) => !names.has(name)));
      expect(missing).toEqual([]);
      if (!set.name.startsWith('mcp-')) expect(set.queries.length).toBeGreaterThan(100);
      for (const q of set.queries) expect(q.relevant.length).toBeGreaterThan(0);
    });
  }
});
