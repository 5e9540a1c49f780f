// The second stage's full feature set, for bench/tune.ts (which fits its weights): the query-time path (rerank.ts)
// computes only the features whose shipped weight is not zero, so the core carries none of this.
import { type BuiltIndex, PARAMS } from './build.ts';
import type { QueryEvidence } from './rerank.ts';

/** The features of one candidate, in this order; `base` is its first-stage score relative to the best one. */
export const FEATURES = ['base', 'name', 'description', 'paramNames', 'nameTerms', 'pairs', 'group'] as const;
const F = FEATURES.length;

// Per slot, the best weight seen in each scanned section (name, description, parameter names) of one candidate.
let seen = new Float64Array(0);
// Pairs already counted for the candidate at hand (a handful at most), both orders.
const counted: number[] = [];
// Per index, per term: its query slot + 1 for the query at hand (negative for a prefix relative), 0 for none. A
// Map lookup per scanned term cost more than the rest of the second stage.
const slotTables = new WeakMap<BuiltIndex, Int32Array>();

/**
 * Writes the features of candidate d into out[at..at + F): which sections of its name, description and parameter
 * names cover the query (IDF-weighted shares), the share of its name the query names, and the IDF of the query's
 * adjacent pairs it holds adjacent in its name or description (sequential dependence).
 */
function features(
  ix: BuiltIndex,
  q: QueryEvidence,
  slotOf: Int32Array,
  d: number,
  out: Float32Array,
  at: number,
): void {
  const slotsCount = q.idf.length;
  if (seen.length < slotsCount * 3) seen = new Float64Array(slotsCount * 3 * 2);
  seen.fill(0, 0, slotsCount * 3);
  const { sequence, sequenceStart } = ix;
  const prefix = PARAMS.prefix;
  let section = 0;
  let pairs = 0;
  let named = 0;
  let prevT = -1;
  counted.length = 0;
  for (let i = sequenceStart[d] as number; i < (sequenceStart[d + 1] as number); i++) {
    const t = sequence[i] as number;
    if (t < 0) {
      section++;
      prevT = -1;
      continue;
    }
    const slot = slotOf[t] as number;
    if (slot === 0) {
      prevT = -1;
      continue;
    }
    const weight = slot > 0 ? 1 : prefix;
    const k = section * slotsCount + (slot > 0 ? slot : -slot) - 1;
    if (weight > (seen[k] as number)) {
      if (section === 0 && weight === 1) named++;
      seen[k] = weight;
    }
    if (prevT >= 0 && section < 2) {
      const key = prevT * 0x100000 + t;
      const w = q.pairs.get(key);
      if (w !== undefined && !counted.includes(key)) {
        counted.push(key, t * 0x100000 + prevT);
        pairs += w;
      }
    }
    prevT = t;
  }
  const mass = q.mass || 1;
  for (let s = 0; s < 3; s++) {
    let cover = 0;
    for (let j = 0; j < slotsCount; j++) cover += (seen[s * slotsCount + j] as number) * (q.idf[j] as number);
    out[at + 1 + s] = Math.min(1, cover / mass);
  }
  const nameTerms = ix.nameTerms[d] as number;
  out[at + 4] = nameTerms ? Math.min(1, named / nameTerms) : 0;
  // In the first stage's units (divided by the best score with the others), as the phrase bonus was once added.
  out[at + 5] = pairs;
}

/**
 * The features of the first `ids` (the best candidates, best first, `score` their first-stage scores above `floor`):
 * one row of FEATURES per candidate. `groups` gives a group number per tool (-1 for none) for the group evidence:
 * the summed relative scores of the candidate's fellow members among these candidates.
 */
export function candidateFeatures(
  ix: BuiltIndex,
  q: QueryEvidence,
  ids: readonly number[],
  score: Float64Array,
  floor: number,
  groups?: Int32Array,
): Float32Array {
  const out = new Float32Array(ids.length * F);
  const best = (score[ids[0] as number] as number) - floor || 1;
  let slotOf = slotTables.get(ix);
  if (!slotOf) {
    slotOf = new Int32Array(ix.terms.size);
    slotTables.set(ix, slotOf);
  }
  for (const [t, [slot, weight]] of q.slots) slotOf[t] = weight === 1 ? slot + 1 : -(slot + 1);
  ids.forEach((d, i) => {
    out[i * F] = ((score[d] as number) - floor) / best;
    features(ix, q, slotOf, d, out, i * F);
    out[i * F + 5] = (out[i * F + 5] as number) / best;
  });
  for (const t of q.slots.keys()) slotOf[t] = 0;
  if (groups) {
    const sums = new Map<number, number>();
    ids.forEach((d, i) => {
      const g = groups[d] as number;
      if (g >= 0) sums.set(g, (sums.get(g) ?? 0) + (out[i * F] as number));
    });
    ids.forEach((d, i) => {
      const g = groups[d] as number;
      if (g >= 0) out[i * F + 6] = Math.min(1, (sums.get(g) as number) - (out[i * F] as number));
    });
  }
  return out;
}

/** The linear score of row i of a feature matrix under weights (`base` weighs 1). */
export function linearScore(rows: Float32Array, i: number, weights: readonly number[]): number {
  let s = rows[i * F] as number;
  for (let f = 1; f < F; f++) s += (weights[f - 1] as number) * (rows[i * F + f] as number);
  return s;
}
