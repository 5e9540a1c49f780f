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
export const labelledSets: readonly string[] = ['seal-tools', 'bfcl', 'metatool'];
