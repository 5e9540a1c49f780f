// The tool sets' pairs: one set's one term, how many of the set's sessions hold it and when it last began to be held.
// A search reads a term's pairs by term number, each term's in a region of its own in shared arrays, in the order they
// began to be held: the sets a search finds first are those, so which sets it scores (it scores a few hundred at most)
// does not depend on how the arrays are laid out. The arrays follow the loads (a pair that began goes to the end of its
// term's region, one no session holds any more is taken out), and are laid out afresh only when the entries are
// numbered anew or much changed: a server that commits as it serves loads before nearly every search. Loading only
// counts; nothing here hashes a name or builds a map per term.
import { grown } from './grown.ts';
import type { MemoryEntries } from './memory-entries.ts';

/** The pairs of every set and term, in arrays by pair number; and, as of one load, by term number. */
export interface SetPairs {
  /** Per pair: its sessions, its place in `events` (-1: free), its set's id, its term (hashed, and numbered as the entries number it), its slot in the arrays by term, whether it may come back before the load settles. */
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
  /**
   * Per term number, its region's first slot, the slot after its pairs, and the region's length: its pairs from
   * `begin[t]` to `end[t]`; by slot i, the set's id at `cells[2 * i]` and its sessions holding the term at
   * `cells[2 * i + 1]` (side by side: a search reads both of each, and one array is half the lines a short region
   * touches), and the pair.
   */
  begin: Int32Array;
  end: Int32Array;
  room: Int32Array;
  cells: Int32Array;
  pairAt: Int32Array;
  /** The first slot past every region, and the slots left behind by regions moved to it. */
  tail: number;
  holes: number;
  /** Per pair, 1 when it is in the arrays by term, with its place in `events` and its term number as put there. */
  laid: Uint8Array;
  laidSeq: Int32Array;
  laidTerm: Int32Array;
  /** Pairs whose sessions changed since the arrays were last brought to date, and how long `events` was then. */
  readonly touched: number[];
  eventsAt: number;
  /** Per term number, the sets holding it. */
  count: Int32Array;
  /**
   * Sets whose own pairs the arrays' bringing to date changed (a pair's sessions read again, a term begun or no longer
   * held), so their lengths (set-vote.ts `normOf`) are to be computed again; every set when laid out afresh. And the
   * terms whose sets grew or shrank (their IDF moved: every other set holding one keeps only bounds on its length),
   * each with how many sets held it before; `movedAt` is 1 for a term in `moved`. Taken by the vote.
   */
  readonly reweighed: number[];
  reweighAll: boolean;
  readonly moved: number[];
  readonly movedFrom: number[];
  movedAt: Uint8Array;
  /** The load the arrays by term are as of, and the entries' numbering the pairs' terms are in (from 0, as new entries start). */
  builtAt: number;
  numbering: number;
}

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
  begin: new Int32Array(0),
  end: new Int32Array(0),
  room: new Int32Array(0),
  cells: new Int32Array(0),
  pairAt: new Int32Array(0),
  tail: 0,
  holes: 0,
  laid: new Uint8Array(256),
  laidSeq: new Int32Array(256),
  laidTerm: new Int32Array(256),
  touched: [],
  eventsAt: 0,
  count: new Int32Array(0),
  reweighed: [],
  reweighAll: false,
  moved: [],
  movedFrom: [],
  movedAt: new Uint8Array(0),
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
        laidSeq: grown(p.laidSeq, size),
        laidTerm: grown(p.laidTerm, size),
      });
      for (const key of ['pending', 'laid'] as const) p[key] = grownBytes(p[key], size);
    }
  }
  p.set[n] = set;
  p.hash[n] = hash;
  p.term[n] = term;
  p.held[n] = 0;
  p.pending[n] = 0;
  return n;
}

/** One more session holds pair `n`: it begins (again), unless its page is being reloaded and it keeps its place. */
export function holdPair(p: SetPairs, n: number): void {
  const was = p.held[n] as number;
  p.held[n] = was + 1;
  p.touched.push(n);
  if (was > 0) return;
  // A request of a reloaded page made live again keeps the place its terms had: the page only grew.
  if (p.pending[n] === 1) p.pending[n] = 0;
  else p.seq[n] = p.events.push(n) - 1;
}

/** One fewer session holds pair `n`; whether it is free now (none holds it and its page was not dropped). */
export function releasePair(p: SetPairs, n: number, dropped: boolean): boolean {
  const left = (p.held[n] as number) - 1;
  p.held[n] = left;
  p.touched.push(n);
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

/** Room a region is given past its pairs when laid out afresh, as a share of them (and at least 2): pairs that begin fill it. */
const ROOM_SHARE = 8;

/** Brings the arrays by term a search reads to the last load: following what changed, or laid out afresh. */
export function buildPairs(p: SetPairs, s: MemoryEntries): void {
  if (p.builtAt === s.loads) return;
  const renumbered = p.numbering !== s.numbering;
  if (renumbered || p.builtAt < 0 || !follow(p, s)) layAfresh(p, s, renumbered);
  p.touched.length = 0;
  p.eventsAt = p.events.length;
  p.builtAt = s.loads;
  p.numbering = s.numbering;
}

/** Lays every held pair out afresh, each term's in the order they began to be held, each region with room to grow. */
function layAfresh(p: SetPairs, s: MemoryEntries, renumbered: boolean): void {
  const { seq, held, term, laid, laidSeq, laidTerm } = p;
  const events: number[] = [];
  const terms = s.postings.length;
  const count = new Int32Array(terms);
  laid.fill(0);
  for (let i = 0; i < p.events.length; i++) {
    const n = p.events[i] as number;
    if (seq[n] !== i || (held[n] as number) === 0) continue;
    seq[n] = events.push(n) - 1;
    if (renumbered || term[n] === -1) term[n] = s.terms.get(p.hash[n] as number) as number;
    const t = term[n] as number;
    count[t] = (count[t] as number) + 1;
  }
  const begin = new Int32Array(terms);
  const end = new Int32Array(terms);
  const room = new Int32Array(terms);
  let tail = 0;
  for (let t = 0; t < terms; t++) {
    const n = count[t] as number;
    begin[t] = tail;
    end[t] = tail;
    room[t] = n + Math.max(2, Math.floor(n / ROOM_SHARE));
    tail += room[t] as number;
  }
  p.reweighAll = true;
  p.moved.length = 0;
  p.movedFrom.length = 0;
  Object.assign(p, {
    events,
    count,
    movedAt: new Uint8Array(terms),
    begin,
    end,
    room,
    cells: new Int32Array(2 * tail),
    pairAt: new Int32Array(tail),
    tail,
    holes: 0,
  });
  for (const n of events) {
    const t = term[n] as number;
    putLast(p, t, n);
    laid[n] = 1;
    laidSeq[n] = seq[n] as number;
    laidTerm[n] = t;
  }
}

/**
 * Brings the arrays by term to what changed since they were: pairs no session holds any more, or that began again, are
 * taken out of their term's region; the others' sessions are read again; the pairs that began since go to the end of
 * their term's, in the order they began. False (the arrays are to be laid out afresh) when too much changed.
 */
function follow(p: SetPairs, s: MemoryEntries): boolean {
  const { touched, held, seq, laid, laidSeq, laidTerm, term, events } = p;
  if ((touched.length + events.length - p.eventsAt) * ROOM_SHARE > p.tail || events.length > 4 * p.tail) return false;
  for (const n of touched) {
    if (laid[n] !== 1) continue;
    // The set it was laid for: a pair freed may have been given to another set since.
    p.reweighed.push(p.cells[2 * (p.slot[n] as number)] as number);
    if ((held[n] as number) > 0 && seq[n] === laidSeq[n]) p.cells[2 * (p.slot[n] as number) + 1] = held[n] as number;
    else {
      takeOut(p, laidTerm[n] as number, n);
      laid[n] = 0;
    }
  }
  for (let i = p.eventsAt; i < events.length; i++) {
    const n = events[i] as number;
    if (seq[n] !== i || (held[n] as number) === 0 || laid[n] === 1) continue;
    if (term[n] === -1) term[n] = s.terms.get(p.hash[n] as number) as number;
    const t = term[n] as number;
    putLast(p, t, n);
    countMoves(p, t, 1);
    p.reweighed.push(p.set[n] as number);
    laid[n] = 1;
    laidSeq[n] = i;
    laidTerm[n] = t;
  }
  return p.holes * 2 <= p.tail;
}

/** Term `t` is held by `by` sets more (its IDF moved), noted in `moved` with its count before if not there yet. */
function countMoves(p: SetPairs, t: number, by: number): void {
  if (p.movedAt[t] === 0) {
    p.movedAt[t] = 1;
    p.moved.push(t);
    p.movedFrom.push(p.count[t] as number);
  }
  p.count[t] = (p.count[t] as number) + by;
}

/** Takes pair `n` out of term `t`'s region, the later pairs moving up (they stay in order). */
function takeOut(p: SetPairs, t: number, n: number): void {
  const { cells, pairAt, slot } = p;
  const last = (p.end[t] as number) - 1;
  // By hand, not copyWithin: most moves are a few slots, and a load at a bounded memory takes out thousands.
  for (let i = slot[n] as number; i < last; i++) {
    cells[2 * i] = cells[2 * i + 2] as number;
    cells[2 * i + 1] = cells[2 * i + 3] as number;
    const moved = pairAt[i + 1] as number;
    pairAt[i] = moved;
    slot[moved] = i;
  }
  p.end[t] = last;
  countMoves(p, t, -1);
}

const grownTo = (a: Int32Array, size: number): Int32Array => grown(a, Math.max(size, a.length * 2));

/** A copy of `a` `size` bytes long. */
export function grownBytes(a: Uint8Array, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(a);
  return bytes;
}

/** Puts pair `n` after term `t`'s pairs; a full region moves to the tail, twice as long. */
function putLast(p: SetPairs, t: number, n: number): void {
  if (t >= p.begin.length)
    Object.assign(p, {
      begin: grownTo(p.begin, t + 1),
      end: grownTo(p.end, t + 1),
      room: grownTo(p.room, t + 1),
      count: grownTo(p.count, t + 1),
      movedAt: grownBytes(p.movedAt, Math.max(t + 1, p.movedAt.length * 2)),
    });
  const { begin, end, room } = p;
  if (end[t] === (begin[t] as number) + (room[t] as number)) {
    const length = (end[t] as number) - (begin[t] as number);
    const wanted = Math.max(4, 2 * (room[t] as number));
    if (p.tail + wanted > p.pairAt.length) {
      const size = p.tail + wanted;
      Object.assign(p, { cells: grownTo(p.cells, 2 * size), pairAt: grownTo(p.pairAt, size) });
    }
    p.cells.copyWithin(2 * p.tail, 2 * (begin[t] as number), 2 * (end[t] as number));
    p.pairAt.copyWithin(p.tail, begin[t] as number, end[t] as number);
    for (let i = 0; i < length; i++) p.slot[p.pairAt[p.tail + i] as number] = p.tail + i;
    p.holes += room[t] as number;
    begin[t] = p.tail;
    end[t] = p.tail + length;
    room[t] = wanted;
    p.tail += wanted;
  }
  const at = end[t] as number;
  p.cells[2 * at] = p.set[n] as number;
  p.cells[2 * at + 1] = p.held[n] as number;
  p.pairAt[at] = n;
  p.slot[n] = at;
  end[t] = at + 1;
}

/** Moves pair `n` to the end of its term's sets in the arrays by term, as if it had just begun to be held. */
export function backToEnd(p: SetPairs, n: number): void {
  const { cells, pairAt, slot } = p;
  const last = (p.end[p.term[n] as number] as number) - 1;
  const from = slot[n] as number;
  const id = cells[2 * from] as number;
  const held = cells[2 * from + 1] as number;
  for (let i = from; i < last; i++) {
    cells[2 * i] = cells[2 * i + 2] as number;
    cells[2 * i + 1] = cells[2 * i + 3] as number;
    const moved = pairAt[i + 1] as number;
    pairAt[i] = moved;
    slot[moved] = i;
  }
  cells[2 * last] = id;
  cells[2 * last + 1] = held;
  pairAt[last] = n;
  slot[n] = last;
  p.seq[n] = p.events.push(n) - 1;
  p.laidSeq[n] = p.seq[n] as number;
}
