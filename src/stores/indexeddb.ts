// Discovered sets in the browser's IndexedDB, through idb-keyval: one transaction per update, so tabs lose nothing.
import { clear as clearAll, del, get, promisifyRequest, type UseStore } from 'idb-keyval';
import * as v from 'valibot';
import { ToolSearchError } from '../base/errors.ts';
import { parseOptions } from '../base/validate.ts';
import { clockSchema, expired, ttlSchema } from './expiry.ts';
import { storageIdentity } from './identity.ts';
import type { DiscoveredStore, RecordUpdate } from './store.ts';

/** Where the IndexedDB store keeps its sessions. */
export interface IndexedDbStoreOptions {
  /** The database. Default `'tool-search-layer'`. Give the store a database of its own: the object store is created only with a new database. */
  readonly dbName?: string;
  /** The object store inside it, one record per session id (and one per shared value). Default `'discovered'`. */
  readonly storeName?: string;
  /**
   * A session not written for this long is gone, in seconds (reads do not extend it; the shared space never
   * expires). Reads past the age return nothing at once; the records are deleted when a store opens its
   * database and every 64 writes, through an index on the write time. Default: never.
   */
  readonly ttlSeconds?: number;
  /** The clock, in milliseconds, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

const nonEmpty = (fallback: string) =>
  v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')), fallback);

const schema = v.strictObject(
  {
    dbName: nonEmpty('tool-search-layer'),
    storeName: nonEmpty('discovered'),
    ttlSeconds: ttlSchema,
    now: clockSchema,
  },
  'is not an option',
);

/**
 * Keeps discovered sets in IndexedDB, one record per session, so they outlive a reload and are shared
 * by the tabs of an origin. Nothing is opened until the first call.
 * @example const layer = createToolSearch({ store: createIndexedDbStore() })
 */
/* @__NO_SIDE_EFFECTS__ */
export function createIndexedDbStore(options: IndexedDbStoreOptions = {}): DiscoveredStore {
  const { dbName, storeName, ttlSeconds, now = Date.now } = parseOptions(schema, options, 'createIndexedDbStore');
  const ttlMs = ttlSeconds === undefined ? undefined : ttlSeconds * 1000;
  let use: UseStore | undefined;
  // Pruned once per store instance, before its first call, and then every PRUNE_EVERY writes.
  let pruning: Promise<void> | undefined;
  let writes = 0;

  async function run<T>(operation: (store: UseStore) => Promise<T>): Promise<T> {
    if (typeof indexedDB === 'undefined') {
      throw new ToolSearchError('indexeddb store: this runtime has no IndexedDB; pass another store');
    }
    use ??= openStore(dbName, storeName);
    if (ttlSeconds !== undefined) {
      pruning ??= prune();
      await pruning;
    }
    const current = use;
    try {
      return await operation(current);
    } catch (error) {
      if (!connectionLost(error)) throw error;
      // Safari closes idle connections of background tabs without a close event: open anew, once.
      if (use === current) use = openStore(dbName, storeName);
      return operation(use);
    }
  }

  // The read, the merge and the write share one readwrite transaction: IndexedDB runs overlapping ones in turn,
  // so two tabs updating one key each see the other's write. (idb-keyval's update always puts.)
  const change = (key: IDBValidKey, apply: RecordUpdate, session: string | undefined) =>
    run((store) =>
      store('readwrite', async (objects) => {
        const time = now();
        const [stored, written] = await Promise.all([
          promisifyRequest(objects.get(key)),
          session === undefined ? undefined : promisifyRequest(objects.get(writtenKey(session))),
        ]);
        const current = ttlMs !== undefined && expired(written, ttlMs, time) ? undefined : stored;
        const next = apply(current);
        if (next === current) return current;
        if (next === undefined) objects.delete(key);
        else objects.put(next, key);
        if (session !== undefined) stamp(objects, session, written, next === undefined ? undefined : time);
        await promisifyRequest(objects.transaction);
        if (session !== undefined && ++writes % PRUNE_EVERY === 0) await prune();
        return next;
      }),
    );

  const readSession = (sessionId: string) =>
    run((store) =>
      store('readonly', async (objects) => {
        if (ttlMs === undefined) return promisifyRequest(objects.get(sessionId));
        const [stored, written] = await Promise.all([
          promisifyRequest(objects.get(sessionId)),
          promisifyRequest(objects.get(writtenKey(sessionId))),
        ]);
        return expired(written, ttlMs, now()) ? undefined : stored;
      }),
    );

  /** Deletes the sessions past their age, oldest first, a bounded batch, through the write-time index. */
  function prune(): Promise<void> {
    if (ttlMs === undefined || !use) return Promise.resolve();
    const cutoff = now() - ttlMs;
    return use('readwrite', async (objects) => {
      // ['t', time, id] sorts by time; [] sorts after every string, so entries written at the cutoff are included.
      const range = IDBKeyRange.bound(['t', -Infinity], ['t', cutoff, []]);
      const keys = await promisifyRequest(objects.getAllKeys(range, PRUNE_BATCH));
      for (const key of keys) {
        const session = (key as [string, number, string])[2];
        objects.delete(key);
        objects.delete(session);
        objects.delete(writtenKey(session));
      }
      await promisifyRequest(objects.transaction);
    }).catch(() => undefined);
  }

  return {
    name: 'indexeddb',
    get: readSession,
    update: (sessionId, apply) => change(sessionId, apply, ttlMs === undefined ? undefined : sessionId),
    delete: (sessionId) =>
      run((store) =>
        ttlMs === undefined
          ? del(sessionId, store)
          : store('readwrite', async (objects) => {
              const written = await promisifyRequest(objects.get(writtenKey(sessionId)));
              objects.delete(sessionId);
              stamp(objects, sessionId, written, undefined);
              await promisifyRequest(objects.transaction);
            }),
      ),
    clear: () => run((store) => clearAll(store)),
    shared: {
      get: (key) => run((store) => get(sharedKey(key), store)),
      update: (key, apply) => change(sharedKey(key), apply, undefined),
      delete: (key) => run((store) => del(sharedKey(key), store)),
      // One database and object store of this origin's IndexedDB (a runtime without it shares nothing).
      ...(typeof indexedDB === 'object' ? { identity: storageIdentity(indexedDB, `${dbName}\u0000${storeName}`) } : {}),
    },
  };
}

// Sessions are keyed by their id, a string; everything else by an array, which no string key can equal: a shared
// value by ['shared', key], a session's write time by ['w', id], and the write-time index by ['t', time, id].
const sharedKey = (key: string): IDBValidKey => ['shared', key];
const writtenKey = (sessionId: string): IDBValidKey => ['w', sessionId];
// Writes between two prunes of one store instance, and sessions deleted by one prune (a short transaction).
const PRUNE_EVERY = 64;
const PRUNE_BATCH = 256;

/** Moves a session's entry in the write-time index from `before` to `after` (undefined: none). */
function stamp(objects: IDBObjectStore, sessionId: string, before: unknown, after: number | undefined): void {
  if (typeof before === 'number') objects.delete(['t', before, sessionId]);
  if (after === undefined) objects.delete(writtenKey(sessionId));
  else {
    objects.put(after, writtenKey(sessionId));
    objects.put(0, ['t', after, sessionId]);
  }
}

/**
 * idb-keyval's createStore plus what it leaves out: the connection closes as soon as another tab upgrades
 * the database, or when the database lacks our object store, so it never blocks anyone's upgrade; a
 * closed connection is forgotten and the next call opens a new one.
 */
function openStore(dbName: string, storeName: string): UseStore {
  let connection: Promise<IDBDatabase> | undefined;
  const connect = (): Promise<IDBDatabase> => {
    const request = indexedDB.open(dbName);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    const opened: Promise<IDBDatabase> = promisifyRequest(request).then((db) => {
      const forget = () => {
        if (connection === opened) connection = undefined;
      };
      db.onclose = forget;
      db.onversionchange = () => {
        db.close();
        forget();
      };
      if (!db.objectStoreNames.contains(storeName)) {
        db.close();
        forget();
        throw new ToolSearchError(
          `indexeddb store: database "${dbName}" has no object store "${storeName}" (other code created the database; give this store a dbName of its own)`,
        );
      }
      return db;
    });
    opened.catch(() => {
      if (connection === opened) connection = undefined;
    });
    return opened;
  };
  return (mode, callback) => {
    connection ??= connect();
    return connection.then((db) => callback(db.transaction(storeName, mode).objectStore(storeName)));
  };
}

/** A dead connection: `transaction()` on a closed one, or WebKit's "Connection to Indexed Database server lost". */
function connectionLost(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'InvalidStateError' || name === 'UnknownError';
}
