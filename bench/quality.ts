// Retrieval quality: each library ranks the users' raw requests; recall@5, nDCG@5 and MRR over its list.
import type { BenchSet } from './data.ts';
import { type Scores, score } from './metrics.ts';
import type { Peer } from './peers/index.ts';
import { sampleEvenly } from './sample.ts';

export interface QualityOptions {
  /** Names each library returns per query; MRR is MRR@limit. */
  limit: number;
  /** Queries scored per set (an even, deterministic sample); all when omitted. */
  maxQueries?: number;
}

export interface QualityRow extends Scores {
  set: string;
  peer: string;
  /** Queries in the set; `queries` is how many were scored. */
  ofQueries: number;
  seconds: number;
}

/** Scores every peer on every set, one at a time so their timings do not overlap. */
export async function measureQuality(
  sets: readonly BenchSet[],
  peers: readonly Peer[],
  options: QualityOptions,
): Promise<QualityRow[]> {
  const rows: QualityRow[] = [];
  for (const set of sets) {
    const queries = sampleEvenly(set.queries, options.maxQueries ?? set.queries.length);
    for (const peer of peers) {
      const start = performance.now();
      const deployed = await peer.deploy?.(set.tools);
      const rank = await peer.createRanker(set.tools, { limit: options.limit, deployed });
      const scores = await score(queries, rank);
      const seconds = (performance.now() - start) / 1000;
      rows.push({ set: set.name, peer: peer.name, ...scores, ofQueries: set.queries.length, seconds });
    }
  }
  return rows;
}
