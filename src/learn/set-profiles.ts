// Profiles of the tool sets used together: the memory of past requests grouped by the whole set of tools each request
// led to, every set keeping, per hashed term, how many of its sessions used the term with it. Built from the memory's
// own pages as they load (nothing more is stored), so it shares the memory's bound, its oldest-first pruning, its replay
// safety and its forgetting. The names, places and dates that fill a template vary from session to session and wash
// out of a set's profile; the words that say what the request wants come back every time and stand out.
import type { Remembered } from './memory-pages.ts';

/** One tool set's profile: its tools, and per hashed term, in how many of its sessions' requests it came. */
export interface SetProfile {
  readonly id: number;
  readonly key: string;
  readonly tools: readonly string[];
  /** Per session (hashed), its requests' terms with how many of them held each. */
  readonly sessions: Map<number, Map<number, number>>;
  /** Per term, the sessions holding it. */
  readonly held: Map<number, number>;
}

/** The live requests' tool sets, updated page by page as the memory's index loads them. */
export interface SetProfiles {
  /** By id; a set no session uses any more is undefined. */
  readonly sets: (SetProfile | undefined)[];
  /** Per term, the ids of the sets holding it, and in how many of each one's sessions. */
  readonly postings: Map<number, Map<number, number>>;
  /** Per set id, its sessions. */
  readonly sizes: number[];
  /** Sets in use. */
  live: number;
  /** Counts changes: a profile's length is as of the change it was computed at. */
  changes: number;
  /** Per set id, its profile's length, and the change it is as of (the IDF changes whenever a page loads; -1: not known). */
  norms: Float64Array;
  normsAt: Float64Array;
  /** Counts every edit of a term's sets (a session taken out to judge the sets too). */
  edits: number;
  /**
   * Per term's list of sets, the edit it last changed at (kept by the list itself, so a term no set holds any more
   * leaves nothing behind); and the edit the number of sets in use last changed at.
   */
  readonly listEdits: WeakMap<Map<number, number>, number>;
  liveAt: number;
}

interface Live {
  readonly entry: Remembered;
  readonly page: number;
  readonly order: number;
  readonly set: SetProfile | undefined;
}

/** The profiles and what keeps them in step with the memory: its live requests, per tag and per page. */
export interface SetTally extends SetProfiles {
  readonly byKey: Map<string, SetProfile>;
  readonly latest: Map<string, Live>;
  /** Per page, the tags of the requests it made live, and what each of its entries was (to tell a page that grew). */
  readonly pages: Map<number, { tags: string[]; seen: string[] }>;
}

/** Creates empty profiles. */
export const createSetTally = (): SetTally => ({
  sets: [],
  postings: new Map(),
  live: 0,
  changes: 0,
  edits: 0,
  listEdits: new WeakMap(),
  liveAt: 0,
  norms: new Float64Array(64),
  normsAt: new Float64Array(64).fill(-1),
  sizes: [],
  byKey: new Map(),
  latest: new Map(),
  pages: new Map(),
});

/** Adds (`by` 1) or takes away (-1) one request of a session from its set's profile. */
function count(s: SetTally, set: SetProfile, session: number, terms: readonly number[], by: 1 | -1): void {
  const own = set.sessions.get(session) ?? new Map<number, number>();
  if (own.size === 0 && by === 1) {
    set.sessions.set(session, own);
    if (set.sessions.size === 1) {
      s.live++;
      s.liveAt = ++s.edits;
    }
  }
  for (const term of terms) {
    const c = (own.get(term) ?? 0) + by;
    if (c > 0) own.set(term, c);
    else own.delete(term);
    if (c !== (by === 1 ? 1 : 0)) continue;
    // The session starts or stops holding the term.
    const n = (set.held.get(term) ?? 0) + by;
    if (n > 0) set.held.set(term, n);
    else set.held.delete(term);
    // A map per term, not arrays: a set leaves a common term's list without a search through it.
    const list = s.postings.get(term) ?? new Map<number, number>();
    if (list.size === 0) s.postings.set(term, list);
    s.listEdits.set(list, ++s.edits);
    if (n > 0) list.set(set.id, n);
    else {
      list.delete(set.id);
      if (list.size === 0) s.postings.delete(term);
    }
  }
  if (own.size === 0 && by === -1) {
    set.sessions.delete(session);
    if (set.sessions.size === 0) {
      s.live--;
      s.liveAt = ++s.edits;
    }
  }
  s.sizes[set.id] = set.sessions.size;
}

/**
 * Runs `judge` with one session taken out of a set's profile, then puts it back: how the sets would vote had that
 * session never been remembered. Only that set's length is computed again; the IDF moves by at most one set.
 */
export function withoutSession<T>(s: SetTally, set: SetProfile, session: number, judge: () => T): T {
  const own = set.sessions.get(session);
  if (!own) return judge();
  const terms = [...own].flatMap(([term, n]) => Array<number>(n).fill(term));
  count(s, set, session, terms, -1);
  s.normsAt[set.id] = -1;
  try {
    return judge();
  } finally {
    count(s, set, session, terms, 1);
    s.normsAt[set.id] = -1;
  }
}

function setOf(s: SetTally, tools: readonly string[]): SetProfile | undefined {
  if (tools.length === 0) return undefined;
  const sorted = [...tools].sort();
  const key = sorted.join('\n');
  let set = s.byKey.get(key);
  if (!set) {
    set = { id: s.sets.length, key, tools: sorted, sessions: new Map(), held: new Map() };
    if (set.id >= s.norms.length) {
      const norms = new Float64Array(s.norms.length * 2);
      const normsAt = new Float64Array(s.norms.length * 2).fill(-1);
      norms.set(s.norms);
      normsAt.set(s.normsAt);
      s.norms = norms;
      s.normsAt = normsAt;
    }
    s.normsAt[set.id] = -1;
    s.sets.push(set);
    s.byKey.set(key, set);
  }
  return set;
}

function kill(s: SetTally, tag: string): void {
  const live = s.latest.get(tag);
  if (!live) return;
  s.latest.delete(tag);
  if (live.set) count(s, live.set, live.entry.session, live.entry.terms, -1);
}

/** Removes page `n`'s live requests (an older version elsewhere stays dead, as in the memory's index). */
function removePage(s: SetTally, n: number): void {
  for (const tag of s.pages.get(n)?.tags ?? []) if (s.latest.get(tag)?.page === n) kill(s, tag);
  s.pages.delete(n);
}

const seenOf = (entry: Remembered): string =>
  `${entry.session}:${entry.turn}:${entry.terms.length}:${entry.tools.length}`;

/**
 * Replaces page `n`: a request's newest version (its largest, then the later page, later in it) is the live one. A
 * page only grows while it is filled, so when its entries start with those already read, only the new ones are added.
 */
export function loadSetPage(s: SetTally, n: number, entries: readonly Remembered[]): void {
  s.changes++;
  const had = s.pages.get(n);
  const grew =
    had !== undefined &&
    had.seen.length <= entries.length &&
    had.seen.every((x, k) => x === seenOf(entries[k] as Remembered));
  if (!grew) removePage(s, n);
  const page = grew ? had : { tags: [], seen: [] };
  for (let k = page.seen.length; k < entries.length; k++) {
    const entry = entries[k] as Remembered;
    page.seen.push(seenOf(entry));
    const order = (entry.terms.length + entry.tools.length) * 1e13 + n * 1e4 + k;
    const tag = `${entry.session}:${entry.turn}`;
    const was = s.latest.get(tag);
    if (was && was.order > order) continue;
    kill(s, tag);
    const set = setOf(s, entry.tools);
    s.latest.set(tag, { entry, page: n, order, set });
    if (set && entry.terms.length > 0) count(s, set, entry.session, entry.terms, 1);
    page.tags.push(tag);
  }
  s.pages.set(n, page);
  sweep(s);
}

/** Drops the sets no session uses any more. */
function sweep(s: SetTally): void {
  for (const set of s.sets) {
    if (!set || set.sessions.size > 0) continue;
    s.sets[set.id] = undefined;
    s.byKey.delete(set.key);
  }
}

/** Forgets every page not in `keep`. */
export function retainSetPages(s: SetTally, keep: ReadonlySet<number>): void {
  const old = [...s.pages.keys()].filter((n) => !keep.has(n));
  if (old.length === 0) return;
  s.changes++;
  for (const n of old) removePage(s, n);
  sweep(s);
}
