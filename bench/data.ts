// Loads the labelled catalogues in bench/data/ (gzip JSON, copied with their origin and license in its README).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

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

/** The data folder: BENCH_DATA overrides, else bench/data in this repository. */
export const benchDir: string = process.env.BENCH_DATA ?? join(dirname(fileURLToPath(import.meta.url)), 'data');

/** Reads `<file>.json`, or `<file>.json.gz` where only that is there; undefined when neither is. */
function readJson(pathWithoutExtension: string): unknown {
  const plain = `${pathWithoutExtension}.json`;
  if (existsSync(plain)) return JSON.parse(readFileSync(plain, 'utf8'));
  const packed = `${plain}.gz`;
  if (existsSync(packed)) return JSON.parse(gunzipSync(readFileSync(packed)).toString('utf8'));
  return undefined;
}

/** Reads one set; tools get `groups: [group]` as the adapters map them. A set with no tools file throws, naming the folder. */
export function loadSet(name: string): BenchSet {
  const raw = readJson(join(benchDir, name, 'tools'));
  if (!Array.isArray(raw)) throw new Error(`bench: no tools.json or tools.json.gz in ${join(benchDir, name)}`);
  const tools = (raw as BenchTool[]).map((t) => (t.group === undefined ? t : { ...t, groups: [t.group] }));
  // The MCP captures have no labels.
  const queries = (readJson(join(benchDir, name, 'queries')) as BenchQuery[] | undefined) ?? [];
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

/** The catalogues without labels, for token and cost measurements. */
export const catalogueSets: readonly string[] = ['mcp-github', 'mcp-npm-capture'];

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
