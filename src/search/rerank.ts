// The second stage: the best candidates of BM25F reordered by evidence its sum ignores (which fields cover which
// query words, adjacent pairs, a group whose members match together), as a linear model fitted by bench/tune.ts.
import { type BuiltIndex, PARAMS } from './build.ts';

/** The features of one candidate, in this order; `base` is its first-stage score relative to the best one. */
export const FEATURES = ['base', 'name', 'description', 'paramNames', 'nameTerms', 'pairs', 'group'] as const;
const F = FEATURES.length;

/** What the second stage needs to know of a query: its terms' slots, their IDF and the pairs worth a bonus. */
export interface QueryEvidence {
  /** Term id to [slot, weight] (1 for the query's own term, PARAMS.prefix for a prefix relative). */
  readonly slots: Map<number, readonly [number, number]>;
  /** Per slot: the IDF of the query term. */
  readonly idf: Float64Array;
  /** The IDF mass of the query's known terms. */
  readonly mass: number;
  /** Adjacent query-term pairs (both orders), keyed a * 0x100000 + b, to the smaller IDF of the two. */
  readonly pairs: Map<number, number>;
}

// Han and kana: a segmenter splits unknown words of these scripts into fragments ("航班" into 航|班), so two such
// terms side by side in a query prove nothing about a phrase, and counting them would add a word's IDF twice.
const CJK = /^[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;

/** Whether a term is written in a script without spaces between words. */
export const isCjk = (term: string): boolean => CJK.test(term);

/** The adjacent pairs of a query's terms that count as phrases: known terms, distinct, not both CJK. */
export function queryPairs(ix: BuiltIndex, parsed: readonly string[], idf: (t: number) => number): Map<number, number> {
  const pairs = new Map<number, number>();
  let previous = -1;
  let previousCjk = false;
  for (const term of parsed) {
    const t = ix.terms.get(term);
    // A word the catalogue lacks is skipped, not a break: the words on either side still pair.
    if (t === undefined) continue;
    const cjk = isCjk(term);
    if (previous >= 0 && previous !== t && !(cjk && previousCjk)) {
      const w = Math.min(idf(previous), idf(t));
      pairs.set(previous * 0x100000 + t, w);
      pairs.set(t * 0x100000 + previous, w);
    }
    previous = t;
    previousCjk = cjk;
  }
  return pairs;
}

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

/** Reorders the best candidates (at most PARAMS.rerankTop, best first) by the second stage's linear score. */
export function rerank(
  ix: BuiltIndex,
  q: QueryEvidence,
  ids: readonly number[],
  score: Float64Array,
  floor: number,
  groups?: Int32Array,
): number[] {
  if (ids.length < 2) return ids.slice();
  const rows = candidateFeatures(ix, q, ids, score, floor, groups);
  const weights = PARAMS.stage2;
  const s = new Float64Array(ids.length);
  // Insertion sort of at most rerankTop positions: ties keep the first stage's order.
  const order: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const v = linearScore(rows, i, weights);
    s[i] = v;
    let j = order.length;
    order.push(i);
    while (j > 0 && (s[order[j - 1] as number] as number) < v) {
      order[j] = order[j - 1] as number;
      j--;
    }
    order[j] = i;
  }
  return order.map((i) => ids[i] as number);
}
