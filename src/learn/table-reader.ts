// The reading side of a scope's table: the clock and the shards a search's terms fall in, from the space's cache
// when read lately (a search then waits for nothing), else read from the store in parallel.
import { clockKeys, clockOf } from './clock.ts';
import type { Learned } from './score.ts';
import type { SpaceCache } from './space-cache.ts';
import { readHead, readShard, SHARDS, type Shard, shardKey, shardOf, type TermEntry } from './table.ts';

type Warn = (message: string) => void;

/** A scope's table as a search reads it. */
export interface TableReader {
  /** Every key the scope's clock is summed over. */
  readonly clockNames: readonly string[];
  /** The key of each shard, by index. */
  readonly shardNames: readonly string[];
  /** What learnedFor gives, when every value it needs was read lately (a search then waits for nothing); else undefined. */
  heldFor(terms: readonly string[]): Learned | undefined;
  /** The scope's clock and the entries of `terms`, from their shards (read in parallel when not in memory). */
  learnedFor(terms: Iterable<string>, warn: Warn): Promise<Learned>;
}

/** Creates the reader of a scope's table over the space's cache; `hashesOf` gives the terms' hashes that pick shards. */
export function createTableReader(
  scope: string,
  space: SpaceCache,
  hashesOf: (terms: readonly string[]) => readonly number[],
): TableReader {
  const { read, fresh } = space;
  const clockNames = clockKeys(scope);
  const shardNames = Array.from({ length: SHARDS }, (_, i) => shardKey(scope, i));

  function heldFor(terms: readonly string[]): Learned | undefined {
    const now = Date.now();
    let u = 0;
    for (const key of clockNames) {
      const hit = fresh(key, now);
      if (!hit) return undefined;
      u += readHead(hit.value).u;
    }
    const hashes = hashesOf(terms);
    const entries = new Map<string, TermEntry>();
    for (const [k, term] of terms.entries()) {
      const hit = fresh(shardNames[(hashes[k] as number) % SHARDS] as string, now);
      if (!hit) return undefined;
      const { x } = readShard(hit.value);
      if (Object.hasOwn(x, term)) entries.set(term, x[term] as TermEntry);
    }
    return { u, entry: (term) => entries.get(term) };
  }

  async function learnedFor(terms: Iterable<string>, warn: Warn): Promise<Learned> {
    const shardOfTerm = new Map<string, number>();
    for (const term of terms) shardOfTerm.set(term, shardOf(term));
    const byIndex = new Map<number, Shard>();
    const held = clockNames.map((key) => fresh(key));
    let clockValues = held.every((hit) => hit !== undefined) ? held.map((hit) => hit.value) : undefined;
    const missing: number[] = [];
    for (const i of new Set(shardOfTerm.values())) {
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
    const entries = new Map<string, TermEntry>();
    for (const [term, i] of shardOfTerm) {
      const x = (byIndex.get(i) as Shard).x;
      if (Object.hasOwn(x, term)) entries.set(term, x[term] as TermEntry);
    }
    return { u: clockOf(clockValues), entry: (term) => entries.get(term) };
  }

  return { clockNames, shardNames, heldFor, learnedFor };
}
