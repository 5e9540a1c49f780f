// Discovered sets in the browser's IndexedDB, through idb-keyval: one transaction per update, so tabs lose nothing.
import { clear as clearAll, del, get, promisifyRequest, type UseStore } from 'idb-keyval';
import * as v from 'valibot';
import { ToolSearchError } from '../core/errors.ts';
import type { DiscoveredStore, RecordUpdate } from '../core/store-guard.ts';
import { parseOptions } from '../core/validate.ts';

/** Where the IndexedDB store keeps its sessions. */
export interface IndexedDbStoreOptions {
  /** The database. Default `'tool-search-layer'`. Give the store a database of its own: the object store is created only with a new database. */
  readonly dbName?: string;
  /** The object store inside it, one record per session id (and one per shared value). Default `'discovered'`. */
  readonly storeName?: string;
}

const nonEmpty = (fallback: string) =>
  v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')), fallback);

const schema = v.strictObject(
  { dbName: nonEmpty('tool-search-layer'), storeName: nonEmpty('discovered') },
  'is not an option',
);

/**
 * Keeps discovered sets in IndexedDB, one record per session, so they outlive a reload and are shared
 * by the tabs of an origin. Nothing is opened until the first call.
 * @example const layer = createToolSearch({ store: createIndexedDbStore() })
 */
/* @__NO_SIDE_EFFECTS__ */
export function createIndexedDbStore(options: IndexedDbStoreOptions = {}): DiscoveredStore {
  const { dbName, storeName } = parseOptions(schema, options, 'createIndexedDbStore');
  let use: UseStore | undefined;

  async function run<T>(operation: (store: UseStore) => Promise<T>): Promise<T> {
    if (typeof indexedDB === 'undefined') {
      throw new ToolSearchError('indexeddb store: this runtime has no IndexedDB; pass another store');
    }
    use ??= openStore(dbName, storeName);
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
  const change = (key: IDBValidKey, apply: RecordUpdate) =>
    run((store) =>
      store(
        'readwrite',
        (objects) =>
          new Promise<unknown>((resolve, reject) => {
            const read = objects.get(key);
            read.onerror = () => reject(read.error);
            read.onsuccess = () => {
              try {
                const current = read.result;
                const next = apply(current);
                if (next === current) return resolve(current);
                if (next === undefined) objects.delete(key);
                else objects.put(next, key);
                promisifyRequest(objects.transaction).then(() => resolve(next), reject);
              } catch (error) {
                reject(error);
              }
            };
          }),
      ),
    );
  // Sessions are keyed by their id, a string; a shared value by an array, which no string key can equal.
  const sharedKey = (key: string): IDBValidKey => ['shared', key];

  return {
    name: 'indexeddb',
    get: (sessionId) => run((store) => get(sessionId, store)),
    update: (sessionId, apply) => change(sessionId, apply),
    delete: (sessionId) => run((store) => del(sessionId, store)),
    clear: () => run((store) => clearAll(store)),
    shared: {
      get: (key) => run((store) => get(sharedKey(key), store)),
      update: (key, apply) => change(sharedKey(key), apply),
      delete: (key) => run((store) => del(sharedKey(key), store)),
    },
  };
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
