// The entries of a memory index: every loaded page's remembered requests, the newest version of each request kept
// live, with postings and document frequencies per hashed term for the vote, and compaction once dead ids pile up.
import type { Remembered } from './memory-pages.ts';

/** A remembered request as the index holds it. */
export interface Entry extends Remembered {
  readonly tag: string;
  readonly page: number;
  /** Which version is newer: its size first (a request only grows), then where it was stored. */
  readonly order: number;
  /** Its tools (sorted) as one key: requests that used the same set have the same. */
  readonly set: string;
}

/** A memory index's entries and what it keeps per hashed term, shared by its loading and its vote. */
export interface MemoryEntries {
  /** By id; a dead entry's slot is undefined until the next compaction. */
  entries: (Entry | undefined)[];
  /** Per hashed term, the ids of the entries that hold it (dead ids too, until the next compaction). */
  postings: Map<number, number[]>;
  /** Per tag, the id of its newest version. */
  latest: Map<string, number>;
  readonly pages: Map<number, number[]>;
  dead: number;
  /** Per hashed term, the live entries that hold it. */
  df: Map<number, number>;
  /** 1 for a live entry, by id: the postings keep dead ids, and a typed array answers without loading the entry. */
  alive: Uint8Array;
  /** Counts loads: what a vote derives from the whole memory is as of the load it was computed at. */
  loads: number;
  /** Per id, the entry's number of terms (BM25's length normalisation reads it without loading the entry). */
  lengths: number[];
  /** Per id, the entry's place in an order fixed by its session and turn (ties between equally similar requests). */
  keys: number[];
  /** The live entries' terms, summed: their mean length. */
  totalLength: number;
}

/** Creates the entries of an empty memory index. */
export const createEntries = (): MemoryEntries => ({
  entries: [],
  postings: new Map(),
  latest: new Map(),
  pages: new Map(),
  dead: 0,
  df: new Map(),
  alive: new Uint8Array(64),
  loads: 0,
  lengths: [],
  keys: [],
  totalLength: 0,
});

function kill(s: MemoryEntries, id: number): void {
  const entry = s.entries[id];
  if (!entry) return;
  s.entries[id] = undefined;
  s.alive[id] = 0;
  s.dead++;
  s.totalLength -= entry.terms.length;
  for (const term of entry.terms) s.df.set(term, (s.df.get(term) as number) - 1);
}

/** Indexes an entry, unless a newer version of its request is indexed: the later page, or later in a page, wins. */
function add(s: MemoryEntries, entry: Entry): void {
  const was = s.latest.get(entry.tag);
  const older = was === undefined ? undefined : s.entries[was];
  if (older && older.order > entry.order) return;
  if (older) kill(s, was as number);
  const id = s.entries.length;
  s.entries.push(entry);
  if (id >= s.alive.length) {
    const grown = new Uint8Array(s.alive.length * 2);
    grown.set(s.alive);
    s.alive = grown;
  }
  s.alive[id] = 1;
  s.lengths[id] = entry.terms.length;
  s.keys[id] = entry.session * 1024 + entry.turn;
  s.totalLength += entry.terms.length;
  s.latest.set(entry.tag, id);
  for (const term of entry.terms) {
    const list = s.postings.get(term);
    if (list) list.push(id);
    else s.postings.set(term, [id]);
    s.df.set(term, (s.df.get(term) ?? 0) + 1);
  }
  (s.pages.get(entry.page) ?? s.pages.set(entry.page, []).get(entry.page))?.push(id);
}

/** Drops the ids of dead entries from the postings once they are a third of all. */
function compact(s: MemoryEntries): void {
  if (s.dead * 3 < s.entries.length || s.entries.length < 64) return;
  const live = s.entries.filter((entry): entry is Entry => entry !== undefined);
  s.entries = [];
  s.alive.fill(0);
  s.lengths = [];
  s.keys = [];
  s.totalLength = 0;
  s.postings = new Map();
  s.latest = new Map();
  s.df = new Map();
  s.pages.clear();
  s.dead = 0;
  for (const entry of live) add(s, entry);
}

function remove(s: MemoryEntries, n: number): void {
  for (const id of s.pages.get(n) ?? []) {
    const entry = s.entries[id];
    if (!entry) continue;
    kill(s, id);
    if (s.latest.get(entry.tag) === id) s.latest.delete(entry.tag);
  }
  s.pages.delete(n);
}

/** Replaces page `n` with what the store holds (a page may grow until the next one starts). */
export function loadPage(s: MemoryEntries, n: number, loaded: readonly Remembered[]): void {
  s.loads++;
  remove(s, n);
  // A request only grows (more terms, more tools) while its turn lasts, so its newest version is its largest,
  // whichever lane or page holds it.
  for (const [k, entry] of loaded.entries()) {
    const order = (entry.terms.length + entry.tools.length) * 1e13 + n * 1e4 + k;
    add(s, { ...entry, tag: `${entry.session}:${entry.turn}`, page: n, order, set: entry.tools.join('\n') });
  }
  compact(s);
}

/** Forgets every loaded page not in `keep`. */
export function retainPages(s: MemoryEntries, keep: ReadonlySet<number>): void {
  const old = [...s.pages.keys()].filter((n) => !keep.has(n));
  if (old.length === 0) return;
  s.loads++;
  for (const n of old) remove(s, n);
  compact(s);
}
