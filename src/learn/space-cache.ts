// The learner's way to the shared space: the guard, behind a cache of the values read or written lately, so a
// search within REFRESH_MS of the last read of a key (the head, a shard, a memory page) reads none again.
import type { GuardedShared } from '../core/shared-guard.ts';

type Warn = (message: string) => void;

/** The learner's way to the shared space: the guard, and its cache of values read or written lately. */
export interface SpaceAccess {
  readonly shared: GuardedShared;
  read(key: string, warn: Warn): Promise<unknown>;
  keep(key: string, value: unknown): void;
  /** A value read or written lately, boxed (a missing key is undefined inside). */
  fresh(key: string): { value: unknown } | undefined;
}

/** The space's access as the learner holds it: `fresh` takes the time when a caller checks many keys at once. */
export interface SpaceCache extends SpaceAccess {
  fresh(key: string, now?: number): { value: unknown } | undefined;
  /** Forgets every value read or written. */
  clear(): void;
}

/** How long a head or shard read from the store is used before it is read again. */
const REFRESH_MS = 5000;

/** Creates the cache in front of a scope's shared space. */
export function createSpaceCache(shared: GuardedShared): SpaceCache {
  const cache = new Map<string, { value: unknown; at: number }>();
  const keep = (key: string, value: unknown) => {
    cache.set(key, { value, at: Date.now() });
  };
  /** A value read or written within REFRESH_MS, boxed (a missing key is undefined inside). */
  const fresh = (key: string, now = Date.now()): { value: unknown } | undefined => {
    const hit = cache.get(key);
    return hit && now - hit.at < REFRESH_MS ? hit : undefined;
  };
  async function read(key: string, warn: Warn): Promise<unknown> {
    const hit = fresh(key);
    if (hit) return hit.value;
    const value = await shared.get(key, warn);
    keep(key, value);
    return value;
  }
  return { shared, read, keep, fresh, clear: () => cache.clear() };
}
