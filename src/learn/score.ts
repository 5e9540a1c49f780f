// Learned credit at search time: a score per visible tool for a query, and the ranking reordered by it.
import type { Catalogue } from '../core/catalogue.ts';
import type { BuiltIndex } from '../search/build.ts';
import type { RankResult } from '../search/index.ts';
import { idfOf } from '../search/rank.ts';
import type { ResolvedLearn } from './options.ts';
import { type CreditTable, fade, own } from './table.ts';

/** Most tools read per learned term at search time. */
const POSTINGS_KEPT = 32;

type Posting = readonly [tool: string, credit: number, sessions: number, at: number];

// The table turned around once per table value: term -> the tools credited for it.
const postings = new WeakMap<CreditTable, Map<string, Posting[]>>();

function postingsOf(table: CreditTable): Map<string, Posting[]> {
  let byTerm = postings.get(table);
  if (byTerm) return byTerm;
  byTerm = new Map();
  for (const [tool, entries] of Object.entries(table.t)) {
    for (const [term, [c, m, at]] of Object.entries(entries)) {
      const list = byTerm.get(term) ?? [];
      list.push([tool, c, m, at]);
      byTerm.set(term, list);
    }
  }
  // A term credited to many tools (a common word) says little about each: its best postings carry the signal,
  // and a search then reads a bounded list whatever the table holds.
  for (const [term, list] of byTerm) {
    if (list.length <= POSTINGS_KEPT) continue;
    list.sort((a, b) => b[1] * (b[2] / (b[2] + 2)) - a[1] * (a[2] / (a[2] + 2)));
    byTerm.set(term, list.slice(0, POSTINGS_KEPT));
  }
  postings.set(table, byTerm);
  return byTerm;
}

/**
 * Each visible tool's learned score for a query, between 0 and 1: over the query's terms (the ranker's own) the scope has learned,
 * the IDF-weighted mean of a(t, x) = c / (n + 2) · m / (m + 2). The first factor is the share of the sessions that
 * searched x which credited t; the second grows only as other sessions agree, so one session's word is not enough.
 */
export function learnedScores(
  table: CreditTable,
  catalogue: Catalogue,
  visible: (id: number) => boolean,
  terms: readonly string[],
  options: ResolvedLearn,
): Map<number, number> {
  const scores = new Map<number, number>();
  const byTerm = postingsOf(table);
  if (byTerm.size === 0) return scores;
  const ix = catalogue.index as BuiltIndex;
  const { halfLife } = options;
  let mass = 0;
  for (const term of new Set(terms)) {
    const list = byTerm.get(term);
    const count = own(table.n, term);
    if (!list || !count) continue;
    const n = count[0] * fade(table.u, count[1], halfLife);
    const t = ix.terms.get(term);
    const df = t === undefined ? 0 : (ix.start[t + 1] as number) - (ix.start[t] as number);
    const idf = idfOf(ix.size, df);
    mass += idf;
    for (const [tool, c, m, at] of list) {
      const id = catalogue.byName.get(tool);
      if (id === undefined || !visible(id)) continue;
      const left = fade(table.u, at, halfLife);
      const sessions = m * left;
      const a = ((c * left) / (n + 2)) * (sessions / (sessions + 2));
      scores.set(id, (scores.get(id) ?? 0) + idf * a);
    }
  }
  for (const [id, s] of scores) scores.set(id, s / mass);
  return scores;
}

/**
 * Reorders a ranking by 1 / (1 + rank) + weight · score. `ranked` holds the keyword ranking's top `depth`;
 * `members` (when known) marks every tool of its whole result set. A learned tool outside the result set joins it
 * (it is visible: the scores hold visible tools only); one past `depth` counts as ranked just after it.
 */
export function reorder(
  ranked: RankResult,
  scores: ReadonlyMap<number, number>,
  weight: number,
  take: number,
  depth: number,
  members: Uint8Array | undefined,
): RankResult {
  const place = new Map<number, number>();
  for (const [i, id] of ranked.ids.entries()) place.set(id, i);
  let found = ranked.found;
  const all = [...ranked.ids];
  for (const id of scores.keys()) {
    if (place.has(id)) continue;
    if (members?.[id]) place.set(id, depth + 1);
    else if (members || ranked.ids.length < depth) {
      // Outside the keyword result set: no keyword rank at all.
      place.set(id, Number.POSITIVE_INFINITY);
      found++;
    } else continue;
    all.push(id);
  }
  const value = (id: number) => 1 / (1 + (place.get(id) as number)) + weight * (scores.get(id) ?? 0);
  const values = new Map(all.map((id) => [id, value(id)]));
  all.sort(
    (a, b) =>
      (values.get(b) as number) - (values.get(a) as number) ||
      (place.get(a) as number) - (place.get(b) as number) ||
      a - b,
  );
  return { found, ids: Number.isFinite(take) ? all.slice(0, take) : all, keywords: ranked.keywords };
}
