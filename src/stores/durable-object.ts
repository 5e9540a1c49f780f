// Discovered sets in a Durable Object's own storage (every Cloudflare Agents SDK agent is one).
import * as v from 'valibot';
import { parseOptions } from '../base/validate.ts';
import type { DurableObjectStorageLike, SyncKvLike } from './cloudflare-types.ts';
import { type Backend, expiringSessions } from './durable-object-expiry.ts';
import { clockSchema, ttlSchema } from './expiry.ts';
import { storageIdentity } from './identity.ts';
import { byteLength, prefixSchema, sessionKey, sharedKey } from './keys.ts';
import { parsedTexts } from './parsed-texts.ts';
import type { DiscoveredStore, RecordUpdate } from './store.ts';

export type { DurableObjectStorageLike, StorageListOptions, SyncKvLike } from './cloudflare-types.ts';

/** Options of the Durable Object store. */
export interface DurableObjectStoreOptions {
  /**
   * The object's storage, `this.ctx.storage`, which this store shares with the object's own data. Only `get`, `put`,
   * `delete` and `list` are required; the synchronous `kv` API of SQLite-backed objects is used when it works.
   */
  readonly storage: DurableObjectStorageLike;
  /** Prefix of every key this store writes, lists and deletes. Default `'tsl:'`. */
  readonly prefix?: string;
  /**
   * A session not written for this long is gone, in seconds (reads do not extend it; the shared space never
   * expires). Reads past the age return nothing at once; each write deletes up to 16 expired sessions, found
   * through an index on the write time (keys under `<prefix>t:`). Default: never.
   */
  readonly ttlSeconds?: number;
  /** The clock, in milliseconds, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

// Key-value backed objects take keys up to 2 KiB (SQLite-backed ones take key + value up to 2 MB):
// the smaller bound keeps one key scheme valid on both backends.
const MAX_KEY_BYTES = 2048;
// storage.delete() takes at most 128 keys at a time.
const DELETE_BATCH = 128;
// Key-value backed objects: per storage and key, the update under way, so that store instances over one
// object (one per request, say) queue their read-apply-write instead of interleaving them.
const queues = /* @__PURE__ */ new WeakMap<DurableObjectStorageLike, Map<string, Promise<unknown>>>();

// The asynchronous methods this store calls. `sql` and `kv` (SQLite-backed objects) are used when they work and are
// not required, so a test double or a wrapper needs only these four.
const STORAGE_METHODS = ['get', 'put', 'delete', 'list'] as const;

/** The methods of STORAGE_METHODS that `value` lacks (all of them when it is not an object). */
const missingMethods = (value: unknown): string[] =>
  STORAGE_METHODS.filter(
    (method) => typeof value !== 'object' || value === null || typeof Reflect.get(value, method) !== 'function',
  );

const schema = v.strictObject(
  {
    storage: v.custom<DurableObjectStorageLike>(
      (value) => missingMethods(value).length === 0,
      (issue) =>
        `must be a DurableObjectStorage (this.ctx.storage): it lacks ${missingMethods(issue.input)
          .map((method) => `${method}()`)
          .join(', ')}`,
    ),
    prefix: prefixSchema,
    ttlSeconds: ttlSchema,
    now: clockSchema,
  },
  'is not an option',
);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The synchronous key-value API of SQLite-backed objects, or undefined on key-value backed ones. */
function syncApi(storage: DurableObjectStorageLike): SyncKvLike | undefined {
  try {
    // On key-value backed objects storage.kv exists but its methods throw; storage.sql throws when touched. A
    // wrapper or a test double may have neither: it is used through its four asynchronous methods.
    if (storage.sql === undefined) return undefined;
    void storage.sql.databaseSize;
    return storage.kv;
  } catch {
    return undefined;
  }
}

/**
 * Keeps discovered sets in a Durable Object's storage, under its own key prefix, losing no update
 * between concurrent requests to the object. Values are stored as they are (structured clone).
 * @example const store = createDurableObjectStore({ storage: this.ctx.storage })
 */
/* @__NO_SIDE_EFFECTS__ */
export function createDurableObjectStore(options: DurableObjectStoreOptions): DiscoveredStore {
  const { storage, prefix, ttlSeconds, now = Date.now } = parseOptions(schema, options, 'createDurableObjectStore');
  const kv = syncApi(storage);
  const keyOf = (sessionId: string) => sessionKey(prefix, sessionId, MAX_KEY_BYTES);

  // SQLite-backed: read, apply and write in one synchronous stretch, so nothing (another request,
  // another store instance, a concurrent call of this one) can run in between.
  function updateSync(key: string, apply: RecordUpdate, sync: NonNullable<typeof kv>): unknown {
    const current = sync.get(key);
    const next = apply(current);
    if (next === current) return current;
    if (next === undefined) sync.delete(key);
    else sync.put(key, next);
    return next;
  }

  // Key-value backed: a read followed by a write with no other I/O between them is atomic against other
  // requests (the input gate holds them while the read is pending); the queue covers calls within one request.
  function enqueue<T>(key: string, task: () => Promise<T>): Promise<T> {
    const queue = queues.get(storage) ?? new Map<string, Promise<unknown>>();
    queues.set(storage, queue);
    const previous = queue.get(key) ?? Promise.resolve();
    const run = previous.then(task);
    const settled = run.catch(() => undefined);
    queue.set(key, settled);
    settled.then(() => {
      if (queue.get(key) === settled) queue.delete(key);
    });
    return run;
  }

  const updateGated = (key: string, apply: RecordUpdate): Promise<unknown> =>
    enqueue(key, async () => {
      const current = await storage.get(key);
      const next = apply(current);
      if (next === current) return current;
      if (next === undefined) await storage.delete(key);
      else await storage.put(key, next);
      return next;
    });

  // One read and one update for both spaces: sessions under `<prefix>s:`/`h:`, shared values under `<prefix>x:`.
  const read = (key: string) => (kv ? kv.get(key) : storage.get(key));
  const change = (key: string, apply: RecordUpdate) => (kv ? updateSync(key, apply, kv) : updateGated(key, apply));
  const keyOfShared = (key: string) => sharedKey(prefix, key, MAX_KEY_BYTES);
  const backend: Backend = { storage, sync: kv, enqueue };
  const sessions =
    ttlSeconds === undefined
      ? {
          get: async (id: string) => read(await keyOf(id)),
          update: async (id: string, apply: RecordUpdate) => change(await keyOf(id), apply),
          delete: async (id: string) => void (await storage.delete(await keyOf(id))),
        }
      : expiringSessions(backend, {
          prefix,
          ttlMs: ttlSeconds * 1000,
          now,
          keysOf: async (id) => ({
            key: await keyOf(id),
            // The index and write-time keys add up to 18 bytes (t:, 15 digits, :) after the prefix.
            tail: await sessionKey('', id, MAX_KEY_BYTES - byteLength(prefix) - 18),
          }),
        });

  // A shared value is kept as its JSON in UTF-8: 100 KB of JSON (the contract's bound) can take twice that as a
  // structured clone (two-byte strings, nine-byte numbers), past the key-value backend's 128 KiB a value. Its text
  // is parsed again only when it changed (the isolate's parsed texts of this storage).
  const texts = parsedTexts(storage);
  const decodeShared = (key: string, stored: unknown) =>
    stored instanceof Uint8Array ? texts.parse(key, decoder.decode(stored)) : undefined;
  async function updateShared(key: string, apply: RecordUpdate): Promise<unknown> {
    let after: unknown;
    const storageKey = await keyOfShared(key);
    await change(storageKey, (stored) => {
      const current = decodeShared(storageKey, stored);
      after = apply(current);
      if (after === current) return stored;
      if (after === undefined) return undefined;
      const text = JSON.stringify(after);
      texts.wrote(storageKey, text, after);
      return encoder.encode(text);
    });
    return after;
  }

  return {
    name: 'durable-object',
    get: sessions.get,
    update: sessions.update,
    delete: sessions.delete,
    async clear() {
      // Never deleteAll(): the object's own data lives in the same storage. The prefix covers the shared values.
      for (;;) {
        const keys = [...(await storage.list({ prefix, limit: DELETE_BATCH })).keys()];
        if (keys.length === 0) return;
        await storage.delete(keys);
      }
    },
    shared: {
      async get(key) {
        const storageKey = await keyOfShared(key);
        return decodeShared(storageKey, await read(storageKey));
      },
      update: updateShared,
      async delete(key) {
        await storage.delete(await keyOfShared(key));
      },
      // Every request to the object gets the same storage object.
      identity: storageIdentity(storage, prefix),
    },
  };
}
