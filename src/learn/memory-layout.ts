// The memory's postings as a search reads them: every term's live ids in one array (a search reads a few dozen lists,
// and one array is fewer places to fetch than a list each), each term in a region of its own with room to grow, and
// each entry's BM25 length factor. Brought up to date from what the loads since added and killed, not laid out again
// at every load: a server that commits as it serves loads before nearly every search. A term's region holds its live
// ids in increasing order, as laying them out afresh would.
import { PARAMS } from '../search/build.ts';
import { grown } from './grown.ts';
import type { MemoryEntries } from './memory-entries.ts';

/** BM25's saturation and length normalisation over a remembered request's terms: the ranker's own k1, a description's b. */
const K1 = PARAMS.k1;
const B = 0.75;
/** Room a region is given past its ids when laid out afresh, as a share of them (and at least 2): new ids fill it. */
const ROOM_SHARE = 8;

/** The laid-out postings as of one load. */
export interface Layout {
  /** The load it is as of, and the entries' numbering its term numbers are in. */
  at: number;
  numbering: number;
  /**
   * Per term number, where its region begins and where its ids end, side by side (a search reads both, and one line
   * brings them), and its room (its region's length).
   */
  bounds: Int32Array;
  room: Int32Array;
  ids: Int32Array;
  /** The first place after every region, and the places left behind by regions moved to it. */
  tail: number;
  holes: number;
  /** The entries laid out (every id below it), and the kills of the entries' log read. */
  size: number;
  killed: number;
  /** The live entries' mean length, as of the load laid out (each entry's BM25 length factor follows from it). */
  avg: number;
}

/**
 * An entry's BM25 length factor in a layout: each term a request holds appears once, its weight the term's IDF times
 * this. Computed for the candidates a search scores, not kept for every entry: the mean length moves with every load.
 */
export const lengthFactor = (l: Layout, length: number): number => (K1 + 1) / (1 + K1 * (1 - B + (B * length) / l.avg));

/** No postings laid out. */
export const createLayout = (): Layout => ({
  at: -1,
  numbering: -1,
  bounds: new Int32Array(0),
  room: new Int32Array(0),
  ids: new Int32Array(0),
  tail: 0,
  holes: 0,
  size: 0,
  killed: 0,
  avg: 0,
});

/** The layout brought to the entries' last load (the same object, or a new one when laid out afresh). */
export function layOut(l: Layout, s: MemoryEntries, live: number): Layout {
  if (l.at === s.loads) return l;
  const laid = follow(l, s) ? l : afresh(s);
  laid.avg = s.totalLength / live;
  laid.at = s.loads;
  laid.size = s.entries.length;
  laid.killed = s.killed.length;
  laid.numbering = s.numbering;
  return laid;
}

/** Every term's live ids laid out afresh, each region with room to grow. */
function afresh(s: MemoryEntries): Layout {
  const { postings, alive } = s;
  const terms = postings.length;
  const l = createLayout();
  l.bounds = new Int32Array(2 * terms);
  l.room = new Int32Array(terms);
  let total = 0;
  for (let t = 0; t < terms; t++) {
    let n = 0;
    for (const id of postings[t] as number[]) if (alive[id] === 1) n++;
    l.bounds[2 * t] = total;
    l.bounds[2 * t + 1] = total + n;
    l.room[t] = n + Math.max(2, Math.floor(n / ROOM_SHARE));
    total += l.room[t] as number;
  }
  l.ids = new Int32Array(total);
  for (let t = 0; t < terms; t++) {
    let at = l.bounds[2 * t] as number;
    for (const id of postings[t] as number[]) if (alive[id] === 1) l.ids[at++] = id;
  }
  l.tail = total;
  return l;
}

/**
 * Brings the layout to the entries from the kills logged and the entries added since; false when it is to be laid out
 * afresh instead: the entries were numbered anew, much changed, or regions moved have left too much unused.
 */
function follow(l: Layout, s: MemoryEntries): boolean {
  if (l.numbering !== s.numbering || l.at < 0) return false;
  const { killed, entries, alive, terms } = s;
  if ((killed.length - l.killed + entries.length - l.size) * ROOM_SHARE > entries.length) return false;
  for (let i = l.killed; i < killed.length; i++) {
    const { id, terms: hashes } = killed[i] as { id: number; terms: readonly number[] };
    // An entry added and killed since was never laid out.
    if (id < l.size) for (const hash of hashes) take(l, terms.get(hash) as number, id);
  }
  for (let id = l.size; id < entries.length; id++) {
    const entry = entries[id];
    if (!entry || alive[id] !== 1) continue;
    for (const hash of entry.terms) put(l, terms.get(hash) as number, id);
  }
  return l.holes * 2 <= l.tail;
}

/** Takes one `id` out of term `t`'s ids, the later ones moving up (they stay in order). */
function take(l: Layout, t: number, id: number): void {
  const { ids, bounds } = l;
  const end = bounds[2 * t + 1] as number;
  // In increasing order: found by halving.
  let lo = bounds[2 * t] as number;
  let hi = end - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] as number) < id) lo = mid + 1;
    else hi = mid;
  }
  if (ids[lo] !== id) return;
  ids.copyWithin(lo, lo + 1, end);
  bounds[2 * t + 1] = end - 1;
}

/** Puts `id`, larger than every id laid out, at the end of term `t`'s ids; a full region moves to the tail, twice as long. */
function put(l: Layout, t: number, id: number): void {
  if (t >= l.room.length) {
    const size = Math.max(t + 1, l.room.length * 2);
    l.bounds = grown(l.bounds, 2 * size);
    l.room = grown(l.room, size);
  }
  const { bounds, room } = l;
  const begin = bounds[2 * t] as number;
  const end = bounds[2 * t + 1] as number;
  if (end === begin + (room[t] as number)) {
    const length = end - begin;
    const wanted = Math.max(4, 2 * (room[t] as number));
    if (l.tail + wanted > l.ids.length) {
      const ids = new Int32Array(Math.max(2 * l.ids.length, l.tail + wanted));
      ids.set(l.ids.subarray(0, l.tail));
      l.ids = ids;
    }
    l.ids.copyWithin(l.tail, begin, end);
    l.holes += room[t] as number;
    bounds[2 * t] = l.tail;
    bounds[2 * t + 1] = l.tail + length;
    room[t] = wanted;
    l.tail += wanted;
  }
  const at = bounds[2 * t + 1] as number;
  l.ids[at] = id;
  bounds[2 * t + 1] = at + 1;
}
