// Profiles of the tool sets used together: the memory of past requests grouped by the whole set of tools each request
// led to, every set keeping, per hashed term, how many of its sessions used the term with it. Kept from the memory
// index's own entries as they are made live and killed (nothing more is stored, and which version of a request is
// live is decided there), so it shares the memory's bound, its oldest-first pruning, its replay safety and its
// forgetting. The names, places and dates that fill a template vary from session to session and wash out of a set's
// profile; the words that say what the request wants come back every time and stand out.
import { grown } from './grown.ts';
import type { Entry, EntryHooks } from './memory-entries.ts';
import {
  backToEnd,
  createSetPairs,
  freePair,
  grownBytes,
  holdPair,
  newPair,
  releasePair,
  type SetPairs,
} from './set-pairs.ts';

/** One tool set's profile: its tools, its sessions' live requests, and per hashed term its pair. */
export interface SetProfile {
  readonly id: number;
  readonly key: string;
  readonly tools: readonly string[];
  /** Per session (hashed), its live requests in this set. */
  readonly members: Map<number, Entry[]>;
  /** Per hashed term the set's sessions hold, its pair, in the order the set began to hold them. */
  readonly pairs: Map<number, number>;
}

/** The live requests' tool sets and their pairs. */
export interface SetProfiles {
  readonly byKey: Map<string, SetProfile>;
  /** By id; the id of a set no session uses any more is given again. */
  readonly byId: (SetProfile | undefined)[];
  readonly freeIds: number[];
  /** Ids of the sets whose last session went since the load last settled: they go when it does, unless used again. */
  readonly emptied: number[];
  /** Per set id, its sessions. */
  sizes: Int32Array;
  /** Sets in use. */
  live: number;
  readonly pairs: SetPairs;
  /** Per set id, its length, and the load it is as of (-1: not known). */
  norms: Float64Array;
  normsAt: Float64Array;
  /**
   * Per set id, whether its length stands past its load. 0: it is computed again, once a load changed the set's own
   * sessions or pairs (set-pairs.ts `reweighed`). 1: `norms` holds it while `normsLive` sets are in use. 2: only bounds
   * on it are kept, since a term it holds is held by more or fewer sets (its IDF moved). A server that commits as it
   * serves loads before nearly every search, and a commit changes few sets but moves the IDF of common terms, and
   * most commits bring a new set: bounds let a search compute again only the lengths of sets that may be its nearest.
   */
  kept: Uint8Array;
  /** Per set id kept, the sets in use as of which its bounds are, and bounds on its length times its sessions, squared. */
  normsLive: Int32Array;
  sumLow: Float64Array;
  sumHigh: Float64Array;
  /**
   * What the moves of common terms' sets have added up to (COMMON): per set id, what it was when the
   * set's bounds were set; per term number, what it was after the term's last such move.
   */
  slack: number;
  slackAt: Float64Array;
  termSlackAt: Float64Array;
  /** How many sets hold a term whose moves only add to `slack` (COMMON; tests set it lower). */
  readonly common: number;
  /**
   * While a session is taken out to judge the sets: lengths computed then are kept aside (`judgedNorms`, with the load
   * they are of), and stand for that load only, as they always have; the lengths kept past loads stay as they are.
   */
  judging: boolean;
  judgedNorms: Float64Array;
  judgedAt: Float64Array;
}

/**
 * Terms held by this many sets or more move no set's bounds (on seal-tools they hold four in five of the sets a
 * commit's terms reach): a step of one in a count c moves a weight squared by at most 2·log(1 + live/c)/c, so a set's
 * length times its sessions, squared, by at most its sessions squared times that; what such steps add up to (`slack`,
 * of 2/c each, taken times log(1 + live/COMMON) when read) widens every set's bounds (set-lengths.ts `lengthBound`),
 * each set's from when its bounds were set.
 */
export const COMMON = 64;

/** Creates empty profiles. */
export const createSetProfiles = (common: number = COMMON): SetProfiles => ({
  byKey: new Map(),
  byId: [],
  freeIds: [],
  emptied: [],
  sizes: new Int32Array(64),
  live: 0,
  pairs: createSetPairs(),
  norms: new Float64Array(64),
  normsAt: new Float64Array(64).fill(-1),
  kept: new Uint8Array(64),
  normsLive: new Int32Array(64),
  sumLow: new Float64Array(64),
  sumHigh: new Float64Array(64),
  slack: 0,
  slackAt: new Float64Array(64),
  termSlackAt: new Float64Array(0),
  common,
  judging: false,
  judgedNorms: new Float64Array(64),
  judgedAt: new Float64Array(64).fill(-1),
});

/** Terms once each: as this library writes them (sorted), they are. */
function distinct(terms: readonly number[]): readonly number[] {
  for (let i = 1; i < terms.length; i++)
    if ((terms[i] as number) <= (terms[i - 1] as number)) return [...new Set(terms)];
  return terms;
}

const holds = (requests: readonly Entry[], hash: number): boolean => requests.some((r) => r.terms.includes(hash));

function setOf(p: SetProfiles, key: string, entry: Entry): SetProfile {
  let set = p.byKey.get(key);
  if (set) return set;
  const id = p.freeIds.pop() ?? p.byId.length;
  set = { id, key, tools: [...entry.tools].sort(), members: new Map(), pairs: new Map() };
  p.byKey.set(key, set);
  p.byId[id] = set;
  if (id >= p.sizes.length) {
    const size = p.sizes.length * 2;
    const [normsAt, judgedAt] = [new Float64Array(size).fill(-1), new Float64Array(size).fill(-1)];
    normsAt.set(p.normsAt);
    judgedAt.set(p.judgedAt);
    Object.assign(p, {
      normsAt,
      judgedAt,
      judgedNorms: grown(p.judgedNorms, size),
      sizes: grown(p.sizes, size),
      norms: grown(p.norms, size),
      kept: grownBytes(p.kept, size),
      normsLive: grown(p.normsLive, size),
      sumLow: grown(p.sumLow, size),
      sumHigh: grown(p.sumHigh, size),
      slackAt: grown(p.slackAt, size),
    });
  }
  p.sizes[id] = 0;
  p.normsAt[id] = -1;
  p.judgedAt[id] = -1;
  p.kept[id] = 0;
  return set;
}

/** Adds a live request to its set: each term its session did not hold yet in the set is held by one more session. */
function addRequest(p: SetProfiles, entry: Entry, key: string, numbers: readonly number[]): void {
  const set = setOf(p, key, entry);
  let requests = set.members.get(entry.session);
  if (!requests) {
    requests = [];
    set.members.set(entry.session, requests);
    if (set.members.size === 1) p.live++;
    p.sizes[set.id] = set.members.size;
    p.kept[set.id] = 0;
  }
  const terms = distinct(entry.terms);
  for (let k = 0; k < terms.length; k++) {
    const hash = terms[k] as number;
    if (requests.length > 0 && holds(requests, hash)) continue;
    let n = set.pairs.get(hash);
    if (n === undefined) {
      n = newPair(p.pairs, set.id, hash, terms === entry.terms ? (numbers[k] as number) : -1);
      set.pairs.set(hash, n);
    }
    holdPair(p.pairs, n);
  }
  requests.push(entry);
}

/** Takes a request that is no longer live out of its set. */
function killRequest(p: SetProfiles, entry: Entry, key: string, dropped: boolean): void {
  const set = p.byKey.get(key) as SetProfile;
  const requests = set.members.get(entry.session) as Entry[];
  requests.splice(requests.indexOf(entry), 1);
  for (const hash of distinct(entry.terms))
    if (!holds(requests, hash) && releasePair(p.pairs, set.pairs.get(hash) as number, dropped)) set.pairs.delete(hash);
  if (requests.length > 0) return;
  set.members.delete(entry.session);
  if (set.members.size === 0) {
    p.live--;
    p.emptied.push(set.id);
  }
  p.sizes[set.id] = set.members.size;
  p.kept[set.id] = 0;
}

/** The hooks that keep the profiles in step with the memory's entries made live and killed. */
export function profileHooks(p: SetProfiles): EntryHooks {
  const counted = (entry: Entry) => entry.tools.length > 0 && entry.terms.length > 0;
  return {
    add(entry, key, numbers) {
      if (counted(entry)) addRequest(p, entry, key, numbers);
    },
    kill(entry, key, dropped) {
      if (counted(entry)) killRequest(p, entry, key, dropped);
    },
    settle() {
      const { pairs } = p;
      for (const n of pairs.dropped) {
        if (pairs.pending[n] === 0) continue;
        (p.byId[pairs.set[n] as number] as SetProfile).pairs.delete(pairs.hash[n] as number);
        freePair(pairs, n);
      }
      pairs.dropped.length = 0;
      // The sets no session uses any more go, by id: their ids are given again in the order a pass over all gave them.
      p.emptied.sort((a, b) => a - b);
      for (const [i, id] of p.emptied.entries()) {
        const set = p.byId[id] as SetProfile;
        if (id === p.emptied[i - 1] || set.members.size > 0) continue;
        p.byKey.delete(set.key);
        p.byId[id] = undefined;
        p.freeIds.push(id);
      }
      p.emptied.length = 0;
    },
  };
}

/**
 * Runs `judge` with one session taken out of a set's profile, then puts it back: how the sets would vote had that
 * session never been remembered. Only that set's length is computed again; the IDF moves by at most one set. A term
 * the set holds only through that session leaves the term's sets, and comes back as the last of them.
 */
export function withoutSession<T>(p: SetProfiles, set: SetProfile, session: number, judge: () => T): T {
  const requests = set.members.get(session);
  if (!requests) return judge();
  const { pairs } = p;
  const { slot, term, cells, count } = pairs;
  const taken: number[] = [];
  for (const request of requests)
    for (const hash of distinct(request.terms)) {
      const n = set.pairs.get(hash) as number;
      if (taken.includes(n)) continue;
      taken.push(n);
      const at = 2 * (slot[n] as number) + 1;
      cells[at] = (cells[at] as number) - 1;
      if (cells[at] === 0) count[term[n] as number] = (count[term[n] as number] as number) - 1;
    }
  const size = p.sizes[set.id] as number;
  p.sizes[set.id] = size - 1;
  if (size === 1) p.live--;
  p.normsAt[set.id] = -1;
  p.judgedAt[set.id] = -1;
  p.kept[set.id] = 0;
  p.judging = true;
  try {
    return judge();
  } finally {
    p.judging = false;
    p.sizes[set.id] = size;
    if (size === 1) p.live++;
    p.normsAt[set.id] = -1;
    p.judgedAt[set.id] = -1;
    p.kept[set.id] = 0;
    for (const n of taken) {
      const at = 2 * (slot[n] as number) + 1;
      cells[at] = (cells[at] as number) + 1;
      if (cells[at] !== 1) continue;
      count[term[n] as number] = (count[term[n] as number] as number) + 1;
      backToEnd(pairs, n);
      const hash = pairs.hash[n] as number;
      set.pairs.delete(hash);
      set.pairs.set(hash, n);
    }
  }
}
