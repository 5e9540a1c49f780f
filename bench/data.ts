// Loads the labelled catalogues in ../shared/bench (never copied into this repo).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BenchTool {
  name: string;
  description?: string;
  parameters?: Record<string, unknown> | null;
  group?: string;
  groups?: string[];
  [extra: string]: unknown;
}
export interface BenchQuery {
  query: string;
  relevant: string[];
  [extra: string]: unknown;
}
export interface BenchSet {
  name: string;
  tools: BenchTool[];
  queries: BenchQuery[];
}

/** The shared bench folder: BENCH_DATA overrides, else ../shared/bench beside the checkout. */
export const benchDir: string =
  process.env.BENCH_DATA ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'bench');

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

/** Reads one set; tools get `groups: [group]` as the adapters map them. */
export function loadSet(name: string): BenchSet {
  const tools = (readJson(join(benchDir, name, 'tools.json')) as BenchTool[]).map((t) =>
    t.group === undefined ? t : { ...t, groups: [t.group] },
  );
  let queries: BenchQuery[] = [];
  try {
    queries = readJson(join(benchDir, name, 'queries.json')) as BenchQuery[];
  } catch {
    // the MCP captures have no labels
  }
  return { name, tools, queries };
}

/** The labelled sets the retrieval benchmark scores. */
export const labelledSets: readonly string[] = [
  'seal-tools',
  'bfcl',
  'metatool',
  'gorilla-apibench',
  'api-bank',
  'restbench',
  'acebench-zh',
  'stabletoolbench',
];

/**
 * Catalogues concatenated, then repeated with renamed copies (`name__2`, `name__3`, ...) until `size`
 * tools: a larger catalogue than any one set, every name unique.
 */
export function combineCatalogues(sets: readonly BenchSet[], size: number): BenchTool[] {
  const all = sets.flatMap((s) => s.tools);
  const names = new Set<string>();
  const out: BenchTool[] = [];
  for (let round = 1; out.length < size && all.length > 0; round++) {
    for (const tool of all) {
      if (out.length >= size) break;
      let name = round === 1 ? tool.name : `${tool.name}__${round}`;
      while (names.has(name)) name = `${name}_`;
      names.add(name);
      out.push({ ...tool, name });
    }
  }
  return out;
}
