// The tool sets' pairs: one set's one term, how many of the set's sessions hold it and when it last began to be held.
// A search reads a term's pairs by term number, in arrays built once per load, in the order they began to be held:
// the sets a search finds first are those, so which sets it scores (it scores a few hundred at most) does not depend
// on how the arrays are laid out. Loading only counts; nothing here hashes a name or builds a map per term.
import type { MemoryEntries } from './memory-entries.ts';

/** The pairs of every set and term, in arrays by pair number; and, as of one load, by term number. */
export interface SetPairs {
  /** Per pair: its sessions, its place in `events` (-1: free), its set's id, its term (hashed, and numbered as the entries number it), its slot in `ids`, whether it may come back before the load settles. */
  held: Int32Array;
  seq: Int32Array;
  set: Int32Array;
  hash: Int32Array;
  term: Int32Array;
  slot: Int32Array;
  pending: Uint8Array;
  size: number;
  readonly free: number[];
  /** Pairs in the order they began to be held (a pair's place is its last beginning; earlier places are stale). */
  events: number[];
  /** Pairs no session holds since their page was dropped: they keep their place if it comes back before the load settles. */
  readonly dropped: number[];
  /** Per term number, its pairs' slots from `start[t]` to `start[t + 1]`: the sets' ids, their sessions holding it, the pair. */
  start: Int32Array;
  ids: Int32Array;
  sessions: Int32Array;
  pairAt: Int32Array;
  /** Per term number, the sets holding it. */
  count: Int32Array;
  /**
   * The term number of each hashed term some set holds: open addressing, slots of (hash, number), hash -1 when empty.
   * It may also hold terms no set holds any more (their count is 0, which a search reads as not held): a load adds the
   * new pairs' terms to it, and it is built anew only when the entries are numbered anew or it fills.
   */
  numbers: Int32Array;
  /** Terms in `numbers`; and the pairs made since the last build, whose terms it may lack. */
  numbered: number;
  readonly made: number[];
  /** The load the arrays by term are as of, and the entries' numbering the pairs' terms are in (from 0, as new entries start). */
  builtAt: number;
  numbering: number;
}

const grown = (a: Int32Array, size: number): Int32Array => {
  const out = new Int32Array(size);
  out.set(a);
  return out;
};

/** Creates no pairs. */
export const createSetPairs = (): SetPairs => ({
  held: new Int32Array(256),
  seq: new Int32Array(256),
  set: new Int32Array(256),
  hash: new Int32Array(256),
  term: new Int32Array(256),
  slot: new Int32Array(256),
  pending: new Uint8Array(256),
  size: 0,
  free: [],
  events: [],
  dropped: [],
  start: new Int32Array(1),
  ids: new Int32Array(0),
  sessions: new Int32Array(0),
  pairAt: new Int32Array(0),
  count: new Int32Array(0),
  numbers: new Int32Array(2).fill(-1),
  numbered: 0,
  made: [],
  builtAt: -1,
  numbering: 0,
});

/** A new pair of set `set` and a term (its hash, its number or -1), held by no session yet. */
export function newPair(p: SetPairs, set: number, hash: number, term: number): number {
  let n = p.free.pop();
  if (n === undefined) {
    n = p.size++;
    if (n >= p.held.length) {
      const size = p.held.length * 2;
      Object.assign(p, {
        held: grown(p.held, size),
        seq: grown(p.seq, size),
        set: grown(p.set, size),
        hash: grown(p.hash, size),
        term: grown(p.term, size),
        slot: grown(p.slot, size),
      });
      const pending = new Uint8Array(size);
      pending.set(p.pending);
      p.pending = pending;
    }
  }
  p.set[n] = set;
  p.hash[n] = hash;
  p.term[n] = term;
  p.held[n] = 0;
  p.pending[n] = 0;
  p.made.push(n);
  return n;
}

/** One more session holds pair `n`: it begins (again), unless its page is being reloaded and it keeps its place. */
export function holdPair(p: SetPairs, n: number): void {
  const was = p.held[n] as number;
  p.held[n] = was + 1;
  if (was > 0) return;
  // A request of a reloaded page made live again keeps the place its terms had: the page only grew.
  if (p.pending[n] === 1) p.pending[n] = 0;
  else p.seq[n] = p.events.push(n) - 1;
}

/** One fewer session holds pair `n`; whether it is free now (none holds it and its page was not dropped). */
export function releasePair(p: SetPairs, n: number, dropped: boolean): boolean {
  const left = (p.held[n] as number) - 1;
  p.held[n] = left;
  if (left > 0) return false;
  if (!dropped) return freePair(p, n);
  p.pending[n] = 1;
  p.dropped.push(n);
  return false;
}

/** Frees pair `n` (its number is given again); true. */
export function freePair(p: SetPairs, n: number): true {
  p.seq[n] = -1;
  p.pending[n] = 0;
  p.free.push(n);
  return true;
}

/** Builds the arrays by term a search reads, once per load: each term's pairs in the order they began to be held. */
export function buildPairs(p: SetPairs, s: MemoryEntries): void {
  if (p.builtAt === s.loads) return;
  const renumbered = p.numbering !== s.numbering;
  const { seq, held, term } = p;
  const events: number[] = [];
  const terms = s.postings.length;
  const count = new Int32Array(terms);
  for (let i = 0; i < p.events.length; i++) {
    const n = p.events[i] as number;
    if (seq[n] !== i || (held[n] as number) === 0) continue;
    seq[n] = events.push(n) - 1;
    if (renumbered || term[n] === -1) term[n] = s.terms.get(p.hash[n] as number) as number;
    const t = term[n] as number;
    count[t] = (count[t] as number) + 1;
  }
  const start = new Int32Array(terms + 1);
  for (let t = 0; t < terms; t++) start[t + 1] = (start[t] as number) + (count[t] as number);
  const at = start.slice(0, terms);
  const ids = new Int32Array(events.length);
  const sessions = new Int32Array(events.length);
  const pairAt = new Int32Array(events.length);
  for (const n of events) {
    const t = term[n] as number;
    const slot = at[t] as number;
    at[t] = slot + 1;
    ids[slot] = p.set[n] as number;
    sessions[slot] = held[n] as number;
    pairAt[slot] = n;
    p.slot[n] = slot;
  }
  // The table as it was plus the new pairs' terms, while the numbers hold and it stays at most half full.
  if (renumbered || (p.numbered + p.made.length) * 2 > p.numbers.length / 2) numberTable(p, events, count);
  else for (const n of p.made) if ((held[n] as number) > 0) numberOne(p, n);
  p.made.length = 0;
  Object.assign(p, { events, count, start, ids, sessions, pairAt, builtAt: s.loads, numbering: s.numbering });
}

/** Puts pair `n`'s term in the table (a power of 2 in size, kept at most half full). */
function numberOne(p: SetPairs, n: number): void {
  const table = p.numbers;
  const mask = (table.length >> 1) - 1;
  const hash = p.hash[n] as number;
  let i = hash & mask;
  while (table[2 * i] !== -1 && table[2 * i] !== hash) i = (i + 1) & mask;
  if (table[2 * i] === -1) p.numbered++;
  table[2 * i] = hash;
  table[2 * i + 1] = p.term[n] as number;
}

/**
 * The table of term numbers by hash, of the terms the held pairs hold, built anew (room for twice as many again): a
 * search finds its terms' numbers in one array rather than in the memory's map of every term (a term no set holds is
 * in neither's count).
 */
function numberTable(p: SetPairs, events: readonly number[], count: Int32Array): void {
  let held = 0;
  for (let t = 0; t < count.length; t++) if ((count[t] as number) > 0) held++;
  let size = 2;
  while (size < held * 4) size *= 2;
  p.numbers = new Int32Array(size * 2).fill(-1);
  p.numbered = 0;
  for (const n of events) numberOne(p, n);
}

/** A hashed term's number in the table, or -1 when no set holds it. */
export function termNumber(table: Int32Array, hash: number): number {
  const mask = (table.length >> 1) - 1;
  for (let i = hash & mask; ; i = (i + 1) & mask) {
    const at = table[2 * i] as number;
    if (at === hash) return table[2 * i + 1] as number;
    if (at === -1) return -1;
  }
}

/** Moves pair `n` to the end of its term's sets in the arrays by term, as if it had just begun to be held. */
export function backToEnd(p: SetPairs, n: number): void {
  const { ids, sessions, pairAt, slot } = p;
  const last = (p.start[(p.term[n] as number) + 1] as number) - 1;
  const from = slot[n] as number;
  const id = ids[from] as number;
  const held = sessions[from] as number;
  for (let i = from; i < last; i++) {
    ids[i] = ids[i + 1] as number;
    sessions[i] = sessions[i + 1] as number;
    const moved = pairAt[i + 1] as number;
    pairAt[i] = moved;
    slot[moved] = i;
  }
  ids[last] = id;
  sessions[last] = held;
  pairAt[last] = n;
  slot[n] = last;
  p.seq[n] = p.events.push(n) - 1;
}
