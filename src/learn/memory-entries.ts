// The entries of a memory index: every loaded page's remembered requests, the newest version of each request kept
// live, with postings and document frequencies per hashed term for the vote, and compaction once dead ids pile up.
// Terms, tool names and tool sets are numbered as entries load, so a vote reads arrays by number and hashes nothing.
import type { Remembered } from './memory-pages.ts';

/** A remembered request as the index holds it: as its page gave it (what else it keeps is by id, in arrays). */
export type Entry = Remembered;

/**
 * A request's identity, its session and turn: as one exact number where they are the integers this library writes
 * (a session's 32-bit hash, a turn below 2^21: their product stays below 2^53), else as text.
 */
function tagOf(entry: Remembered): number | string {
  const { session, turn } = entry;
  return Number.isInteger(session) &&
    session >= 0 &&
    session < 2 ** 32 &&
    Number.isInteger(turn) &&
    turn >= 0 &&
    turn < 2 ** 21
    ? session * 2 ** 21 + turn
    : `${session}:${turn}`;
}

/** A request's place in an order fixed by its session and turn: the same whichever lane or page holds it. */
export const keyOf = (entry: Remembered): number => entry.session * 1024 + entry.turn;

/**
 * What else follows which requests are live (the tool sets' profiles): told of each entry made live or killed, with
 * its tool set's key and, when made live, its terms' numbers; `dropped` when its page is reloaded or forgotten (a
 * reload makes the same requests live again before it settles).
 */
export interface EntryHooks {
  add(entry: Entry, key: string, terms: readonly number[]): void;
  kill(entry: Entry, key: string, dropped: boolean): void;
  /** A load or a retain is done. */
  settle(): void;
}

/** A memory index's entries and what it keeps per hashed term, shared by its loading and its vote. */
export interface MemoryEntries {
  /** By id; a dead entry's slot is undefined until the next compaction. */
  entries: (Entry | undefined)[];
  /** Per hashed term, its number: the slot of its postings and document frequency. */
  terms: Map<number, number>;
  /**
   * The same numbers in an open-addressing table (hash, number pairs, -1 where empty, at most half full) for a
   * search's lookups (`termNumber`; the sets' pairs are numbered alike): one typed array read where the map's lookup
   * missed the cache.
   */
  termTable: Int32Array;
  /** Per term number, the ids of the entries that hold it (dead ids too, until the next compaction). */
  postings: number[][];
  /** Per term number, the live entries that hold it. */
  df: number[];
  /**
   * Per term number, the same ids as a bitset, for the common terms a vote asked for one (see memory-similar.ts): a
   * vote tests its candidates against it instead of reading the term's long list.
   */
  bits: (Uint32Array | undefined)[];
  /** Entries added that hold a term twice (none from this library's pages): their postings repeat an id, which a bitset cannot. */
  repeats: number;
  /** Per tool name, its number; and per number, the name. */
  tools: Map<string, number>;
  toolNames: string[];
  /** Per tool set (its tools, sorted, as one key), its number: requests that used the same set have the same; and per number, the key. */
  sets: Map<string, number>;
  setKeys: string[];
  /** Per request (its tag), the id of its newest version. */
  latest: Map<number | string, number>;
  /** Per id, the page it came from, and which version is newer: its size first (a request only grows), then where it was stored. */
  pageOf: number[];
  orders: number[];
  readonly pages: Map<number, number[]>;
  /** Per page, how many requests its last load or extension gave (malformed entries skipped): where an extension goes on. */
  readonly pageLengths: Map<number, number>;
  dead: number;
  /** The entries killed since the last compaction, in order, by id with their terms: the layout a search reads follows them. */
  killed: { readonly id: number; readonly terms: readonly number[] }[];
  /** 1 for a live entry, by id: the postings keep dead ids, and a typed array answers without loading the entry. */
  alive: Uint8Array;
  /** Counts loads: what a vote derives from the whole memory is as of the load it was computed at. */
  loads: number;
  /**
   * Counts requests made live that were not (none of their versions) and requests no longer live, over every load: a
   * reloaded page's requests that come back, and a request's newer version, are not counted. How much the memory
   * changed since some earlier time, without the churn of a filling page read again.
   */
  changes: number;
  /** Per id, the entry's number of terms (BM25's length normalisation reads it without loading the entry). */
  lengths: number[];
  /** Per id, the entry's place in an order fixed by its session and turn (ties between equally similar requests). */
  keys: number[];
  /** Per id, the entry's session, its tools' numbers and its tool set's number: what a vote reads of a voter. */
  sessions: number[];
  used: number[][];
  setOf: number[];
  /** The live entries' terms, summed: their mean length. */
  totalLength: number;
  /** Counts compactions: a term's number is as of the compaction it was given at. */
  numbering: number;
  /** Told of every entry made live or killed, except by a compaction (which changes numbers, not what is live). */
  hooks: EntryHooks | undefined;
  /** The last query's terms numbered (`queryNumbers`), made at its first search. */
  numbered: QueryNumbers | undefined;
}

/** Creates the entries of an empty memory index. */
export const createEntries = (): MemoryEntries => ({
  entries: [],
  terms: new Map(),
  termTable: new Int32Array(64).fill(-1),
  postings: [],
  df: [],
  bits: [],
  repeats: 0,
  tools: new Map(),
  toolNames: [],
  sets: new Map(),
  setKeys: [],
  latest: new Map(),
  pageOf: [],
  orders: [],
  pages: new Map(),
  pageLengths: new Map(),
  dead: 0,
  killed: [],
  alive: new Uint8Array(64),
  loads: 0,
  changes: 0,
  lengths: [],
  keys: [],
  sessions: [],
  used: [],
  setOf: [],
  totalLength: 0,
  numbering: 0,
  hooks: undefined,
  numbered: undefined,
});

function kill(s: MemoryEntries, id: number, dropped: boolean): void {
  const entry = s.entries[id];
  if (!entry) return;
  s.hooks?.kill(entry, s.setKeys[s.setOf[id] as number] as string, dropped);
  s.entries[id] = undefined;
  s.alive[id] = 0;
  s.dead++;
  s.killed.push({ id, terms: entry.terms });
  s.totalLength -= entry.terms.length;
  for (const term of entry.terms) {
    const n = s.terms.get(term) as number;
    s.df[n] = (s.df[n] as number) - 1;
  }
}

/** The number of `key` in `numbers`, a new one when it has none yet. */
function numberOf<K>(numbers: Map<K, number>, key: K): number {
  let n = numbers.get(key);
  if (n === undefined) {
    n = numbers.size;
    numbers.set(key, n);
  }
  return n;
}

/** Adds a newly numbered term to the entries' table, doubled first when it would be more than half full. */
function tableTerm(s: MemoryEntries, hash: number, n: number): void {
  if (s.terms.size * 4 > s.termTable.length) {
    const old = s.termTable;
    s.termTable = new Int32Array(old.length * 2).fill(-1);
    for (let i = 0; i < old.length; i += 2)
      if (old[i] !== -1) putTerm(s.termTable, old[i] as number, old[i + 1] as number);
  }
  putTerm(s.termTable, hash, n);
}

/** A hashed term's number in an entries' table (`termTable`), or -1 when the memory holds it not. */
export function termNumber(table: Int32Array, hash: number): number {
  const mask = (table.length >> 1) - 1;
  for (let i = hash & mask; ; i = (i + 1) & mask) {
    const at = table[2 * i] as number;
    if (at === hash) return table[2 * i + 1] as number;
    if (at === -1) return -1;
  }
}

/**
 * A query's distinct terms the entries number, in the order first met: their numbers and hashes, the first `count`;
 * for the terms array `terms`, as of a load and a numbering. The memory's vote and the sets' both read a query's terms
 * by these numbers: the second in a search finds them made (the same array, no load between).
 */
export interface QueryNumbers {
  terms: readonly number[] | undefined;
  at: number;
  numbering: number;
  count: number;
  numbers: Int32Array;
  hashes: Int32Array;
}

/** Query terms up to which repeats are found by scanning the numbers kept (a long request's would take quadratic time). */
const SCANNED = 48;

// By term number, whether it was met in the query being numbered (its stamp), for longer queries: scratch, as queries
// are numbered one at a time.
let met = new Int32Array(0);
let stamp = 0;

/** The distinct terms of `terms` the entries number (QueryNumbers): valid until the next call. */
export function queryNumbers(s: MemoryEntries, terms: readonly number[]): QueryNumbers {
  let q = s.numbered;
  if (q?.terms === terms && q.at === s.loads && q.numbering === s.numbering) return q;
  if (!q || q.numbers.length < terms.length) {
    const size = Math.max(64, terms.length * 2);
    q = {
      terms: undefined,
      at: -1,
      numbering: -1,
      count: 0,
      numbers: new Int32Array(size),
      hashes: new Int32Array(size),
    };
    s.numbered = q;
  }
  const { numbers, hashes } = q;
  const { termTable } = s;
  // The numbers first, then which are new: each lookup waits on no other's.
  for (let j = 0; j < terms.length; j++) numbers[j] = termNumber(termTable, terms[j] as number);
  let count = 0;
  if (terms.length <= SCANNED)
    // Against the numbers kept so far, which are in the cache: a stamp per term number would be a miss per term.
    for (let j = 0; j < terms.length; j++) {
      const t = numbers[j] as number;
      if (t < 0) continue;
      let k = 0;
      while (k < count && numbers[k] !== t) k++;
      if (k < count) continue;
      numbers[count] = t;
      hashes[count++] = terms[j] as number;
    }
  else {
    if (met.length < s.postings.length) met = new Int32Array(s.postings.length * 2);
    if (++stamp === 0x7fffffff) {
      met.fill(0);
      stamp = 1;
    }
    for (let j = 0; j < terms.length; j++) {
      const t = numbers[j] as number;
      if (t < 0 || met[t] === stamp) continue;
      met[t] = stamp;
      numbers[count] = t;
      hashes[count++] = terms[j] as number;
    }
  }
  q.terms = terms;
  q.at = s.loads;
  q.numbering = s.numbering;
  q.count = count;
  return q;
}

/** Puts a term's hash and number in the first free slot from its hash's. */
function putTerm(table: Int32Array, hash: number, n: number): void {
  const mask = (table.length >> 1) - 1;
  let i = hash & mask;
  while (table[2 * i] !== -1) i = (i + 1) & mask;
  table[2 * i] = hash;
  table[2 * i + 1] = n;
}

/** Sets bit `id` of a bitset, grown (to twice the size needed) when it is too short; returns the bitset. */
export function setBit(bits: Uint32Array, id: number): Uint32Array {
  let out = bits;
  if (id >>> 5 >= out.length) {
    out = new Uint32Array((id >>> 5) * 2 + 2);
    out.set(bits);
  }
  out[id >>> 5] = (out[id >>> 5] as number) | (1 << (id & 31));
  return out;
}

/** Whether terms hold one twice: never when sorted, as this library writes them. */
function holdsRepeat(terms: readonly number[]): boolean {
  for (let i = 1; i < terms.length; i++)
    if ((terms[i] as number) <= (terms[i - 1] as number)) return new Set(terms).size < terms.length;
  return false;
}

/**
 * Indexes an entry, unless a newer version of its request is indexed: the later page, or later in a page, wins. Its
 * request's tag when no version of it was live, else undefined.
 */
function add(s: MemoryEntries, entry: Entry, page: number, order: number): number | string | undefined {
  const tag = tagOf(entry);
  const was = s.latest.get(tag);
  const older = was === undefined ? undefined : s.entries[was];
  if (older && (s.orders[was as number] as number) > order) return undefined;
  if (older) kill(s, was as number, false);
  const id = s.entries.length;
  s.entries.push(entry);
  if (id >= s.alive.length) {
    const grown = new Uint8Array(s.alive.length * 2);
    grown.set(s.alive);
    s.alive = grown;
  }
  s.alive[id] = 1;
  s.lengths[id] = entry.terms.length;
  s.keys[id] = keyOf(entry);
  s.sessions[id] = entry.session;
  s.pageOf[id] = page;
  s.orders[id] = order;
  const used: number[] = [];
  for (const tool of entry.tools) {
    const n = numberOf(s.tools, tool);
    s.toolNames[n] = tool;
    used.push(n);
  }
  s.used[id] = used;
  const key = setKey(entry.tools);
  const set = numberOf(s.sets, key);
  s.setKeys[set] = key;
  s.setOf[id] = set;
  s.totalLength += entry.terms.length;
  s.latest.set(tag, id);
  if (holdsRepeat(entry.terms)) s.repeats++;
  const numbers = s.hooks ? Array<number>(entry.terms.length) : undefined;
  for (let k = 0; k < entry.terms.length; k++) {
    const n = numberOf(s.terms, entry.terms[k] as number);
    if (numbers) numbers[k] = n;
    if (n === s.postings.length) {
      tableTerm(s, entry.terms[k] as number, n);
      s.postings.push([id]);
      s.df.push(1);
    } else {
      (s.postings[n] as number[]).push(id);
      s.df[n] = (s.df[n] as number) + 1;
      const bits = s.bits[n];
      if (bits) s.bits[n] = setBit(bits, id);
    }
  }
  (s.pages.get(page) ?? s.pages.set(page, []).get(page))?.push(id);
  if (numbers) s.hooks?.add(entry, key, numbers);
  return was === undefined ? tag : undefined;
}

/** A tool set's key: its tools sorted (as this library writes them), one a line. */
function setKey(tools: readonly string[]): string {
  for (let i = 1; i < tools.length; i++)
    if ((tools[i] as string) < (tools[i - 1] as string)) return [...tools].sort().join('\n');
  return tools.join('\n');
}

/** Drops the ids of dead entries (and the numbers only they used) once they are a third of all. */
function compact(s: MemoryEntries): void {
  if (s.dead * 3 < s.entries.length || s.entries.length < 64) return;
  const live: [entry: Entry, page: number, order: number][] = [];
  for (const [id, entry] of s.entries.entries())
    if (entry) live.push([entry, s.pageOf[id] as number, s.orders[id] as number]);
  const alive = s.alive.fill(0);
  const { hooks } = s;
  Object.assign(s, createEntries(), {
    alive,
    loads: s.loads,
    changes: s.changes,
    pages: s.pages,
    pageLengths: s.pageLengths,
    numbering: s.numbering + 1,
  });
  s.pages.clear();
  for (const [entry, page, order] of live) add(s, entry, page, order);
  s.hooks = hooks;
}

/** Drops page `n`'s entries; adds to `gone` the requests no version of which is live any more. */
function remove(s: MemoryEntries, n: number, gone: Set<number | string>): void {
  for (const id of s.pages.get(n) ?? []) {
    const entry = s.entries[id];
    if (!entry) continue;
    kill(s, id, true);
    const tag = tagOf(entry);
    if (s.latest.get(tag) !== id) continue;
    s.latest.delete(tag);
    gone.add(tag);
  }
  s.pages.delete(n);
  s.pageLengths.delete(n);
}

/**
 * Adds the requests of page `n` from its `from`th on, each in its place. A request only grows (more terms, more tools)
 * while its turn lasts, so its newest version is its largest, whichever lane or page holds it. The requests no
 * version of which was live (and not in `gone`, a reloaded page's) count as changes.
 */
function addFrom(
  s: MemoryEntries,
  n: number,
  loaded: readonly Remembered[],
  from: number,
  gone?: Set<number | string>,
) {
  for (const [j, entry] of loaded.entries()) {
    const order = (entry.terms.length + entry.tools.length) * 1e13 + n * 1e4 + from + j;
    const tag = add(s, entry, n, order);
    // A request of the page read again that comes back did not change the memory.
    if (tag !== undefined && !gone?.delete(tag)) s.changes++;
  }
  s.pageLengths.set(n, from + loaded.length);
}

/** Replaces page `n` with what the store holds (a page may grow until the next one starts). */
export function loadPage(s: MemoryEntries, n: number, loaded: readonly Remembered[]): void {
  s.loads++;
  const gone = new Set<number | string>();
  remove(s, n, gone);
  addFrom(s, n, loaded, 0, gone);
  s.changes += gone.size;
  s.hooks?.settle();
  compact(s);
}

/**
 * Appends to page `n` the requests stored after those its last load or extension gave: the page is the same filling,
 * grown. The same entries as loading the whole page again, without taking its requests out and back in: a page being
 * filled is read again after every append.
 */
export function extendPage(s: MemoryEntries, n: number, added: readonly Remembered[]): void {
  s.loads++;
  addFrom(s, n, added, s.pageLengths.get(n) ?? 0);
  s.hooks?.settle();
  compact(s);
}

/** Forgets every loaded page not in `keep`. */
export function retainPages(s: MemoryEntries, keep: { has(n: number): boolean }): void {
  // No array unless a page goes: nearly every read of the memory keeps them all.
  let old: number[] | undefined;
  for (const n of s.pages.keys())
    if (!keep.has(n)) {
      old ??= [];
      old.push(n);
    }
  if (!old) return;
  s.loads++;
  const gone = new Set<number | string>();
  for (const n of old) remove(s, n, gone);
  s.changes += gone.size;
  s.hooks?.settle();
  compact(s);
}

/**
 * Whether what is derived from the whole memory at great cost, computed when it had made `at` changes (undefined:
 * never), is to be computed again: once the requests made live or dropped since are more than a sixteenth of those
 * live (so any change, in a memory of fewer than 16). The votes' reliabilities are such (each is 64 sampled votes,
 * milliseconds): computed at every load, the first search after any commit paid for them, though one request more or
 * less in hundreds moves a mean over 64 of them by little. Counted in requests, not loads or time: a page filling
 * (read again and again with a request more) is one change per new request, not a page's worth, and the rule needs no
 * clock. A memory fed and then searched is judged on all of it; one searched as it grows is judged at the first search
 * past each sixteenth, so what a vote weighs can differ, by a sixteenth's worth of requests, between two layers that
 * searched the same memory at different times (the leave-one-set-out run moved by a fold at a quarter fed:
 * bench/TUNING.md).
 */
export const changedEnough = (s: MemoryEntries, at: number | undefined): boolean =>
  at === undefined || (s.changes - at) * 16 > s.latest.size;
