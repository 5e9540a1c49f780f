// The second stage: the best candidates of BM25F reordered by evidence its sum ignores (which fields cover which
// query words, adjacent pairs, a group whose members match together), as a linear model fitted by bench/tune.ts.
// The shipped weights (PARAMS.stage2) give only `pairs` a weight, so this computes the base score and the pairs alone
// and rerank-features.ts, which the core never imports, holds every feature for the tuner.
import { type BuiltIndex, PARAMS } from './build.ts';

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

/** Weight of `pairs` in PARAMS.stage2 (after `base`): the only feature the shipped second stage weighs. */
const PAIRS = 4;

/**
 * The IDF of the query's adjacent pairs that candidate d holds adjacent in its name or description (sequential
 * dependence), each pair counted once. Terms outside the query never pair, so they need not break a run.
 */
function pairsOf(ix: BuiltIndex, q: QueryEvidence, d: number): number {
  const { sequence, sequenceStart } = ix;
  const counted: number[] = [];
  let section = 0;
  let pairs = 0;
  let prevT = -1;
  for (let i = sequenceStart[d] as number; i < (sequenceStart[d + 1] as number) && section < 2; i++) {
    const t = sequence[i] as number;
    if (t < 0) {
      section++;
      prevT = -1;
      continue;
    }
    const key = prevT * 0x100000 + t;
    const w = prevT < 0 ? undefined : q.pairs.get(key);
    if (w !== undefined && !counted.includes(key)) {
      counted.push(key, t * 0x100000 + prevT);
      pairs += w;
    }
    prevT = t;
  }
  return pairs;
}

/**
 * Reorders the best candidates (at most PARAMS.rerankTop, best first) by the second stage's linear score; `scores`
 * holds that score of each, in the new order (the first stage's part relative to its best, so the best is about 1).
 */
export function rerank(
  ix: BuiltIndex,
  q: QueryEvidence,
  ids: readonly number[],
  score: Float64Array,
  floor: number,
): { ids: number[]; scores: number[] } {
  // The arrays are built by push, never by map: map makes them holey or packed depending on whether the optimizing
  // compiler ran it, and the ranking that reads them, compiled for one kind, was thrown out and compiled again
  // hundreds of times a run (node --trace-deopt: "wrong map" in rankTools), costing a search about a tenth.
  if (ids.length < 2) return { ids: ids.slice(), scores: ids.length === 0 ? [] : [1] };
  const best = (score[ids[0] as number] as number) - floor || 1;
  const weight = PARAMS.stage2[PAIRS] as number;
  const fround = Math.fround;
  const s = new Float64Array(ids.length);
  // Insertion sort of at most rerankTop positions: ties keep the first stage's order.
  const order: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const d = ids[i] as number;
    // Rounded to 32 bits where the feature rows of rerank-features.ts round, so both give the same order.
    const v = fround(((score[d] as number) - floor) / best) + weight * fround(fround(pairsOf(ix, q, d)) / best);
    s[i] = v;
    let j = order.length;
    order.push(i);
    while (j > 0 && (s[order[j - 1] as number] as number) < v) {
      order[j] = order[j - 1] as number;
      j--;
    }
    order[j] = i;
  }
  const ranked: number[] = [];
  const scores: number[] = [];
  for (const i of order) {
    ranked.push(ids[i] as number);
    scores.push(s[i] as number);
  }
  return { ids: ranked, scores };
}
