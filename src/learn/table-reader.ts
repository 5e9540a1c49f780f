// The reading side of a scope's table: the clock and the shards a search's terms fall in, from the space's cache
// when read lately (a search then waits for nothing), else read from the store in parallel.

import type { Catalogue } from '../core/catalogue.ts';
import { clockKeys, clockOf } from './clock.ts';
import { type Query, rememberRecent } from './query-terms.ts';
import { scopeKey } from './scope-key.ts';
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
function entryIn(x: Shard['x'], term: string): TermEntry | undefined {
  const entry = x[term];
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

/**
 * Terms the views of a scope hold in all, at most (each at most TERMS_HELD): see CATALOGUES_HELD. With the terms'
 * last resolutions, about 5 MB a scope at most.
 */
const ALL_TERMS_HELD = 2 * TERMS_HELD;

/** Doubles a reader's term values start at, after each start again: the few terms a Worker's request reads. */
const DATA_START = 1024;

// A term's place in a term table's data: its place among the terms held (for its entry), the stamp of the catalogue
// and half-life its values were resolved for, the term's length and characters, then its values (see Learned).
const PLACE = 0;
const STAMP = 1;
const LENGTH = 2;
const CHARS = 3;

/** Whether the characters held at `at` in `data` (LENGTH, then CHARS) spell `term`. */
function spells(data: Float64Array, at: number, term: string): boolean {
  if (data[at + LENGTH] !== term.length) return false;
  for (let i = 0; i < term.length; i++) if (data[at + CHARS + i] !== term.charCodeAt(i)) return false;
  return true;
}

/**
 * What a search's terms are resolved for: the catalogue and half-life of `stamp`, the clock, and each term's last
 * resolution by term (score.ts `writeTerm`).
 */
interface ResolveFor {
  readonly stamp: number;
  readonly catalogue: Catalogue;
  readonly u: number;
  readonly halfLife: number;
  readonly earlier: Map<string, Resolved>;
}

/** The terms' values a reader holds, found by term and resolved for a catalogue and a half-life. */
interface TermTable {
  /** The values' array: found() and add() give places in it (a new one when it grows or starts again). */
  readonly data: () => Float64Array;
  /** Where the term's values start in data, resolved afresh when `to.stamp` is not theirs; -1 when not held. */
  found(term: string, hash: number, to: ResolveFor): number;
  /** Holds the term's entry and gives where its values, resolved, start in data. */
  add(entry: TermEntry | undefined, term: string, hash: number, to: ResolveFor): number;
  /** Makes room for `terms` more terms, starting again when the table would hold more than `most`. */
  room(terms: number, most: number): void;
  /** The terms held. */
  size(): number;
  clear(): void;
}

/**
 * A table of terms' values by open addressing on the terms' hashes (a query has them already), each term's
 * characters and values in one run of a Float64Array: finding a term compares hashes in the slots, then the
 * characters next to the values they lead to, and a search follows no pointer from a term to its postings. At
 * seal-tools (4,076 tools, 676 sessions, 25.6 terms a search), the objects this replaced (a string, a record and a
 * resolved record per term, its postings in arrays of their own) cost a search about 11 us, half of it in cache
 * misses; this 8-10 (finding 4.5-7, adding 3). Packing ids and characters as 32- and 16-bit integers (a run 40%
 * shorter) measured the same, and reading every term's run ahead, before finding any, saved nothing. It grows as
 * terms come, and is cleared slot by slot, so a store that changes at every search (a server committing as it serves)
 * clears only the few terms it held. A term's values are never written over while held: values resolved anew take a
 * new run, and the table starts again in a new array, so what a search was given stands while it waits.
 */
function createTermTable(): TermTable {
  // By hash, pairs: the start plus one of the term's run in data (0 for none), and the term's hash; at most half full.
  let slots = new Int32Array(128);
  let mask = slots.length / 2 - 1;
  let data = new Float64Array(DATA_START);
  let top = 0;
  // By place, the term's entry and its slot.
  const entries: (TermEntry | undefined)[] = [];
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
  /** A new run for the term (its head copied from `head`'s, or written), its values resolved; where they start. */
  const resolveAt = (slot: number, place: number, term: string, to: ResolveFor): number => {
    const entry = entries[place];
    const head = CHARS + term.length;
    const at = take(head + spanOf(entry));
    data[at + PLACE] = place;
    data[at + STAMP] = to.stamp;
    data[at + LENGTH] = term.length;
    for (let i = 0; i < term.length; i++) data[at + CHARS + i] = term.charCodeAt(i);
    writeTerm(data, at + head, entry, term, to.catalogue, to.u, to.halfLife, to.earlier);
    slots[2 * slot] = at + 1;
    return at + head;
  };
  const clear = (): void => {
    for (let i = 0; i < entries.length; i++) slots[2 * (slotOf[i] as number)] = 0;
    entries.length = 0;
    if (top > 0) data = new Float64Array(Math.max(DATA_START, Math.min(top, data.length)));
    top = 0;
  };
  return {
    data: () => data,
    found(term, hash, to) {
      const slot = probe(term, hash);
      const r = (slots[2 * slot] as number) - 1;
      if (r < 0) return -1;
      if (data[r + STAMP] === to.stamp) return r + CHARS + term.length;
      return resolveAt(slot, data[r + PLACE] as number, term, to);
    },
    add(entry, term, hash, to) {
      if (entries.length === slotOf.length) grow();
      const slot = probe(term, hash);
      const place = entries.length;
      entries.push(entry);
      slotOf[place] = slot;
      slots[2 * slot + 1] = hash;
      return resolveAt(slot, place, term, to);
    },
    room(terms, most) {
      if (entries.length + terms > most || top > DATA_HELD) clear();
    },
    size: () => entries.length,
    clear,
  };
}

/**
 * The terms a scope's readers resolved for one catalogue and half-life: their values, found by term, and each term's
 * last resolution by term, kept across changes (a commit gives a term a new entry, resolved from the last one where its
 * postings are the same).
 */
interface View {
  catalogue: Catalogue | undefined;
  halfLife: number;
  stamp: number;
  readonly terms: TermTable;
  readonly earlier: Map<string, Resolved>;
}

/**
 * Catalogues a scope's readers hold resolved terms for, the least recently searched going first: users with other
 * tools (their own integrations, a tenant's) search one scope with other catalogues, and a reader holding one
 * resolved every term of each search again for the next (learning's search cost went from 1.25x to 1.65x with two
 * catalogues in turn at seal-tools, and is 1.30x now; 1.68x and 1.34x with four). The views hold ALL_TERMS_HELD in
 * all: with TERMS_HELD in all, four catalogues in turn measured 1.51x.
 */
const CATALOGUES_HELD = 4;

/** What a scope's readers found in the space's cache, and its views by catalogue (see createTableReader). */
function createHeld() {
  return {
    changes: -1,
    until: 0,
    u: 0,
    shards: new Array<Shard['x'] | undefined>(SHARDS),
    /** The most recently searched first. */
    views: [] as View[],
    stamp: 0,
  };
}

type Held = ReturnType<typeof createHeld>;

/**
 * The view of `catalogue` and `halfLife`, made the most recently searched (made anew, or from the least recently
 * searched's arrays, when none holds them), with room for `terms` more terms: past ALL_TERMS_HELD over every view
 * (their values, and apart their last resolutions), the least recently searched views start again first; past
 * TERMS_HELD, the view itself.
 */
function viewFor(held: Held, catalogue: Catalogue, halfLife: number, terms: number): View {
  const { views } = held;
  let i = views.findIndex((view) => view.catalogue === catalogue && view.halfLife === halfLife);
  let view: View;
  if (i >= 0) view = views[i] as View;
  else if (views.length < CATALOGUES_HELD) {
    view = { catalogue, halfLife, stamp: ++held.stamp, terms: createTermTable(), earlier: new Map() };
    i = views.push(view) - 1;
  } else {
    i = views.length - 1;
    view = views[i] as View;
    view.terms.clear();
    view.earlier.clear();
    Object.assign(view, { catalogue, halfLife, stamp: ++held.stamp });
  }
  if (i > 0) {
    views.splice(i, 1);
    views.unshift(view);
  }
  let heldTerms = 0;
  let kept = 0;
  for (const each of views) {
    heldTerms += each.terms.size();
    kept += each.earlier.size;
  }
  for (let k = views.length - 1; k > 0 && heldTerms + terms > ALL_TERMS_HELD; k--) {
    heldTerms -= (views[k] as View).terms.size();
    (views[k] as View).terms.clear();
  }
  for (let k = views.length - 1; k > 0 && kept + terms > ALL_TERMS_HELD; k--) {
    kept -= (views[k] as View).earlier.size;
    (views[k] as View).earlier.clear();
  }
  view.terms.room(terms, TERMS_HELD);
  if (view.earlier.size + terms > TERMS_HELD) view.earlier.clear();
  return view;
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
  // searches need them). It stands while the cache's values are the same objects (no keep, drop or clear since) and
  // none of those it read has expired. A term's values are resolved for the catalogue and half-life of `stamp`: a
  // search for another takes a new stamp, and resolves each term it finds again. Kept beside the space's cache, so
  // the readers of one storage share it: a Worker's reader per request resolved every term of its search again
  // (about 0.09 ms a search at seal-tools). heldFor never awaits, so no reader sees another's half-made state.
  const held = space.beside(`table\u0000${scope}`, createHeld);
  const base = scopeKey(scope);

  function heldFor({ terms, hashes, first }: Query, catalogue: Catalogue, halfLife: number): Learned | undefined {
    const now = Date.now();
    const changes = space.changes(base);
    if (held.changes !== changes || now >= held.until) {
      let u = 0;
      let until = Number.POSITIVE_INFINITY;
      for (const key of clockNames) {
        const hit = fresh(key, now);
        if (!hit) return undefined;
        u += readHead(hit.value).u;
        until = Math.min(until, hit.at + REFRESH_MS);
      }
      held.changes = changes;
      held.until = until;
      held.u = u;
      held.shards.fill(undefined);
      for (const view of held.views) view.terms.clear();
    }
    const { terms: table, stamp, earlier } = viewFor(held, catalogue, halfLife, terms.length);
    const { shards, u } = held;
    const to: ResolveFor = { stamp, catalogue, u, halfLife, earlier };
    const at: number[] = [];
    let mass = 0;
    for (let k = 0; k < terms.length; k++) {
      if (!first[k]) continue;
      const term = terms[k] as string;
      const hash = hashes[k] as number;
      let place = table.found(term, hash, to);
      if (place < 0) {
        const i = hash % SHARDS;
        let x = shards[i];
        if (x === undefined) {
          const hit = fresh(shardNames[i] as string, now);
          if (!hit) return undefined;
          x = readShard(hit.value).x;
          shards[i] = x;
          held.until = Math.min(held.until, hit.at + REFRESH_MS);
        }
        place = table.add(entryIn(x, term), term, hash, to);
      }
      at.push(place);
      // Read here, each term's values are on their way to the cache before the search adds them.
      mass += table.data()[place] as number;
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
    const clocks = clockNames.map((key) => fresh(key));
    let clockValues = clocks.every((hit) => hit !== undefined) ? clocks.map((hit) => hit.value) : undefined;
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
    // Resolved from the terms' last resolutions for the catalogue, as heldFor's are (its view made the most recent).
    const view = viewFor(held, catalogue, halfLife, 0);
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
      writeTerm(data, to, entries[k], terms[k] as string, catalogue, u, halfLife, view.earlier);
      at.push(to);
      mass += data[to] as number;
      to += spanOf(entries[k]);
    }
    return { data, at, mass };
  }

  return { clockNames, shardNames, heldFor, learnedFor };
}
