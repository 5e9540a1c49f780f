// Learned credit at search time: a score per visible tool for a query, and the ranking reordered by it.
import type { Catalogue } from '../core/catalogue.ts';
import type { RankResult } from '../search/index.ts';
import { type CompiledShard, compiledShard, slotOf } from './compiled-shard.ts';
import type { ResolvedLearn } from './options.ts';
import type { Shard } from './table.ts';

/** What a search reads of a scope: its clock, and by the query's terms' places, the shard holding each. */
export interface Learned {
  readonly u: number;
  /** The shard of each term's first place (undefined at a repeat). */
  readonly shards: readonly (Shard['x'] | undefined)[];
  /** Per place, whether it is the term's first: a term counts once. */
  readonly first: readonly boolean[];
}

/**
 * A search's learned values, by tool id: `value` (a scratch array, 0 for a tool with none) and `ids`, the tools given
 * one, hidden ones included: the caller asks visibility only of the few that can change the ranking.
 */
export interface LearnedValues {
  readonly value: Float64Array;
  readonly ids: number[];
}

/**
 * Adds `weight` times each tool's learned score for a query to `into`. The score, between 0 and 1: over all the
 * query's terms (the ranker's own), the IDF-weighted mean of a(t, x) = c / (n + 2) · m / (m + 2), a term the scope
 * learned nothing for counting 0. The first factor is the share of the sessions that searched x which credited t;
 * the second grows as other sessions agree. `into` holds no value yet.
 */
export function addLearnedScores(
  learned: Learned,
  catalogue: Catalogue,
  terms: readonly string[],
  options: ResolvedLearn,
  weight: number,
  into: LearnedValues,
): void {
  const { value: score, ids } = into;
  const { halfLife } = options;
  let mass = 0;
  // Consecutive terms often fall in one shard: its compiled form is looked up again only when the shard changes.
  let x: Shard['x'] | undefined;
  let c: CompiledShard | undefined;
  for (let k = 0; k < terms.length; k++) {
    const shard = learned.shards[k];
    if (!learned.first[k] || shard === undefined) continue;
    if (shard !== x || c === undefined) {
      x = shard;
      c = compiledShard(shard, catalogue, halfLife);
    }
    // A term nothing was learned for still counts, as 0 (a slot without postings): credit for one word of a long new
    // request weighs less than credit for all of a request seen before.
    const slot = slotOf(c, shard, terms[k] as string, learned.u);
    mass += c.idf[slot] as number;
    const { ids: tools, adds } = c;
    for (let i = c.begin[slot] as number, end = c.begin[slot + 1] as number; i < end; i++) {
      const id = tools[i] as number;
      const add = adds[i] as number;
      if (id < 0 || add <= 0) continue;
      const was = score[id] as number;
      if (was === 0) ids.push(id);
      score[id] = was + add;
    }
  }
  for (const id of ids) score[id] = weight * ((score[id] as number) / mass);
}

/**
 * Reorders a ranking by 1 / (1 + rank) + value. `ranked` holds the keyword ranking's top `depth`; `value` gives each
 * ranked tool's learned value (0 for none); `joins` are the visible tools whose value may bring them into the page,
 * and `members` (when known) marks every tool of the whole keyword result set. A join outside the result set joins it;
 * one past `depth` counts as ranked just after it.
 */
export function reorder(
  ranked: RankResult,
  value: Float64Array,
  joins: readonly number[],
  take: number,
  depth: number,
  members: Uint8Array | undefined,
): RankResult {
  // Each tool of the reordered list with its keyword place and its value; the list is at most depth + joins long.
  const place = new Map<number, number>();
  for (const [i, id] of ranked.ids.entries()) place.set(id, i);
  let found = ranked.found;
  const all = ranked.ids.map((id, i) => ({ id, at: i, by: 1 / (1 + i) + (value[id] as number) }));
  for (const id of joins) {
    if (place.has(id)) continue;
    let at: number;
    if (members?.[id]) at = depth + 1;
    else if (members || ranked.ids.length < depth) {
      // Outside the keyword result set: no keyword rank at all.
      at = Number.POSITIVE_INFINITY;
      found++;
    } else continue;
    place.set(id, at);
    all.push({ id, at, by: 1 / (1 + at) + (value[id] as number) });
  }
  all.sort((a, b) => b.by - a.by || a.at - b.at || a.id - b.id);
  const ids = all.map(({ id }) => id);
  return { found, ids: Number.isFinite(take) ? ids.slice(0, take) : ids, keywords: ranked.keywords };
}
