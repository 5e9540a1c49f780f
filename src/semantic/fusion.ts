// Fusion of the built-in ranking with an embedder's similarities, weighted by how far the embedder can be trusted
// on this query: a model that abstains, returns one vector for everything, or disagrees with the keyword evidence
// (noise) moves nothing, so the hook can only help.
import type { RankResult } from '../search/rank.ts';

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

/**
 * Constants fitted by leave one set out (bench/semantic-fit.ts). A tool's similarity counts in z-scores, standard
 * deviations above the query's mean similarity over the catalogue, so a model whose cosines are flat (every tool
 * somewhat similar, as a weak model's are) moves nothing, whatever its raw cosines: `zMove` is where a tool starts
 * to be lifted (fully one deviation later), `zAdd` where a tool without a keyword match joins the results.
 */
export const FUSION_PARAMS = { zMove: 4.5, zAdd: 5 };

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
 * Reorders the built-in top FUSION_DEPTH and the tools at the similarity floor (`additions`, which the caller leaves
 * empty where the model earned no trust): each scores 1 / (k + built-in rank), nothing for an addition, plus
 * trust / (k + 1) times its lift, 0 below `zMove` deviations over the mean similarity and 1 from one deviation above;
 * trust is the weight times the confidence. The rest of the built-in page follows in its order. `lexical` is the
 * built-in ranking at least max(take, FUSION_DEPTH) deep, `members` marks its whole result set. Additions without a
 * lift follow the built-in ranking, most similar first.
 */
export function fuseRankings(
  lexical: RankResult,
  members: Uint8Array,
  additions: readonly number[],
  sims: Similarities,
  trust: number,
  take: number,
): RankResult {
  const { cosine, mean, deviation } = sims;
  const headLength = Math.min(FUSION_DEPTH, lexical.ids.length);
  // A keyword match past the built-in top 50 may be lifted like an addition, but is counted in `found` already.
  const inHead = new Set(lexical.ids.slice(0, headLength));
  const extra = additions.filter((id) => !inHead.has(id));
  let found = lexical.found;
  for (const id of extra) if (!members[id]) found++;
  const { keywords } = lexical;
  const bySimilarity = (a: number, b: number): number => (cosine[b] as number) - (cosine[a] as number) || a - b;
  const n = headLength + extra.length;
  const pool = new Int32Array(n);
  const score = new Float64Array(n);
  const lifted = trust > 0 && deviation > 1e-6;
  for (let i = 0; i < n; i++) {
    const id = i < headLength ? (lexical.ids[i] as number) : (extra[i - headLength] as number);
    pool[i] = id;
    const z = (cosine[id] as number) - mean;
    // NaN (an abstained tool) fails the comparison and gets no lift.
    const lift = lifted && z > FUSION_PARAMS.zMove * deviation ? Math.min(1, z / deviation - FUSION_PARAMS.zMove) : 0;
    score[i] = (i < headLength ? 1 / (RRF_K + i + 1) : 0) + (trust * lift) / (RRF_K + 1);
  }
  const order = Array.from(pool.keys()).sort(
    (a, b) => (score[b] as number) - (score[a] as number) || bySimilarity(pool[a] as number, pool[b] as number),
  );
  // Unlifted additions follow the whole built-in ranking (those it holds keep their place in it), so paging is stable.
  const ids: number[] = [];
  const placed = new Set<number>();
  const late: number[] = [];
  for (const i of order) {
    const id = pool[i] as number;
    if (i >= headLength && !(score[i] as number)) {
      if (!members[id]) late.push(id);
      continue;
    }
    ids.push(id);
    placed.add(id);
  }
  for (let i = headLength; i < lexical.ids.length; i++) {
    const id = lexical.ids[i] as number;
    if (!placed.has(id)) ids.push(id);
  }
  ids.push(...late);
  ids.length = Math.min(ids.length, take);
  return { found, ids, keywords };
}
