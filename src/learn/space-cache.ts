// The learner's way to the shared space: the guard, behind a cache of the values read or written lately, so a
// search within REFRESH_MS of the last read of a key (the head, a shard, a memory page) reads none again.
//
// The cache is the isolate's, shared by every layer whose store gives the same storage identity
// (SharedSpace.identity): a Worker builds a store and a layer per request, and without this each request's first
// search would read every head and shard again. A store without identity gives its layer a cache of its own. Nothing
// crosses identities, and the keys carry their scope. The values are shared objects: no reader or writer changes one
// in place (readShard, readMemoryHead and pageEntries only read; addToShard, addToSlot and appendToPage copy). What a
// layer derives from a shared value and keeps by it must depend on nothing but the value and the key of the cache:
// score.ts keeps each term entry's votes, faded with the layer's half-life, by the entry object, so layers of other
// half-lives keep caches apart (`partition`).
import type { GuardedShared } from '../core/shared-guard.ts';
import { scopeKey } from './scope-key.ts';

type Warn = (message: string) => void;

/** The learner's way to the shared space: the guard, and its cache of values read or written lately. */
export interface SpaceAccess {
  readonly shared: GuardedShared;
  read(key: string, warn: Warn): Promise<unknown>;
  keep(key: string, value: unknown): void;
  /** Forgets a key's value read lately if it is `value` (read too early to stand for what the store holds now). */
  drop(key: string, value: unknown): void;
  /** A value read or written lately, boxed (a missing key is undefined inside). */
  fresh(key: string): { value: unknown } | undefined;
}

/** The space's access as the learner holds it: `fresh` takes the time when a caller checks many keys at once. */
export interface SpaceCache extends SpaceAccess {
  /** As SpaceAccess's, with the time the value was read or written (it stands for REFRESH_MS from then). */
  fresh(key: string, now?: number): { readonly value: unknown; readonly at: number } | undefined;
  /**
   * Marks the last change to the values kept under one scope's keys (`base`, its scopeKey) or to all of them: what a
   * caller derived from that scope's `fresh` values stands, unchanged, while this mark is the same and none of those
   * values has expired. Another scope's writes leave it alone: on a server with a scope per tenant, each tenant's
   * commits would otherwise make every other tenant's next search resolve its terms again.
   */
  changes(base: string): number;
  /** Forgets the values read or written: of one scope's keys, or (no scope: the store was cleared) all. */
  clear(scope?: string): void;
  /**
   * What readers keep beside the cache under `name` (made by `make` the first time, and again once BESIDE_KEPT other
   * names were asked for since): shared like the cache, by every layer of the storage identity and partition, so a
   * layer built per request finds what the last one derived. What it holds must stand on the cache's values alone,
   * checked against `changes(base)`.
   */
  beside<T>(name: string, make: () => T): T;
}

/** How long a head or shard read from the store is used before it is read again. */
export const REFRESH_MS = 5000;

/**
 * Values kept per storage identity (and partition) at most, the oldest going first, and their weights in all (weightOf,
 * about bytes). A value is of no use REFRESH_MS after it was read or written, however often it was used since, so the
 * order it was kept in is the order it expires in. A search reads about 40 values (8 clock slots, the shards of its
 * terms, the memory's heads and pages being filled): a Worker serving many tenants (a scope each) within the window
 * needs all of theirs, or every search reads its values from the store again (a round trip each on KV). 1,024 values
 * held about 25 tenants; a search of 40 tenants in turn took 0.42 ms instead of 0.31 on a memory store.
 */
const KEPT_PER_STORAGE = 16_384;
const WEIGHT_KEPT = 24_000_000;

/**
 * About the bytes a value read from the store holds: a page's text, or a shard's terms at about 200 bytes each (a term,
 * its count and clock, and its strongest tools), or a small record.
 */
function weightOf(value: unknown): number {
  if (typeof value === 'string') return 2 * value.length;
  const x = (value as { x?: unknown } | undefined)?.x;
  if (x !== null && typeof x === 'object') {
    let terms = 0;
    for (const _ in x) terms++;
    return 64 + 200 * terms;
  }
  return 64;
}

interface Kept {
  readonly values: Map<string, { value: unknown; at: number; weight: number }>;
  /** The values' weights, summed. */
  weight: number;
  /**
   * The reads under way, by key: layers asking for a key at once (a Worker's requests arriving together) read it once,
   * through the guard of the layer that asked first (a failure is that layer's to warn of).
   */
  readonly reading: Map<string, Promise<unknown>>;
  /** Counts the clears: a read begun before one does not keep what it read. */
  clears: number;
  /**
   * Marks of the changes to `values`, from one sequence: by scope (its scopeKey), the last keep, drop or clear of its
   * keys; and the last change to every scope at once (a clear of all, or the marks by scope forgotten).
   */
  seq: number;
  readonly byScope: Map<string, number>;
  all: number;
  /** What readers keep beside the values (SpaceCache.beside). */
  readonly beside: Map<string, unknown>;
}

/**
 * What readers keep beside one storage's values (per partition), by name, at most: a table reader's terms are kept
 * per scope, and a store shared by many scopes (one per tenant) would otherwise keep each scope's, up to 2 MB each
 * (table-reader.ts DATA_HELD), for as long as the isolate lives. A name forgotten is made again when next asked.
 */
const BESIDE_KEPT = 8;

/**
 * Scopes whose marks a cache keeps, at most: past it they are forgotten, and a change to every scope is marked (each
 * reader checks its values again once), so no scope's mark is ever the same after a change as before it.
 */
const SCOPES_MARKED = 4096;

/** The scopeKey a key of the learner's starts with: up to its first ':' after `learn:` (a scope's own are escaped). */
function baseOf(key: string): string {
  const end = key.indexOf(':', 6);
  return end < 0 ? key : key.slice(0, end);
}

/** Marks a change to the values of scope `base` (none: of every scope). */
function mark(kept: Kept, base?: string): void {
  kept.seq++;
  if (base === undefined || kept.byScope.size >= SCOPES_MARKED) {
    kept.byScope.clear();
    kept.all = kept.seq;
  } else kept.byScope.set(base, kept.seq);
}

/** Per storage identity, its caches by partition (the half-life of the layers sharing one). */
const isolate = /* @__PURE__ */ new WeakMap<object, Map<number, Kept>>();

/**
 * Creates the cache in front of a scope's shared space: the isolate's for the store's storage identity and
 * `partition`, if the store gives an identity; else the layer's own.
 */
export function createSpaceCache(shared: GuardedShared, partition = 0): SpaceCache {
  const { identity } = shared;
  let partitions = identity && isolate.get(identity);
  if (identity && !partitions) {
    partitions = new Map();
    isolate.set(identity, partitions);
  }
  const kept: Kept = partitions?.get(partition) ?? {
    values: new Map(),
    reading: new Map(),
    clears: 0,
    weight: 0,
    seq: 0,
    byScope: new Map(),
    all: 0,
    beside: new Map(),
  };
  partitions?.set(partition, kept);
  const cache = kept.values;
  /** Forgets a key's value, if kept. */
  const forget = (each: Kept, key: string) => {
    const had = each.values.get(key);
    if (!had) return;
    each.values.delete(key);
    each.weight -= had.weight;
  };
  const keep = (key: string, value: unknown) => {
    const now = Date.now();
    mark(kept, baseOf(key));
    forget(kept, key);
    const weight = weightOf(value);
    cache.set(key, { value, at: now, weight });
    kept.weight += weight;
    // Kept in the order they were kept: the expired ones are at the front, and the oldest go past the bounds.
    for (const [first, { at }] of cache) {
      if (now - at < REFRESH_MS && cache.size <= KEPT_PER_STORAGE && kept.weight <= WEIGHT_KEPT) break;
      forget(kept, first);
    }
  };
  /** A value read or written within REFRESH_MS, boxed (a missing key is undefined inside). */
  const fresh = (key: string, now = Date.now()): { value: unknown; at: number } | undefined => {
    const hit = cache.get(key);
    return hit && now - hit.at < REFRESH_MS ? hit : undefined;
  };
  function read(key: string, warn: Warn): Promise<unknown> {
    const hit = fresh(key);
    if (hit) return Promise.resolve(hit.value);
    let reading = kept.reading.get(key);
    if (!reading) {
      reading = readAnew(key, warn).finally(() => {
        if (kept.reading.get(key) === reading) kept.reading.delete(key);
      });
      kept.reading.set(key, reading);
    }
    return reading;
  }
  async function readAnew(key: string, warn: Warn): Promise<unknown> {
    const started = Date.now();
    const clears = kept.clears;
    const value = await shared.get(key, warn);
    // Another layer kept the key meanwhile (a write, a read begun later): that value is as new as this one.
    const meanwhile = cache.get(key);
    if (meanwhile && meanwhile.at >= started) return meanwhile.value;
    if (kept.clears === clears) keep(key, value);
    return value;
  }
  /** Forgets, in every partition of the storage (the store's values are the same for all). */
  function clear(scope?: string) {
    // The scope's keys: its old head is the bare `learn:<scope>`, every other key goes on with ':' (scope-key.ts).
    const base = scope === undefined ? undefined : scopeKey(scope);
    for (const each of partitions?.values() ?? [kept]) {
      each.clears++;
      mark(each, base);
      // A read begun before the clear may answer from before it: a search asking after the clear reads anew.
      each.reading.clear();
      if (base === undefined) {
        each.values.clear();
        each.weight = 0;
      } else
        for (const key of [...each.values.keys()]) if (key === base || key.startsWith(`${base}:`)) forget(each, key);
    }
  }
  const drop = (key: string, value: unknown) => {
    if (cache.get(key)?.value !== value) return;
    forget(kept, key);
    mark(kept, baseOf(key));
  };
  function beside<T>(name: string, make: () => T): T {
    const had = kept.beside.get(name) as T | undefined;
    // Kept by last use: the most recent at the end, the least recent forgotten past BESIDE_KEPT.
    kept.beside.delete(name);
    kept.beside.set(name, had ?? make());
    if (kept.beside.size > BESIDE_KEPT) kept.beside.delete(kept.beside.keys().next().value as string);
    return kept.beside.get(name) as T;
  }
  return {
    shared,
    read,
    keep,
    drop,
    fresh,
    clear,
    changes: (base) => Math.max(kept.all, kept.byScope.get(base) ?? 0),
    beside,
  };
}
