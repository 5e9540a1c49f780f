// The default store: a bounded map in process memory.

import * as v from 'valibot';
import { count, parseOptions } from '../base/validate.ts';
import type { DiscoveredStore, RecordUpdate, SharedSpace } from './store.ts';

/** Bounds of the memory store. */
export interface MemoryStoreOptions {
  /** Most sessions kept; the least recently used is dropped first. Default 1,000. */
  readonly maxSessions?: number;
  /** A session untouched for this long is dropped, in milliseconds; 0 = never. Default one hour. */
  readonly idleTimeoutMs?: number;
  /** Most shared values kept (learned credits per scope, vector chunks); the least recently used goes first. Default 1,000. */
  readonly maxShared?: number;
  /** The clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

const schema = v.strictObject(
  {
    maxSessions: count(1000, 1),
    idleTimeoutMs: count(3_600_000),
    maxShared: count(1000, 1),
    now: v.optional(v.custom<() => number>((value) => typeof value === 'function', 'must be a function')),
  },
  'is not an option',
);

interface Entry {
  record: unknown;
  touched: number;
}

/**
 * Keeps discovered sets in memory, bounded in sessions and idle time so a long-lived server or a
 * Worker isolate shared by many users does not grow without end.
 * @example const store = createMemoryStore({ maxSessions: 10_000, idleTimeoutMs: 30 * 60_000 })
 */
/* @__NO_SIDE_EFFECTS__ */
export function createMemoryStore(options: MemoryStoreOptions = {}): DiscoveredStore {
  const parsed = parseOptions(schema, options, 'createMemoryStore');
  const { maxSessions, idleTimeoutMs, maxShared } = parsed;
  const now = parsed.now ?? Date.now;
  // Map order is recency order: a touch re-inserts, so the oldest session is always first.
  const sessions = new Map<string, Entry>();

  const shared = new Map<string, unknown>();

  /** Shared values are not idle-expired: a scope's learned credits outlive any one session. */
  function sharedSpace(max: number): SharedSpace {
    const read = (key: string): unknown => {
      const value = shared.get(key);
      if (value !== undefined) {
        shared.delete(key);
        shared.set(key, value);
      }
      return value;
    };
    return {
      async get(key) {
        return read(key);
      },
      async update(key, apply) {
        const current = read(key);
        const next = apply(current);
        if (next === current) return current;
        if (next === undefined) shared.delete(key);
        else {
          shared.set(key, next);
          if (shared.size > max) shared.delete(shared.keys().next().value as string);
        }
        return next;
      },
      async delete(key) {
        shared.delete(key);
      },
      // The store is its own storage: another memory store is another storage.
      identity: {},
    };
  }

  function expire(time: number): void {
    if (idleTimeoutMs === 0) return;
    for (const [id, entry] of sessions) {
      if (time - entry.touched < idleTimeoutMs) break;
      sessions.delete(id);
    }
  }

  function read(sessionId: string, time: number): unknown {
    expire(time);
    const entry = sessions.get(sessionId);
    if (!entry) return undefined;
    sessions.delete(sessionId);
    entry.touched = time;
    sessions.set(sessionId, entry);
    return entry.record;
  }

  return {
    name: 'memory',
    async get(sessionId) {
      return read(sessionId, now());
    },
    async update(sessionId, apply: RecordUpdate) {
      const time = now();
      const current = read(sessionId, time);
      const next = apply(current);
      if (next === current) return current;
      if (next === undefined) {
        sessions.delete(sessionId);
        return undefined;
      }
      sessions.set(sessionId, { record: next, touched: time });
      if (sessions.size > maxSessions) sessions.delete(sessions.keys().next().value as string);
      return next;
    },
    async delete(sessionId) {
      sessions.delete(sessionId);
    },
    async clear() {
      sessions.clear();
      shared.clear();
    },
    shared: sharedSpace(maxShared),
  };
}
