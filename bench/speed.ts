// Index build time and query latency of every library at several catalogue sizes, in one process.
import type { BenchTool } from './data.ts';
import type { Peer, Ranker } from './peers/index.ts';
import { median, quantile, timeMs } from './stats.ts';

export interface SpeedCatalogue {
  size: number;
  tools: readonly BenchTool[];
}

export interface SpeedOptions {
  /** The users' raw requests, timed in this order (cycled when a peer needs more). */
  queries: readonly string[];
  /** Names per query: the page a model asks for. */
  limit: number;
  /** Builds timed per peer and size (after one untimed warm-up build); fewer when `budgetMs` runs out. */
  builds: number;
  /** Queries run untimed before timing, so the JIT has settled. */
  warmup: number;
  /** Queries timed per peer and size; fewer when `budgetMs` runs out (at least `minQueries`). */
  maxQueries: number;
  minQueries: number;
  /** Time allowed per peer and size for each of the two measurements. */
  budgetMs: number;
}

export interface SpeedRow {
  size: number;
  peer: string;
  buildMs: number;
  builds: number;
  queryMedianMs: number;
  queryP99Ms: number;
  queries: number;
}

/**
 * Fresh objects whose text differs from every earlier build (one description carries the run number):
 * no cache keyed by array, tool identity or catalogue content can serve the build.
 */
export function freshCopy(tools: readonly BenchTool[], run: number): BenchTool[] {
  const copy = structuredClone(tools) as BenchTool[];
  const first = copy[0];
  if (first) first.description = `${first.description ?? ''} (build ${run})`;
  return copy;
}

let runs = 0;

async function timeBuilds(peer: Peer, tools: readonly BenchTool[], options: SpeedOptions) {
  const times: number[] = [];
  let ranker: Ranker | undefined;
  const started = performance.now();
  for (let i = 0; i <= options.builds; i++) {
    if (i > 1 && performance.now() - started > options.budgetMs) break;
    const copy = freshCopy(tools, runs++);
    const deployed = await peer.deploy?.(copy);
    const ms = await timeMs(async () => {
      ranker = await peer.createRanker(copy, { limit: options.limit, deployed });
    });
    if (i > 0) times.push(ms);
  }
  return { times, ranker: ranker as Ranker };
}

async function timeQueries(ranker: Ranker, options: SpeedOptions) {
  const { queries } = options;
  const at = (i: number) => queries[i % queries.length] as string;
  for (let i = 0; i < options.warmup; i++) await ranker(at(i));
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < options.maxQueries; i++) {
    if (i >= options.minQueries && performance.now() - started > options.budgetMs) break;
    times.push(await timeMs(() => ranker(at(options.warmup + i))));
  }
  return times;
}

/** Times every peer on every catalogue: builds first, then queries on the last index built. */
export async function measureSpeed(
  catalogues: readonly SpeedCatalogue[],
  peers: readonly Peer[],
  options: SpeedOptions,
): Promise<SpeedRow[]> {
  const rows: SpeedRow[] = [];
  for (const { size, tools } of catalogues) {
    for (const peer of peers) {
      const builds = await timeBuilds(peer, tools, options);
      const queries = await timeQueries(builds.ranker, options);
      rows.push({
        size,
        peer: peer.name,
        buildMs: median(builds.times),
        builds: builds.times.length,
        queryMedianMs: median(queries),
        queryP99Ms: quantile(queries, 0.99),
        queries: queries.length,
      });
    }
  }
  return rows;
}
