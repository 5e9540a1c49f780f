// Learned credit at search time: a score per visible tool for a query, and the ranking reordered by it.
import type { Catalogue } from '../core/catalogue.ts';
import type { BuiltIndex } from '../search/build.ts';
import type { RankResult } from '../search/index.ts';
import { idfOf } from '../search/rank.ts';
import type { ResolvedLearn } from './options.ts';
import { fade, type TermEntry } from './table.ts';

/** What a search reads of a scope: its clock, and the entry of each of the query's terms it learned. */
export interface Learned {
  readonly u: number;
  readonly entry: (term: string) => TermEntry | undefined;
}

/** A term's postings resolved for one catalogue at one clock: tool ids (-1 for a tool it lacks) and their a(t, x). */
interface Resolved {
  readonly catalogue: Catalogue;
  readonly u: number;
  readonly idf: number;
  readonly ids: Int32Array;
  readonly a: Float64Array;
}

// Per stored entry (a new array whenever a commit changes the term): searches at one clock resolve it once.
const resolved = new WeakMap<TermEntry, Resolved>();

function resolve(entry: TermEntry, term: string, catalogue: Catalogue, u: number, halfLife: number): Resolved {
  const known = resolved.get(entry);
  if (known && known.u === u && known.catalogue === catalogue) return known;
  const [searched, touched, postings] = entry;
  const n = searched * fade(u, touched, halfLife);
  const ix = catalogue.index as BuiltIndex;
  const t = ix.terms.get(term);
  const df = t === undefined ? 0 : (ix.start[t + 1] as number) - (ix.start[t] as number);
  const ids = new Int32Array(postings.length);
  const a = new Float64Array(postings.length);
  for (const [i, [tool, c, m, at]] of postings.entries()) {
    ids[i] = catalogue.byName.get(tool) ?? -1;
    const left = fade(u, at, halfLife);
    const sessions = m * left;
    a[i] = ((c * left) / (n + 2)) * (sessions / (sessions + 2));
  }
  const made = { catalogue, u, idf: idfOf(ix.size, df), ids, a };
  resolved.set(entry, made);
  return made;
}

/** A query's learned scores: the tools that have one, and the score of each of them by tool id (0 or less for the others). */
export interface LearnedScores {
  readonly ids: readonly number[];
  readonly score: Float64Array;
}

/**
 * Each visible tool's learned score for a query, between 0 and 1: over all the query's terms (the ranker's own), the
 * IDF-weighted mean of a(t, x) = c / (n + 2) · m / (m + 2), a term the scope learned nothing for counting 0. The first
 * factor is the share of the sessions that searched x which credited t; the second grows as other sessions agree.
 */
export function learnedScores(
  learned: Learned,
  catalogue: Catalogue,
  visible: (id: number) => boolean,
  terms: readonly string[],
  options: ResolvedLearn,
): LearnedScores {
  const ids: number[] = [];
  // Indexed by tool id: a search adds up hundreds of postings, and a typed array does it without hashing.
  const score = new Float64Array(catalogue.tools.length);
  let mass = 0;
  const ix = catalogue.index as BuiltIndex;
  for (const term of new Set(terms)) {
    const entry = learned.entry(term);
    if (!entry) {
      // A term nothing was learned for still counts, as 0: credit for one word of a long new request weighs less
      // than credit for all of a request seen before.
      const t = ix.terms.get(term);
      mass += idfOf(ix.size, t === undefined ? 0 : (ix.start[t + 1] as number) - (ix.start[t] as number));
      continue;
    }
    const { idf, ids: tools, a } = resolve(entry, term, catalogue, learned.u, options.halfLife);
    mass += idf;
    for (let i = 0; i < tools.length; i++) {
      const id = tools[i] as number;
      const add = idf * (a[i] as number);
      if (id < 0 || add <= 0) continue;
      const was = score[id] as number;
      if (was < 0) continue;
      if (was === 0) {
        // Each tool's visibility is asked once per search; -1 marks the hidden ones.
        if (!visible(id)) {
          score[id] = -1;
          continue;
        }
        ids.push(id);
      }
      score[id] = was + add;
    }
  }
  for (const id of ids) score[id] = (score[id] as number) / mass;
  return { ids, score };
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
