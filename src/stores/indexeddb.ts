// Discovered sets in the browser's IndexedDB, through idb-keyval: one transaction per update, so tabs lose nothing.
import { createStore, promisifyRequest, type UseStore } from 'idb-keyval';
import * as v from 'valibot';
import { ToolSearchError } from '../errors.ts';
import type { DiscoveredStore, RecordUpdate } from '../store.ts';
import { parseOptions } from '../validate.ts';

/** Where the IndexedDB store keeps its sessions. */
export interface IndexedDbStoreOptions {
  /** The database. Default `'tool-search-layer'`. Give it a database of its own: idb-keyval creates the object store only with a new database. */
  readonly dbName?: string;
  /** The object store inside it, one record per session id. Default `'discovered'`. */
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

  async function run<T>(mode: IDBTransactionMode, callback: (store: IDBObjectStore) => T | PromiseLike<T>) {
    if (typeof indexedDB === 'undefined') {
      throw new ToolSearchError('indexeddb store: this runtime has no IndexedDB; pass another store');
    }
    use ??= createStore(dbName, storeName);
    const current = use;
    const hooked = (store: IDBObjectStore) => {
      const db = store.transaction.db;
      // Another tab upgrading the database waits for every open connection to close: let it, and reopen on the next call.
      db.onversionchange ??= () => db.close();
      return callback(store);
    };
    try {
      return await current(mode, hooked);
    } catch (error) {
      if (!connectionLost(error)) throw explain(error, dbName, storeName);
      // Safari closes idle connections of background tabs without a close event: the cached one is dead, open anew once.
      if (use === current) use = createStore(dbName, storeName);
      try {
        return await use(mode, hooked);
      } catch (retryError) {
        throw explain(retryError, dbName, storeName);
      }
    }
  }

  return {
    name: 'indexeddb',
    get(sessionId) {
      return run('readonly', (store) => promisifyRequest(store.get(sessionId)));
    },
    update(sessionId, apply: RecordUpdate) {
      // The read, the merge and the write share one readwrite transaction: IndexedDB runs overlapping ones in
      // turn, so two tabs updating one session each see the other's write.
      return run(
        'readwrite',
        (store) =>
          new Promise<unknown>((resolve, reject) => {
            const read = store.get(sessionId);
            read.onerror = () => reject(read.error);
            read.onsuccess = () => {
              try {
                const current = read.result;
                const next = apply(current);
                if (next === current) return resolve(current);
                if (next === undefined) store.delete(sessionId);
                else store.put(next, sessionId);
                promisifyRequest(store.transaction).then(() => resolve(next), reject);
              } catch (error) {
                reject(error);
              }
            };
          }),
      );
    },
    async delete(sessionId) {
      await run('readwrite', (store) => {
        store.delete(sessionId);
        return promisifyRequest(store.transaction);
      });
    },
    async clear() {
      await run('readwrite', (store) => {
        store.clear();
        return promisifyRequest(store.transaction);
      });
    },
  };
}

/** A dead connection: `transaction()` on a closed one, or WebKit's "Connection to Indexed Database server lost". */
function connectionLost(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'InvalidStateError' || name === 'UnknownError';
}

function explain(error: unknown, dbName: string, storeName: string): unknown {
  if ((error as { name?: unknown } | null)?.name !== 'NotFoundError') return error;
  return new ToolSearchError(
    `indexeddb store: database "${dbName}" has no object store "${storeName}" (it was created without it; give this store a dbName of its own)`,
    { cause: error },
  );
}
