// The tuner's precomputed candidates: for one first-stage configuration, every query's best candidates with their
// second-stage features and relevance, so that fitting the second stage never runs the ranking again.
import type { Tool } from '../src/base/types.ts';
import { buildIndex, PARAMS } from '../src/search/build.ts';
import { rankFeatures } from '../src/search/rank.ts';
import { FEATURES } from '../src/search/rerank-features.ts';
import type { BenchSet } from './data.ts';

/** Features per candidate. */
export const F: number = FEATURES.length;

/** One set's queries under one configuration, flattened: query q's candidates are at [start[q], start[q + 1]). */
export interface Candidates {
  readonly set: string;
  readonly start: Int32Array;
  /** F features per candidate. */
  readonly features: Float32Array;
  /** 1 where the candidate is relevant. */
  readonly relevant: Uint8Array;
  /** Per query, how many tools are relevant (recall's denominator). */
  readonly total: Float64Array;
}

/** The first-stage constants the tuner varies (build-time and query-time ones). */
export interface FirstStage {
  readonly paramText: number;
  readonly coord: number;
}

/** Group numbers per tool (-1 for none), from each tool's first group. */
export function groupNumbers(tools: readonly { group?: string; groups?: readonly string[] }[]): Int32Array {
  const ids = new Map<string, number>();
  return Int32Array.from(tools, (t) => {
    const g = t.groups?.[0] ?? t.group;
    if (g === undefined) return -1;
    let id = ids.get(g);
    if (id === undefined) {
      id = ids.size;
      ids.set(g, id);
    }
    return id;
  });
}

/** Builds the set's index under the configuration and records every query's best `depth` candidates. */
export function candidatesOf(set: BenchSet, stage: FirstStage, depth: number): Candidates {
  const saved = { weight: PARAMS.weight.slice(), coord: PARAMS.coord };
  PARAMS.weight[3] = stage.paramText;
  PARAMS.coord = stage.coord;
  try {
    const tools = set.tools as unknown as Tool[];
    const index = buildIndex(tools);
    const groups = groupNumbers(set.tools);
    const start = new Int32Array(set.queries.length + 1);
    const rows: Float32Array[] = [];
    const flags: number[] = [];
    const total = new Float64Array(set.queries.length);
    set.queries.forEach((q, i) => {
      const { ids, features } = rankFeatures(index, q.query, depth, groups);
      const relevant = new Set(q.relevant);
      total[i] = relevant.size;
      // Substring-only hits below the head carry no features: a zero row keeps them below every token hit.
      const row = new Float32Array(ids.length * F);
      row.set(features.subarray(0, Math.min(features.length, row.length)));
      rows.push(row);
      for (const id of ids) flags.push(relevant.has(tools[id]?.name as string) ? 1 : 0);
      start[i + 1] = (start[i] as number) + ids.length;
    });
    const features = new Float32Array((start[set.queries.length] as number) * F);
    let at = 0;
    for (const row of rows) {
      features.set(row, at);
      at += row.length;
    }
    return { set: set.name, start, features, relevant: Uint8Array.from(flags), total };
  } finally {
    PARAMS.weight.splice(0, PARAMS.weight.length, ...saved.weight);
    PARAMS.coord = saved.coord;
  }
}

/** Recall@5 of the set's queries when the candidates are ordered by base + weights · features (ties: first stage). */
export function recallOf(c: Candidates, weights: readonly number[]): number {
  const { start, features, relevant, total } = c;
  const queries = total.length;
  const best = new Float64Array(5);
  const bestAt = new Int32Array(5);
  let sum = 0;
  for (let q = 0; q < queries; q++) {
    const from = start[q] as number;
    const to = start[q + 1] as number;
    if (to === from || !total[q]) continue;
    let kept = 0;
    for (let i = from; i < to; i++) {
      const at = i * F;
      let s = features[at] as number;
      // A substring-only hit (an all-zero row after the head) keeps its place below the token hits.
      if (s === 0 && i > from) s = -1 - (i - from) * 1e-6;
      else for (let f = 1; f < F; f++) s += (weights[f - 1] as number) * (features[at + f] as number);
      // Insert into the five best, earlier candidates winning ties.
      if (kept === 5 && s <= (best[4] as number)) continue;
      let j = kept < 5 ? kept++ : 4;
      while (j > 0 && s > (best[j - 1] as number)) {
        best[j] = best[j - 1] as number;
        bestAt[j] = bestAt[j - 1] as number;
        j--;
      }
      best[j] = s;
      bestAt[j] = i;
    }
    let hits = 0;
    for (let j = 0; j < kept; j++) hits += relevant[bestAt[j] as number] as number;
    sum += hits / (total[q] as number);
  }
  return sum / (queries || 1);
}
