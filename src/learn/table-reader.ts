// The reading side of a scope's table: the clock and the shards a search's terms fall in, from the space's cache
// when read lately (a search then waits for nothing), else read from the store in parallel.
import { clockKeys, clockOf } from './clock.ts';
import { type Query, rememberRecent } from './query-terms.ts';
import type { Learned } from './score.ts';
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
  // What heldFor found in the cache: the clock and the shards by index (filled as searches need them). It stands while
  // the cache's values are the same objects (no keep, drop or clear since) and none of those it read has expired.
  const held = { changes: -1, until: 0, u: 0, shards: new Array<Shard['x'] | undefined>(SHARDS) };

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
    }
    const { shards } = held;
    const entries: (TermEntry | undefined)[] = new Array(terms.length);
    for (let k = 0; k < terms.length; k++) {
      if (!first[k]) continue;
      const i = (hashes[k] as number) % SHARDS;
      let x = shards[i];
      if (x === undefined) {
        const hit = fresh(shardNames[i] as string, now);
        if (!hit) return undefined;
        x = readShard(hit.value).x;
        shards[i] = x;
        held.until = Math.min(held.until, hit.at + REFRESH_MS);
      }
      entries[k] = entryIn(x, terms[k] as string);
    }
    return { u: held.u, entries, first };
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
    const entries = terms.map((term, k) =>
      first[k] ? entryIn((byIndex.get((hashes[k] as number) % SHARDS) as Shard).x, term) : undefined,
    );
    return { u: clockOf(clockValues), entries, first };
  }

  return { clockNames, shardNames, heldFor, learnedFor };
}
