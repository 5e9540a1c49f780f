// Sessions of the Durable Object store that expire (ttlSeconds): each session's write time is kept beside it, with
// an entry in a write-time index, so reads check the age at once and writes delete the oldest expired sessions
// by a bounded range read instead of a scan.

import type { DurableObjectStorageLike, SyncKvLike } from './cloudflare-types.ts';
import { expired } from './expiry.ts';
import type { RecordUpdate } from './store.ts';

/** The object's storage as the store reaches it: the synchronous API on SQLite-backed objects, else a per-key queue. */
export interface Backend {
  readonly storage: DurableObjectStorageLike;
  readonly sync: SyncKvLike | undefined;
  readonly enqueue: <T>(key: string, task: () => Promise<T>) => Promise<T>;
}

/** Where a session lives: its own key, and the tail (`s:<id>` or `h:<hash>`) its write-time keys are built from. */
export interface SessionKeys {
  readonly key: string;
  readonly tail: string;
}

/** The store's prefix, the age in milliseconds, the clock, and a session's keys. */
export interface ExpiryOptions {
  readonly prefix: string;
  readonly ttlMs: number;
  readonly now: () => number;
  readonly keysOf: (sessionId: string) => Promise<SessionKeys>;
}

/** A store's session methods. */
export interface SessionMethods {
  get(sessionId: string): Promise<unknown>;
  update(sessionId: string, apply: RecordUpdate): Promise<unknown>;
  delete(sessionId: string): Promise<void>;
}

/** An index entry's value: the keys to delete when it expires. */
interface Indexed {
  readonly key: string;
  readonly written: string;
}

// Expired sessions deleted per write: more than the one session a write can add, so the index drains.
const PRUNE_BATCH = 16;
// Write times as 15 decimal digits sort in time order (to the year 33658).
const digits = (time: number) => String(Math.max(0, Math.floor(time))).padStart(15, '0');

/** The session methods of a Durable Object store whose sessions expire `ttlMs` after their last write. */
export function expiringSessions(backend: Backend, options: ExpiryOptions): SessionMethods {
  const { storage, sync, enqueue } = backend;
  const { prefix, ttlMs, now, keysOf } = options;
  const writtenKey = (tail: string) => `${prefix}w:${tail}`;
  const indexKey = (time: number, tail: string) => `${prefix}t:${digits(time)}:${tail}`;
  // Index entries written at or before the cutoff: `end` is exclusive.
  const expiredRange = (time: number) => ({
    start: `${prefix}t:`,
    end: `${prefix}t:${digits(time - ttlMs + 1)}`,
    limit: PRUNE_BATCH,
  });

  /** The keys to write and delete for a session going from `current` to `next` at `time`. */
  function plan(keys: SessionKeys, written: unknown, next: unknown, time: number) {
    const puts: Record<string, unknown> = {};
    const deletes: string[] = [];
    if (typeof written === 'number') deletes.push(indexKey(written, keys.tail));
    if (next === undefined) deletes.push(keys.key, writtenKey(keys.tail));
    else {
      const entry: Indexed = { key: keys.key, written: writtenKey(keys.tail) };
      Object.assign(puts, { [keys.key]: next, [writtenKey(keys.tail)]: time, [indexKey(time, keys.tail)]: entry });
    }
    return { puts, deletes };
  }

  // SQLite-backed: the whole read, write and prune is one synchronous stretch, so nothing runs in between.
  function updateSync(s: NonNullable<Backend['sync']>, keys: SessionKeys, apply: RecordUpdate): unknown {
    const time = now();
    const written = s.get(writtenKey(keys.tail));
    const current = expired(written, ttlMs, time) ? undefined : s.get(keys.key);
    const next = apply(current);
    if (next === current) return current;
    const { puts, deletes } = plan(keys, written, next, time);
    for (const key of deletes) s.delete(key);
    for (const [key, value] of Object.entries(puts)) s.put(key, value);
    for (const [key, entry] of [...s.list<Indexed>(expiredRange(time))]) {
      for (const stale of [key, entry.key, entry.written]) s.delete(stale);
    }
    return next;
  }

  // Key-value backed: each session's change runs in that session's queue, reading and writing with no other I/O
  // between, so an expired session is never deleted over a fresh write of it.
  function updateGated(keys: SessionKeys, apply: RecordUpdate): Promise<unknown> {
    return enqueue(keys.key, async () => {
      const time = now();
      const found = await storage.get([keys.key, writtenKey(keys.tail)]);
      const written = found.get(writtenKey(keys.tail));
      const current = expired(written, ttlMs, time) ? undefined : found.get(keys.key);
      const next = apply(current);
      if (next === current) return current;
      const { puts, deletes } = plan(keys, written, next, time);
      await Promise.all([storage.delete(deletes), storage.put(puts)]);
      return next;
    }).then(async (next) => {
      await pruneGated(now());
      return next;
    });
  }

  async function pruneGated(time: number): Promise<void> {
    const entries = await storage.list<Indexed>(expiredRange(time));
    await Promise.all(
      [...entries].map(([key, entry]) =>
        enqueue(entry.key, async () => {
          const written = await storage.get(entry.written);
          // Rewritten since it was listed: the rewrite moved its index entry, and the session stays.
          if (!expired(written, ttlMs, time) && written !== undefined) return;
          await storage.delete([key, entry.key, entry.written]);
        }),
      ),
    );
  }

  async function read(sessionId: string): Promise<unknown> {
    const keys = await keysOf(sessionId);
    const time = now();
    if (sync) return expired(sync.get(writtenKey(keys.tail)), ttlMs, time) ? undefined : sync.get(keys.key);
    const found = await storage.get([keys.key, writtenKey(keys.tail)]);
    return expired(found.get(writtenKey(keys.tail)), ttlMs, time) ? undefined : found.get(keys.key);
  }

  return {
    get: read,
    async update(sessionId: string, apply: RecordUpdate): Promise<unknown> {
      const keys = await keysOf(sessionId);
      return sync ? updateSync(sync, keys, apply) : updateGated(keys, apply);
    },
    async delete(sessionId: string): Promise<void> {
      const keys = await keysOf(sessionId);
      if (sync) {
        for (const key of plan(keys, sync.get(writtenKey(keys.tail)), undefined, 0).deletes) sync.delete(key);
        return;
      }
      await enqueue(keys.key, async () => {
        const { deletes } = plan(keys, await storage.get(writtenKey(keys.tail)), undefined, 0);
        await storage.delete(deletes);
      });
    },
  };
}
