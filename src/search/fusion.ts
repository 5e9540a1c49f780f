// Fusion of the built-in ranking with an embedder's similarities, weighted by how far the embedder can be trusted
// on this query: a model that abstains, returns one vector for everything, or disagrees with the keyword evidence
// (noise) moves nothing, so the hook can only help.
import type { RankResult } from './rank.ts';

/** Reciprocal rank fusion's k: 60, the value of the original paper, which damps the top ranks of either list. */
export const RRF_K = 60;
/** How many of the best built-in results the similarities may reorder. */
export const FUSION_DEPTH = 50;
// Agreement: the z-scores (among all visible tools' similarities) of the built-in top AGREE, summed and divided by
// the square root of their count. On noise that is a standard normal whatever the count, so trust starts only at
// TRUST_FROM (one query in a thousand reaches it by chance) and is whole at TRUST_FULL.
const AGREE = 10;
const TRUST_FROM = 3;
const TRUST_FULL = 5;

/** What fusion needs to know of the query's similarities. */
export interface Similarities {
  /** Per tool id: the cosine, NaN where the model abstained or the tool is not visible. */
  readonly cosine: Float64Array;
  readonly mean: number;
  readonly deviation: number;
}

/** The embedder's confidence on this query, 0 to 1: the agreement of its similarities with the built-in top. */
export function confidence(sims: Similarities, lexical: readonly number[]): number {
  if (!(sims.deviation > 1e-6)) return 0;
  if (lexical.length === 0) return 1;
  let sum = 0;
  let count = 0;
  for (const id of lexical.slice(0, AGREE)) {
    const c = sims.cosine[id] as number;
    if (Number.isNaN(c)) continue;
    sum += (c - sims.mean) / sims.deviation;
    count++;
  }
  if (count === 0) return 0;
  return Math.max(0, Math.min(1, (sum / Math.sqrt(count) - TRUST_FROM) / (TRUST_FULL - TRUST_FROM)));
}

/**
 * Reorders the built-in top FUSION_DEPTH and the tools at the similarity floor (`additions`, which the caller
 * leaves empty where the model earned no trust) by 1 / (k + built-in rank) + trust / (k + semantic rank), trust being
 * the weight times the confidence; the rest of the built-in page follows in its order. `lexical` is the built-in
 * ranking at least max(take, FUSION_DEPTH) deep, `members` marks its whole result set. At trust 0, the additions the
 * keywords missed follow the built-in ranking, most similar first.
 */
export function fuseRankings(
  lexical: RankResult,
  members: Uint8Array,
  additions: readonly number[],
  sims: Similarities,
  trust: number,
  take: number,
): RankResult {
  const bySimilarity = (a: number, b: number): number =>
    (sims.cosine[b] as number) - (sims.cosine[a] as number) || a - b;
  const extra = additions.filter((id) => !members[id]);
  const found = lexical.found + extra.length;
  const { keywords } = lexical;
  if (trust === 0 && lexical.ids.length > 0) {
    // Only past the built-in result set do the additions count, so their order matters only there.
    const tail = lexical.found < take ? extra.sort(bySimilarity) : [];
    return { found, ids: [...lexical.ids, ...tail].slice(0, take), keywords };
  }
  const head = lexical.ids.slice(0, FUSION_DEPTH);
  const pool = [...new Set([...head, ...additions])];
  const semanticRank = new Map<number, number>();
  pool
    .filter((id) => !Number.isNaN(sims.cosine[id] as number))
    .sort(bySimilarity)
    .forEach((id, r) => {
      semanticRank.set(id, r + 1);
    });
  const scores = new Map<number, number>();
  pool.forEach((id) => {
    const l = head.indexOf(id);
    const s = semanticRank.get(id);
    scores.set(id, (l < 0 ? 0 : 1 / (RRF_K + l + 1)) + (s === undefined ? 0 : trust / (RRF_K + s)));
  });
  pool.sort(
    (a, b) =>
      (scores.get(b) as number) - (scores.get(a) as number) ||
      (semanticRank.get(a) ?? Infinity) - (semanticRank.get(b) ?? Infinity) ||
      a - b,
  );
  const placed = new Set(pool);
  const ids = pool.slice(0, take);
  for (const id of lexical.ids) {
    if (ids.length >= take) break;
    if (!placed.has(id)) ids.push(id);
  }
  return { found, ids, keywords };
}
