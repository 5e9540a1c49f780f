// The reading side of a scope's table: the clock and the shards a search's terms fall in, from the space's cache
// when read lately (a search then waits for nothing), else read from the store in parallel.
import { clockKeys, clockOf } from './clock.ts';
import { type Query, rememberRecent } from './query-terms.ts';
import { type Learned, type TermRead, termRead } from './score.ts';
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
  heldFor(query: Query): Learned | undefined;
  /** The scope's clock and the entries of the query's terms, from their shards (read in parallel when not in memory). */
  learnedFor(query: Query, warn: Warn): Promise<Learned>;
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
 * Terms whose records a reader keeps, at most, while its values stand (when full, it starts again): more than the
 * terms searched within a refresh at seal-tools' size, each record two small objects.
 */
const TERMS_HELD = 4096;

/** The terms' records a reader holds, found by term. */
interface TermTable {
  find(term: string, hash: number): TermRead | undefined;
  add(term: string, hash: number, read: TermRead): void;
  clear(): void;
}

/**
 * A table of terms' records by open addressing on the terms' hashes (a query has them already): finding a term hashes
 * nothing and compares one string, where a Map would hash the term (a new string each query) and a shard's object
 * would look it up among all the strings the heap holds first. It grows as terms come (a Worker builds a reader per
 * request, which may read a few terms only), and is cleared slot by slot, so a store that changes at every search (a
 * server committing as it serves) clears only the few terms it held.
 */
function createTermTable(): TermTable {
  // By hash, the place plus one of the term held there (0 for none), at most half full; by place, the term, its
  // record, its hash and its slot.
  let slots = new Int32Array(64);
  let mask = slots.length - 1;
  const keys: string[] = [];
  const reads: TermRead[] = [];
  let hashOf = new Int32Array(slots.length / 2);
  let slotOf = new Int32Array(slots.length / 2);
  /** The slot holding the term, or the empty one where it would go. */
  const probe = (term: string, hash: number): number => {
    let at = hash & mask;
    for (let s = slots[at] as number; s !== 0 && keys[s - 1] !== term; s = slots[at] as number) at = (at + 1) & mask;
    return at;
  };
  const place = (i: number): void => {
    const at = probe(keys[i] as string, hashOf[i] as number);
    slots[at] = i + 1;
    slotOf[i] = at;
  };
  const grow = (): void => {
    slots = new Int32Array(2 * slots.length);
    mask = slots.length - 1;
    const hashes = hashOf;
    hashOf = new Int32Array(slots.length / 2);
    hashOf.set(hashes);
    slotOf = new Int32Array(slots.length / 2);
    for (let i = 0; i < keys.length; i++) place(i);
  };
  const clear = (): void => {
    for (let i = 0; i < keys.length; i++) slots[slotOf[i] as number] = 0;
    keys.length = 0;
    reads.length = 0;
  };
  return {
    find(term, hash) {
      const s = slots[probe(term, hash)] as number;
      return s === 0 ? undefined : reads[s - 1];
    },
    add(term, hash, read) {
      if (keys.length === TERMS_HELD) clear();
      else if (keys.length === hashOf.length) grow();
      hashOf[keys.length] = hash;
      keys.push(term);
      reads.push(read);
      place(keys.length - 1);
    },
    clear,
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
  // What heldFor found in the cache: the clock, the shards by index and each term's record by term (filled as
  // searches need them). It stands while the cache's values are the same objects (no keep, drop or clear since) and
  // none of those it read has expired. A term's record keeps what searches resolved it to, so a later search finds
  // the term, its entry and its postings resolved in one lookup.
  const held = {
    changes: -1,
    until: 0,
    u: 0,
    shards: new Array<Shard['x'] | undefined>(SHARDS),
    terms: createTermTable(),
  };

  function heldFor({ terms, hashes, first }: Query): Learned | undefined {
    const now = Date.now();
    const changes = space.changes();
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
      held.terms.clear();
    }
    const { shards } = held;
    const byPlace: (TermRead | undefined)[] = new Array(terms.length);
    for (let k = 0; k < terms.length; k++) {
      if (!first[k]) continue;
      const term = terms[k] as string;
      const hash = hashes[k] as number;
      let known = held.terms.find(term, hash);
      if (known === undefined) {
        const i = hash % SHARDS;
        let x = shards[i];
        if (x === undefined) {
          const hit = fresh(shardNames[i] as string, now);
          if (!hit) return undefined;
          x = readShard(hit.value).x;
          shards[i] = x;
          held.until = Math.min(held.until, hit.at + REFRESH_MS);
        }
        known = termRead(entryIn(x, term));
        held.terms.add(term, hash, known);
      }
      byPlace[k] = known;
    }
    return { u: held.u, terms: byPlace };
  }

  async function learnedFor({ terms, hashes, first }: Query, warn: Warn): Promise<Learned> {
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
    const byPlace = terms.map((term, k) =>
      first[k] ? termRead(entryIn((byIndex.get((hashes[k] as number) % SHARDS) as Shard).x, term)) : undefined,
    );
    return { u: clockOf(clockValues), terms: byPlace };
  }

  return { clockNames, shardNames, heldFor, learnedFor };
}
