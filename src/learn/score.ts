// Learned credit at search time: a score per visible tool for a query, and the ranking reordered by it.
import type { Catalogue } from '../core/catalogue.ts';
import type { BuiltIndex } from '../search/build.ts';
import type { RankResult } from '../search/index.ts';
import { idfOf } from '../search/rank.ts';
import { fade, type Posting, type TermEntry } from './table.ts';

/**
 * What a search reads of the table, resolved for its catalogue and clock: per distinct query term, at `at[k]` in
 * `data`, the term's IDF, the count n of its postings that add anything (a tool of the catalogue, a credit above 0),
 * then n pairs (tool id, IDF · a(t, x)), in the postings' order; and `mass`, the terms' IDFs summed in order. Flat:
 * a search follows no pointer from a term to its postings.
 */
export interface Learned {
  readonly data: Float64Array;
  readonly at: readonly number[];
  readonly mass: number;
}

/**
 * A term's postings resolved for one catalogue: tool ids (-1 for a tool it lacks) and the term's IDF, found once per
 * stored entry (none, for a term without one); and each posting's IDF · a(t, x) at the clock `u` it was last computed
 * for, computed again only when the clock moved. Plain arrays, not typed ones: their few elements sit on the heap next
 * to the record (a typed array of more than 64 bytes keeps them apart), so a search that reads them waits on fewer
 * cache misses.
 */
export interface Resolved {
  readonly catalogue: Catalogue;
  readonly idf: number;
  /** The postings read (the entry's strongest), for a resolution of the term's next entry to find by pointer. */
  readonly postings: readonly Posting[];
  readonly ids: readonly number[];
  /**
   * The entry's numbers the adds are computed from: its sessions that searched the term and its clock, then each read
   * posting's credit, sessions and clock. Flat beside the record: after a commit moves the clock, every term's adds
   * are computed again, and reading the postings' own arrays (each number behind its own pointer) cost the first
   * search after a commit about a cache miss per number.
   */
  readonly raw: readonly number[];
  adds: readonly number[];
  /** The clock and the half-life the adds were computed at (layers of one store may fade by different half-lives). */
  u: number;
  halfLife: number;
}

// Per stored entry (a new array whenever a commit changes the term): searches resolve it once per catalogue.
const resolved = new WeakMap<TermEntry, Resolved>();

/** A term's IDF in a catalogue (0 documents for a term it lacks). */
function idfIn(ix: BuiltIndex, term: string): number {
  const t = ix.terms.get(term);
  return idfOf(ix.size, t === undefined ? 0 : (ix.start[t + 1] as number) - (ix.start[t] as number));
}

/**
 * Postings a search reads per term: the strongest, as the term was last written (a term keeps up to maxToolsPerTerm).
 * The weaker ones add little: reading 12 scored as reading all 32 did under leave-one-set-out (bench/TUNING.md), and
 * each term's read is shorter.
 */
const READ_PER_TERM = 12;

/** Clock steps whose fades a half-life's table keeps, at most. */
const FADES_KEPT = 16384;

// Per half-life (a few), fade(u, at, halfLife) by the clock steps u - at (0 for one not computed yet).
const fadeTables = /* @__PURE__ */ new Map<number, Float64Array>();

/**
 * The table of fades for a half-life, long enough for a clock `u` (up to FADES_KEPT): after a commit moves the clock,
 * a search computes each term's adds again, a power (about 50 ns here) per posting clock; looked up, the first and
 * next search after a commit spend about 2-5 us less in heldFor at seal-tools.
 */
function fadesFor(halfLife: number, u: number): Float64Array {
  let fades = fadeTables.get(halfLife);
  if (fades === undefined || (fades.length <= u && fades.length < FADES_KEPT)) {
    let length = fades?.length ?? 1024;
    while (length <= u && length < FADES_KEPT) length *= 2;
    const grown = new Float64Array(length);
    if (fades) grown.set(fades);
    if (!fadeTables.has(halfLife) && fadeTables.size >= 4) fadeTables.clear();
    fadeTables.set(halfLife, grown);
    fades = grown;
  }
  return fades;
}

/**
 * fade(u, at, halfLife), kept in `fades` when the steps are a whole number it has room for: computed by the same
 * expression from the same steps, so the same double (rankings stay exactly as they were).
 */
function fadeFrom(fades: Float64Array, u: number, at: number, halfLife: number): number {
  const d = u - at;
  if (!(d > 0 && d < fades.length && (d | 0) === d)) return fade(u, at, halfLife);
  let left = fades[d] as number;
  if (left === 0) {
    left = 2 ** (-d / halfLife);
    fades[d] = left;
  }
  return left;
}

/**
 * Resolves a term's entry for a catalogue. From `was`, a resolution of the term for an entry it had before (the same
 * catalogue), it takes the IDF, and the id and numbers of each posting the new entry kept as it was (the same array,
 * found by pointer: a commit copies only the postings it changes, and no one changes a posting in place): looking
 * each tool up again in the catalogue, out of cache after a commit, was the first search's largest cost of resolving.
 */
/**
 * The id a term's earlier resolution gave `tool`, if it held it: a commit writes each posting it changed as a new
 * array, and a lookup in the catalogue by name costs a hash of the name and a probe that misses the cache.
 */
function heldId({ postings, ids }: Resolved, tool: string): number | undefined {
  for (let k = 0; k < postings.length; k++) if ((postings[k] as Posting)[0] === tool) return ids[k];
  return undefined;
}

function resolveAnew(entry: TermEntry, term: string, catalogue: Catalogue, halfLife: number, was?: Resolved): Resolved {
  const postings = entry[2].slice(0, READ_PER_TERM);
  const ids: number[] = [];
  const raw: number[] = [entry[0], entry[1]];
  for (let i = 0; i < postings.length; i++) {
    const posting = postings[i] as Posting;
    let j = -1;
    if (was !== undefined) {
      const before = was.postings;
      if (before[i] === posting) j = i;
      else for (let k = 0; k < before.length && j < 0; k++) if (before[k] === posting) j = k;
    }
    if (j >= 0) {
      const { ids: idsWas, raw: rawWas } = was as Resolved;
      ids.push(idsWas[j] as number);
      raw.push(rawWas[2 + 3 * j] as number, rawWas[3 + 3 * j] as number, rawWas[4 + 3 * j] as number);
    } else {
      const [tool, c, m, at] = posting;
      ids.push((was && heldId(was, tool)) ?? catalogue.byName.get(tool) ?? -1);
      raw.push(c, m, at);
    }
  }
  const idf = was ? was.idf : idfIn(catalogue.index as BuiltIndex, term);
  return { catalogue, idf, postings, ids, raw, adds: [], u: Number.NaN, halfLife };
}

function resolve(
  entry: TermEntry | undefined,
  term: string,
  catalogue: Catalogue,
  u: number,
  halfLife: number,
  known: Resolved | undefined,
  earlier: Map<string, Resolved> | undefined,
): Resolved {
  // Most searches find the term as they left it, and read none of its postings (out of cache by then).
  if (known && known.catalogue === catalogue && known.u === u && known.halfLife === halfLife) return known;
  // A term nothing was learned for still counts, by its IDF alone (looked up: keeping it by term cost more).
  if (!entry)
    return {
      catalogue,
      idf: idfIn(catalogue.index as BuiltIndex, term),
      postings: [],
      ids: [],
      raw: [],
      adds: [],
      u,
      halfLife,
    };
  if (!known || known.catalogue !== catalogue) {
    let was = earlier?.get(term);
    if (was?.catalogue !== catalogue) was = undefined;
    known = resolveAnew(entry, term, catalogue, halfLife, was);
    resolved.set(entry, known);
    earlier?.set(term, known);
  }
  if (known.u !== u || known.halfLife !== halfLife) {
    const { raw } = known;
    const fades = fadesFor(halfLife, u);
    const n = (raw[0] as number) * fadeFrom(fades, u, raw[1] as number, halfLife);
    // Postings committed together share their clock: their fade is computed once.
    let lastAt = Number.NaN;
    let left = 1;
    const adds: number[] = [];
    for (let i = 2; i < raw.length; i += 3) {
      const c = raw[i] as number;
      const m = raw[i + 1] as number;
      const at = raw[i + 2] as number;
      if (at !== lastAt) {
        lastAt = at;
        left = fadeFrom(fades, u, at, halfLife);
      }
      const sessions = m * left;
      adds.push(known.idf * (((c * left) / (n + 2)) * (sessions / (sessions + 2))));
    }
    known.adds = adds;
    known.u = u;
    known.halfLife = halfLife;
  }
  return known;
}

/** The doubles of `data` a term's resolved values take at most: its IDF, its count and a pair per read posting. */
export const spanOf = (entry: TermEntry | undefined): number =>
  2 + 2 * (entry === undefined ? 0 : Math.min(entry[2].length, READ_PER_TERM));

/**
 * Writes a term's resolved values (see Learned) at `to` in `data`, which holds spanOf(entry) doubles from there. Its
 * postings are resolved once per stored entry and catalogue (from the term's last resolution in `earlier`, by term,
 * where it still holds; the new one is kept there), their adds again only when the clock moved.
 */
export function writeTerm(
  data: Float64Array,
  to: number,
  entry: TermEntry | undefined,
  term: string,
  catalogue: Catalogue,
  u: number,
  halfLife: number,
  earlier?: Map<string, Resolved>,
): void {
  const { idf, ids, adds } = resolve(entry, term, catalogue, u, halfLife, entry && resolved.get(entry), earlier);
  data[to] = idf;
  let at = to + 2;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const add = adds[i] as number;
    // Kept out once here rather than skipped by every search.
    if (id < 0 || add <= 0) continue;
    data[at] = id;
    data[at + 1] = add;
    at += 2;
  }
  data[to + 1] = (at - to - 2) / 2;
}

/**
 * A search's learned values, by tool id: `value` (a scratch array, 0 for a tool with none) and the first `count` of
 * `ids`, the tools given one, hidden ones included: the caller asks visibility only of the few that can change the
 * ranking. The list is reused past `count` rather than emptied: emptying an array (`length = 0`) drops its storage,
 * and a few hundred pushes then grow it again at every search.
 */
export interface LearnedValues {
  readonly value: Float64Array;
  readonly ids: number[];
  count: number;
}

/**
 * Adds `weight` times each tool's learned score for a query to `into`. The score, between 0 and 1: over all the
 * query's terms (the ranker's own), the IDF-weighted mean of a(t, x) = c / (n + 2) · m / (m + 2), a term the scope
 * learned nothing for counting 0. The first factor is the share of the sessions that searched x which credited t;
 * the second grows as other sessions agree. `into` holds no value yet.
 */
export function addLearnedScores(learned: Learned, weight: number, into: LearnedValues): void {
  const { value: score, ids } = into;
  let count = into.count;
  const { data, at, mass } = learned;
  for (let k = 0; k < at.length; k++) {
    let p = at[k] as number;
    const end = p + 2 + 2 * (data[p + 1] as number);
    for (p += 2; p < end; p += 2) {
      const id = data[p] as number;
      const was = score[id] as number;
      if (was === 0) ids[count++] = id;
      score[id] = was + (data[p + 1] as number);
    }
  }
  into.count = count;
  for (let i = 0; i < count; i++) {
    const id = ids[i] as number;
    score[id] = weight * ((score[id] as number) / mass);
  }
}

// Each reordered tool's keyword place and score, by its place in the list: scratch kept between searches (a reorder
// runs to its end without waiting), so that a search grows no new arrays for them.
const reorderAt: number[] = [];
const reorderBy: number[] = [];

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
  // The reordered list, at most depth + joins long and mostly in keyword order already: kept sorted by insertion
  // (by `by` falling, then keyword place, then id), in parallel arrays rather than an object per tool.
  const ids: number[] = [];
  const at = reorderAt;
  const by = reorderBy;
  const put = (id: number, place: number) => {
    const score = 1 / (1 + place) + (value[id] as number);
    let i = ids.length;
    for (; i > 0; i--) {
      const b = by[i - 1] as number;
      const a = at[i - 1] as number;
      if (b > score || (b === score && (a < place || (a === place && (ids[i - 1] as number) < id)))) break;
      ids[i] = ids[i - 1] as number;
      at[i] = a;
      by[i] = b;
    }
    ids[i] = id;
    at[i] = place;
    by[i] = score;
  };
  const head = ranked.ids;
  for (let i = 0; i < head.length; i++) put(head[i] as number, i);
  let found = ranked.found;
  for (const id of joins) {
    // Ranked already, or joined already (a tool whose value came back to 0 and grew again is listed twice).
    if (ids.includes(id)) continue;
    if (members?.[id]) put(id, depth + 1);
    else if (members || head.length < depth) {
      // Outside the keyword result set: no keyword rank at all.
      put(id, Number.POSITIVE_INFINITY);
      found++;
    }
  }
  if (Number.isFinite(take) && ids.length > take) ids.length = take;
  return { found, ids, keywords: ranked.keywords };
}
