// The reading side of a scope's table: the clock and the shards a search's terms fall in, from the space's cache
// when read lately (a search then waits for nothing), else read from the store in parallel.

import type { Catalogue } from '../core/catalogue.ts';
import { clockKeys, clockOf } from './clock.ts';
import { type Query, rememberRecent } from './query-terms.ts';
import { type Learned, type Resolved, spanOf, writeTerm } from './score.ts';
import { REFRESH_MS, type SpaceCache } from './space-cache.ts';
import { readHead, readShard, SHARDS, type Shard, shardKey, type TermEntry } from './table.ts';

type Warn = (message: string) => void;

/** A scope's table as a search reads it. */
export interface TableReader {
  /** Every key the scope's clock is summed over. */
  readonly clockNames: readonly string[];
  /** The key of each shard, by index. */
  readonly shardNames: readonly string[];
  /** What learnedFor gives, when every value it needs was read lately (a search then waits for nothing); else undefined. */
  heldFor(query: Query, catalogue: Catalogue, halfLife: number): Learned | undefined;
  /** The query's terms resolved at the scope's clock, from their shards (read in parallel when not in memory). */
  learnedFor(query: Query, catalogue: Catalogue, halfLife: number, warn: Warn): Promise<Learned>;
}

/**
 * A term's entry in a shard. Its own entries are arrays: what the prototype of a shard read from JSON answers for a
 * name such as "constructor" never is.
 */
function entryIn(x: Shard['x'] | undefined, term: string): TermEntry | undefined {
  const entry = x?.[term];
  return Array.isArray(entry) ? entry : undefined;
}

/** Scopes whose key names are kept: a Worker builds a reader per request, and would spell them all again. */
const SCOPES_KEPT = 64;
const keyNames = /* @__PURE__ */ new Map<string, { clockNames: string[]; shardNames: string[] }>();

/**
 * Terms whose values a reader keeps, at most, while its values stand (when full, it starts again): more than the
 * terms searched within a refresh at seal-tools' size.
 */
const TERMS_HELD = 4096;

/** Doubles a reader's term values take before it starts again (values resolved anew for another catalogue add up). */
const DATA_HELD = 64 * TERMS_HELD;

/** Doubles a reader's term values start at, after each start again: the few terms a Worker's request reads. */
const DATA_START = 1024;

// A term's run in a term table's data: its place among the terms held (for its entry), the stamp of the catalogue
// and half-life its values were resolved for, the count of checks it was last found current at, the version of its
// shard its entry was read from, the clock its values were resolved at, the term's length and characters, then its
// values (see Learned).
const PLACE = 0;
const STAMP = 1;
const CHECKED = 2;
const VERSION = 3;
const CLOCK = 4;
const LENGTH = 5;
const CHARS = 6;

/** Whether the characters held at `at` in `data` (LENGTH, then CHARS) spell `term`. */
function spells(data: Float64Array, at: number, term: string): boolean {
  if (data[at + LENGTH] !== term.length) return false;
  for (let i = 0; i < term.length; i++) if (data[at + CHARS + i] !== term.charCodeAt(i)) return false;
  return true;
}

/** What a term's values were resolved for: its entry, as read from its shard's version, the clock and the stamp. */
interface Basis {
  readonly stamp: number;
  readonly checked: number;
  readonly version: number;
  readonly catalogue: Catalogue;
  readonly u: number;
  readonly halfLife: number;
}

/** The terms' values a reader holds, found by term and resolved for a catalogue and a half-life. */
interface TermTable {
  /** The values' array: runs start in it (a new one when it grows or starts again). */
  readonly data: () => Float64Array;
  /** Where the term's run starts in data; -1 when the term is not held. */
  find(term: string, hash: number): number;
  /** The entry the run at `r` was resolved from. */
  entryAt(r: number): TermEntry | undefined;
  /**
   * Holds the term's entry and gives where its values, resolved, start in data: in a new run, the term's run `r` (-1
   * for none) left to searches given it, its resolution reused where it still holds.
   */
  put(r: number, entry: TermEntry | undefined, term: string, hash: number, basis: Basis): number;
  /** Makes room for `terms` more terms, starting again when the table would hold more than TERMS_HELD. */
  room(terms: number): void;
}

/** Where a run's values start. */
const valuesAt = (data: Float64Array, r: number): number => r + CHARS + (data[r + LENGTH] as number);

/**
 * A table of terms' values by open addressing on the terms' hashes (a query has them already), each term's
 * characters and values in one run of a Float64Array: finding a term compares hashes in the slots, then the
 * characters next to the values they lead to, and a search follows no pointer from a term to its postings. At
 * seal-tools (4,076 tools, 676 sessions, 25.6 terms a search), the objects this replaced (a string, a record and a
 * resolved record per term, its postings in arrays of their own) cost a search about 11 us, half of it in cache
 * misses; this 8-10 (finding 4.5-7, adding 3). Packing ids and characters as 32- and 16-bit integers (a run 40%
 * shorter) measured the same, and reading every term's run ahead, before finding any, saved nothing. It grows as
 * terms come, and outlives changes to the store: a term is checked again after one, and resolved again only when its
 * entry or the clock moved (from its resolution before, whose tool ids and IDF mostly stand). A term's values are
 * never written over while held: values resolved anew take a new run, and the table starts again in a new array, so
 * what a search was given stands while it waits.
 */
function createTermTable(): TermTable {
  // By hash, pairs: the start plus one of the term's run in data (0 for none), and the term's hash; at most half full.
  let slots = new Int32Array(128);
  let mask = slots.length / 2 - 1;
  let data = new Float64Array(DATA_START);
  let top = 0;
  // By place, the term's entry, its resolution and its slot.
  const entries: (TermEntry | undefined)[] = [];
  const resolutions: Resolved[] = [];
  let slotOf = new Int32Array(slots.length / 4);
  /** The slot holding the term, or the empty one where it would go (a hash as an Int32 reads back as `hash | 0`). */
  const probe = (term: string, hash: number): number => {
    let at = hash & mask;
    for (let r = slots[2 * at] as number; r !== 0; r = slots[2 * at] as number) {
      if (slots[2 * at + 1] === (hash | 0) && spells(data, r - 1, term)) break;
      at = (at + 1) & mask;
    }
    return at;
  };
  const grow = (): void => {
    const was = slots;
    slots = new Int32Array(2 * was.length);
    mask = slots.length / 2 - 1;
    slotOf = new Int32Array(slots.length / 4);
    for (let at = 0; at < was.length; at += 2) {
      const r = was[at] as number;
      if (r === 0) continue;
      let to = (was[at + 1] as number) & mask;
      while (slots[2 * to] !== 0) to = (to + 1) & mask;
      slots[2 * to] = r;
      slots[2 * to + 1] = was[at + 1] as number;
      slotOf[data[r - 1 + PLACE] as number] = to;
    }
  };
  /** A run of `n` more doubles at the top of data. */
  const take = (n: number): number => {
    if (top + n > data.length) {
      const was = data;
      data = new Float64Array(Math.max(2 * was.length, top + n));
      data.set(was.subarray(0, top));
    }
    const at = top;
    top += n;
    return at;
  };
  const clear = (): void => {
    for (let i = 0; i < entries.length; i++) slots[2 * (slotOf[i] as number)] = 0;
    entries.length = 0;
    resolutions.length = 0;
    if (top > 0) data = new Float64Array(Math.max(DATA_START, Math.min(top, data.length)));
    top = 0;
  };
  return {
    data: () => data,
    find(term, hash) {
      return (slots[2 * probe(term, hash)] as number) - 1;
    },
    entryAt: (r) => entries[data[r + PLACE] as number],
    put(r, entry, term, hash, { stamp, checked, version, catalogue, u, halfLife }) {
      let place: number;
      let slot: number;
      let earlier: Resolved | undefined;
      if (r < 0) {
        if (entries.length === slotOf.length) grow();
        slot = probe(term, hash);
        place = entries.length;
        slotOf[place] = slot;
        slots[2 * slot + 1] = hash;
      } else {
        place = data[r + PLACE] as number;
        slot = slotOf[place] as number;
        earlier = resolutions[place];
      }
      entries[place] = entry;
      const head = CHARS + term.length;
      const at = take(head + spanOf(entry));
      data[at + PLACE] = place;
      data[at + STAMP] = stamp;
      data[at + CHECKED] = checked;
      data[at + VERSION] = version;
      data[at + CLOCK] = u;
      data[at + LENGTH] = term.length;
      for (let i = 0; i < term.length; i++) data[at + CHARS + i] = term.charCodeAt(i);
      resolutions[place] = writeTerm(data, at + head, entry, term, catalogue, u, halfLife, earlier);
      slots[2 * slot] = at + 1;
      return at + head;
    },
    room(terms) {
      if (entries.length + terms > TERMS_HELD || top > DATA_HELD) clear();
    },
  };
}

/** Creates the reader of a scope's table over the space's cache (a query's terms' hashes pick their shards). */
export function createTableReader(scope: string, space: SpaceCache): TableReader {
  const { read, fresh } = space;
  const { clockNames, shardNames } =
    keyNames.get(scope) ??
    rememberRecent(
      keyNames,
      scope,
      { clockNames: clockKeys(scope), shardNames: Array.from({ length: SHARDS }, (_, i) => shardKey(scope, i)) },
      SCOPES_KEPT,
    );
  // What heldFor found in the cache: the clock, the shards by index and each term's values by term (filled as
  // searches need them). The clock stands while the cache's values are the same objects (no keep, drop or clear since)
  // and none of those it read has expired; then `checked` counts one more check, and each shard and term is checked
  // again when a search next needs it: a shard by its object (a change to it takes a new one), a term by its entry, the
  // clock and the stamp. A term's values are resolved for the catalogue and half-life of `stamp`: a search for another
  // takes a new stamp, and resolves each term it finds again.
  const held = {
    changes: -1,
    until: 0,
    u: 0,
    checked: 0,
    shards: new Array<Shard['x'] | undefined>(SHARDS),
    // By shard: the check it was last found at, and its version (counting the objects it was found as).
    shardChecked: new Float64Array(SHARDS),
    versions: new Float64Array(SHARDS),
    terms: createTermTable(),
    stamp: 0,
    catalogue: undefined as Catalogue | undefined,
    halfLife: Number.NaN,
  };

  /** Checks the clock again after a change or an expiry; false when a value it needs is no longer in the cache. */
  function checkClock(now: number): boolean {
    let u = 0;
    let until = Number.POSITIVE_INFINITY;
    for (const key of clockNames) {
      const hit = fresh(key, now);
      if (!hit) return false;
      u += readHead(hit.value).u;
      until = Math.min(until, hit.at + REFRESH_MS);
    }
    held.changes = space.changes();
    held.until = until;
    held.u = u;
    held.checked++;
    return true;
  }

  /** Checks the shard again if it was not since the clock was; false when it is no longer in the cache. */
  function checkShard(i: number, now: number): boolean {
    if (held.shardChecked[i] === held.checked) return true;
    const hit = fresh(shardNames[i] as string, now);
    if (!hit) return false;
    const { x } = readShard(hit.value);
    if (x !== held.shards[i]) {
      held.shards[i] = x;
      held.versions[i] = (held.versions[i] as number) + 1;
    }
    held.shardChecked[i] = held.checked;
    held.until = Math.min(held.until, hit.at + REFRESH_MS);
    return true;
  }

  function heldFor({ terms, hashes, first }: Query, catalogue: Catalogue, halfLife: number): Learned | undefined {
    const now = Date.now();
    if ((held.changes !== space.changes() || now >= held.until) && !checkClock(now)) return undefined;
    const table = held.terms;
    table.room(terms.length);
    if (held.catalogue !== catalogue || held.halfLife !== halfLife) {
      held.stamp++;
      held.catalogue = catalogue;
      held.halfLife = halfLife;
    }
    const { stamp, checked, u } = held;
    const at: number[] = [];
    let mass = 0;
    for (let k = 0; k < terms.length; k++) {
      if (!first[k]) continue;
      const term = terms[k] as string;
      const hash = hashes[k] as number;
      const r = table.find(term, hash);
      let data = table.data();
      let place: number;
      if (r >= 0 && data[r + CHECKED] === checked && data[r + STAMP] === stamp) place = valuesAt(data, r);
      else {
        const i = hash % SHARDS;
        if (!checkShard(i, now)) return undefined;
        const version = held.versions[i] as number;
        // A shard's other terms keep their entries when it changes: a term is resolved again only if its own did.
        const same = r >= 0 && (data[r + VERSION] === version || table.entryAt(r) === entryIn(held.shards[i], term));
        if (same && data[r + CLOCK] === u && data[r + STAMP] === stamp) {
          data[r + CHECKED] = checked;
          data[r + VERSION] = version;
          place = valuesAt(data, r);
        } else {
          const entry = same ? table.entryAt(r) : entryIn(held.shards[i], term);
          place = table.put(r, entry, term, hash, { stamp, checked, version, catalogue, u, halfLife });
          data = table.data();
        }
      }
      at.push(place);
      // Read here, each term's values are on their way to the cache before the search adds them.
      mass += data[place] as number;
    }
    return { data: table.data(), at, mass };
  }

  async function learnedFor(
    { terms, hashes, first }: Query,
    catalogue: Catalogue,
    halfLife: number,
    warn: Warn,
  ): Promise<Learned> {
    const byIndex = new Map<number, Shard>();
    const held = clockNames.map((key) => fresh(key));
    let clockValues = held.every((hit) => hit !== undefined) ? held.map((hit) => hit.value) : undefined;
    const missing: number[] = [];
    for (const i of new Set(hashes.map((hash) => hash % SHARDS))) {
      const value = fresh(shardNames[i] as string);
      if (value === undefined) missing.push(i);
      else byIndex.set(i, readShard(value.value));
    }
    // Most searches find what they need in memory; the others read the missing values in parallel.
    if (clockValues === undefined || missing.length > 0) {
      const [read0, ...read1] = await Promise.all([
        Promise.all(clockNames.map((key) => read(key, warn))),
        ...missing.map((i) => read(shardNames[i] as string, warn)),
      ]);
      clockValues = read0;
      for (const [k, i] of missing.entries()) byIndex.set(i, readShard(read1[k]));
    }
    const u = clockOf(clockValues);
    const entries = terms.map((term, k) =>
      first[k] ? entryIn((byIndex.get((hashes[k] as number) % SHARDS) as Shard).x, term) : undefined,
    );
    let span = 0;
    for (let k = 0; k < terms.length; k++) if (first[k]) span += spanOf(entries[k]);
    const data = new Float64Array(span);
    const at: number[] = [];
    let mass = 0;
    for (let k = 0, to = 0; k < terms.length; k++) {
      if (!first[k]) continue;
      writeTerm(data, to, entries[k], terms[k] as string, catalogue, u, halfLife);
      at.push(to);
      mass += data[to] as number;
      to += spanOf(entries[k]);
    }
    return { data, at, mass };
  }

  return { clockNames, shardNames, heldFor, learnedFor };
}
