// What the IndexedDB store promises beyond the shared store contract, against whatever IndexedDB the
// runtime has: fake-indexeddb in Node, the real one in Chromium. Nothing is mocked: connections are
// closed and databases upgraded for real, as a browser or another tab would.
import { createToolSearch, ToolSearchError } from 'tool-search-layer';
import { createIndexedDbStore } from 'tool-search-layer/indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogue, recordingLogger } from '../core/fixtures.ts';
import { storeConformance } from './conformance.ts';
import { expiryConformance } from './expiry-conformance.ts';

let databases = 0;
/** A database name no other test uses: every test starts from empty data. */
const freshDbName = (label: string): string => `tsl-${label}-${Date.now()}-${++databases}`;

const writesByDb = new Map<string, number>();
let counting = false;

/** Writes (put, delete, clear) that reached the database `dbName`, counted on IndexedDB's own prototype. */
function writesTo(dbName: string): () => number {
  if (!counting) {
    counting = true;
    const proto = IDBObjectStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ['put', 'delete', 'clear']) {
      const real = proto[method] as (...args: unknown[]) => unknown;
      proto[method] = function (this: IDBObjectStore, ...args: unknown[]) {
        const name = this.transaction.db.name;
        writesByDb.set(name, (writesByDb.get(name) ?? 0) + 1);
        return real.apply(this, args);
      };
    }
  }
  return () => writesByDb.get(dbName) ?? 0;
}

/** Runs the shared store conformance suite on fresh databases; `label` names the runtime. */
export function indexedDbConformance(label: string): void {
  storeConformance(
    `indexeddb (${label})`,
    () => {
      const dbName = freshDbName(`conformance-${label}`);
      return { open: () => createIndexedDbStore({ dbName }), writes: writesTo(dbName) };
    },
    { coldIsolates: label !== 'chromium' },
  );
  expiryConformance(`indexeddb (${label})`, () => {
    const dbName = freshDbName(`expiry-${label}`);
    return { open: (ttlSeconds, now) => createIndexedDbStore({ dbName, ttlSeconds, now }) };
  });
}

/** Records every IndexedDB connection opened from now on, so a test can close one under the store. */
function watchOpens(onOpen?: (db: IDBDatabase) => void) {
  const connections: IDBDatabase[] = [];
  const factory = indexedDB;
  const open = factory.open.bind(factory);
  const spy = vi.spyOn(factory, 'open').mockImplementation((name: string, version?: number) => {
    const request = version === undefined ? open(name) : open(name, version);
    // Registered before the store's own onsuccess, so it runs first.
    request.addEventListener('success', () => {
      connections.push(request.result);
      onOpen?.(request.result);
    });
    return request;
  });
  return { connections, opens: () => spy.mock.calls.length };
}

/** Opens `dbName` at the next version, as a newer build of an app in another tab would; fails if a connection blocks it. */
async function upgrade(dbName: string, change?: (db: IDBDatabase) => void): Promise<void> {
  const probe = await promised(indexedDB.open(dbName));
  const version = probe.version + 1;
  probe.close();
  const request = indexedDB.open(dbName, version);
  request.onupgradeneeded = () => change?.(request.result);
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error(`the upgrade of "${dbName}" is blocked by a connection left open`));
  });
  db.close();
}

/** Every key in the store's object store, read over a connection of its own. */
async function storedKeys(dbName: string): Promise<IDBValidKey[]> {
  const db = await promised(indexedDB.open(dbName));
  try {
    return await promised(db.transaction('discovered').objectStore('discovered').getAllKeys());
  } finally {
    db.close();
  }
}

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const add = (item: string) => (current: unknown) => [...((current as string[] | undefined) ?? []), item];

/** Registers the IndexedDB store's own tests; `label` names the runtime. */
export function indexedDbCases(label: string): void {
  describe(`IndexedDB store: its own promises (${label})`, () => {
    let dbName: string;
    beforeEach(() => {
      dbName = freshDbName(label);
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('rejects bad options at creation, naming the option and the reason', () => {
      const message = (options: unknown) => {
        try {
          createIndexedDbStore(options as never);
        } catch (error) {
          expect(ToolSearchError.isInstance(error)).toBe(true);
          return (error as Error).message;
        }
        throw new Error('no error thrown');
      };
      expect(message({ dbName: '' })).toMatch(/createIndexedDbStore: invalid option "dbName": must not be empty/);
      expect(message({ storeName: 7 })).toMatch(/invalid option "storeName": must be a string/);
      expect(message({ dbname: 'x' })).toMatch(/invalid option "dbname": is not an option/);
      expect(message('x')).toMatch(/createIndexedDbStore: invalid options/);
      expect(message({ ttlSeconds: 0 })).toMatch(/invalid option "ttlSeconds": must be 1 or more/);
      expect(message({ ttlSeconds: 1.5 })).toMatch(/invalid option "ttlSeconds": must be an integer/);
      expect(message({ ttlSeconds: '60' })).toMatch(/invalid option "ttlSeconds": must be a number/);
      expect(message({ now: 5 })).toMatch(/invalid option "now": must be a function/);
      expect(createIndexedDbStore().name).toBe('indexeddb');
      expect(createIndexedDbStore({}).name).toBe('indexeddb');
    });

    it('deletes expired sessions when a store first opens the database, through the write-time index', async () => {
      let time = 0;
      const open = () => createIndexedDbStore({ dbName, ttlSeconds: 60, now: () => time });
      const first = open();
      await first.update('old', () => ['a']);
      await first.shared?.update('k', () => 1);
      time = 30_000;
      await first.update('young', () => ['b']);
      expect(await storedKeys(dbName)).toHaveLength(2 + 2 + 2 + 1);
      time = 60_000;
      // The first store instance has opened already: it hides 'old' but keeps its records until its next prune.
      expect(await first.get('old')).toBeUndefined();
      expect(await storedKeys(dbName)).toHaveLength(7);
      expect(await open().get('young')).toEqual(['b']);
      expect(await storedKeys(dbName)).toEqual(['young', ['shared', 'k'], ['t', 30_000, 'young'], ['w', 'young']]);
    });

    it('deletes expired sessions every 64 writes of a store instance', async () => {
      let time = 0;
      const store = createIndexedDbStore({ dbName, ttlSeconds: 60, now: () => time });
      await store.update('old', () => ['a']);
      time = 60_000;
      for (let i = 1; i < 63; i++) await store.update(`s${i}`, () => ['b']);
      expect(await storedKeys(dbName)).toContain('old');
      await store.update('s63', () => ['b']);
      expect(await storedKeys(dbName)).not.toContain('old');
      expect((await storedKeys(dbName)).filter((key) => typeof key === 'string')).toHaveLength(63);
    });

    it('opens nothing until the first call, then keeps one connection', async () => {
      const watch = watchOpens();
      const store = createIndexedDbStore({ dbName });
      expect(watch.opens()).toBe(0);
      expect(await store.get('s')).toBeUndefined();
      expect(watch.opens()).toBe(1);
      await store.update('s', add('a'));
      await store.get('s');
      expect(watch.opens()).toBe(1);
    });

    it('uses the default names when none are given', async () => {
      const watch = watchOpens();
      const store = createIndexedDbStore();
      await store.update('defaults-check', add('a'));
      expect(watch.connections[0]?.name).toBe('tool-search-layer');
      expect([...(watch.connections[0]?.objectStoreNames ?? [])]).toContain('discovered');
      await store.delete('defaults-check');
    });

    it('keeps two names apart: dbName and storeName pick the data', async () => {
      const a = createIndexedDbStore({ dbName, storeName: 'one' });
      const b = createIndexedDbStore({ dbName: `${dbName}-b`, storeName: 'one' });
      await a.update('s', add('a'));
      expect(await b.get('s')).toBeUndefined();
      expect(await createIndexedDbStore({ dbName, storeName: 'one' }).get('s')).toEqual(['a']);
    });

    it('writes nothing when the update returns the current value, and deletes on undefined', async () => {
      const store = createIndexedDbStore({ dbName });
      await store.update('s', add('a'));
      const writes = writesTo(dbName);
      const before = writes();
      const same = await store.update('s', (current) => current);
      expect(same).toEqual(['a']);
      expect(writes()).toBe(before);
      expect(await store.update('s', () => undefined)).toBeUndefined();
      expect(writes()).toBe(before + 1);
      expect(await store.get('s')).toBeUndefined();
      expect(await store.update('missing', (current) => current)).toBeUndefined();
      expect(writes()).toBe(before + 1);
    });

    it('loses nothing when many updates of one session overlap, in one store and across two', async () => {
      const one = createIndexedDbStore({ dbName });
      const two = createIndexedDbStore({ dbName });
      const items = Array.from({ length: 40 }, (_, i) => `t${i}`);
      const results = await Promise.all(items.map((item, i) => (i % 2 ? one : two).update('s', add(item))));
      const stored = (await createIndexedDbStore({ dbName }).get('s')) as string[];
      expect([...stored].sort()).toEqual([...items].sort());
      // Each update saw every earlier one: the lengths it returned are 1..40, each once.
      expect(results.map((r) => (r as string[]).length).sort((x, y) => x - y)).toEqual(items.map((_, i) => i + 1));
    });

    it('keeps an id as an exact key: hostile ids never meet', async () => {
      const store = createIndexedDbStore({ dbName });
      const ids = ['', '__proto__', 'constructor', '\0', '../x', 'a:b', 'x'.repeat(10_240), '会话'];
      await Promise.all(ids.map((id, i) => store.update(id, add(`v${i}`))));
      const other = createIndexedDbStore({ dbName });
      for (const [i, id] of ids.entries()) expect(await other.get(id)).toEqual([`v${i}`]);
      await other.delete('__proto__');
      expect(await store.get('__proto__')).toBeUndefined();
      expect(await store.get('constructor')).toEqual(['v2']);
    });

    it('reopens once when the browser closed its connection under it', async () => {
      const watch = watchOpens();
      const store = createIndexedDbStore({ dbName });
      await store.update('s', add('a'));
      // What Safari does to a background tab: the connection is closed, no close event reaches idb-keyval.
      watch.connections[0]?.close();
      expect(await store.get('s')).toEqual(['a']);
      expect(watch.opens()).toBe(2);
      await store.update('s', add('b'));
      expect(await store.get('s')).toEqual(['a', 'b']);
      expect(watch.opens()).toBe(2);
    });

    it('lets another tab upgrade the database, then reopens', async () => {
      const store = createIndexedDbStore({ dbName });
      await store.update('s', add('a'));
      await upgrade(dbName);
      expect(await store.update('s', add('b'))).toEqual(['a', 'b']);
      expect(await createIndexedDbStore({ dbName }).get('s')).toEqual(['a', 'b']);
    });

    it('retries only once: a connection that keeps dying fails the call', async () => {
      const watch = watchOpens((db) => db.close());
      const store = createIndexedDbStore({ dbName });
      await expect(store.get('s')).rejects.toMatchObject({ name: 'InvalidStateError' });
      expect(watch.opens()).toBe(2);
    });

    it("never blocks the upgrade of a host app's database that it cannot use", async () => {
      await upgrade(dbName, (db) => db.createObjectStore('things'));
      const store = createIndexedDbStore({ dbName });
      await expect(store.get('s')).rejects.toThrow(/has no object store "discovered".*a dbName of its own/);
      await upgrade(dbName, (db) => db.createObjectStore('more-things'));
      await expect(store.update('s', add('a'))).rejects.toThrow(/has no object store "discovered"/);
    });

    it('explains a database that lacks its object store, and the layer keeps working in memory', async () => {
      const store = createIndexedDbStore({ dbName });
      await store.update('s', add('a'));
      await upgrade(dbName, (db) => db.deleteObjectStore('discovered'));
      await expect(store.get('s')).rejects.toThrow(/database "tsl-.*" has no object store "discovered"/);

      const logger = recordingLogger();
      const layer = createToolSearch({ store: createIndexedDbStore({ dbName }), logger });
      const found = await layer.search({ sessionId: 's', tools: catalogue }, { query: 'weather' });
      expect('tools' in found && found.tools.length).toBeGreaterThan(0);
      const round = await layer.prepare({ sessionId: 's', tools: catalogue });
      expect(round.discovered.length).toBeGreaterThan(0);
      expect(logger.lines.filter((line) => line.includes('"indexeddb"'))).toHaveLength(1);
    });

    it('through an outage: the layer goes on in memory, then merges what it found back into IndexedDB', async () => {
      const logger = recordingLogger();
      const layer = createToolSearch({ store: createIndexedDbStore({ dbName }), logger, storeRetryMs: 0 });
      const context = { sessionId: 's', tools: catalogue };
      const names = (result: object) =>
        'tools' in result ? (result.tools as { name: string }[]).map((t) => t.name) : [];
      const before = names(await layer.search(context, { query: 'send email', limit: 1 }));
      await upgrade(dbName, (db) => db.deleteObjectStore('discovered'));
      const during = names(await layer.search(context, { query: 'forecast', limit: 1 }));
      const all = [...before, ...during];
      expect(all).toEqual(['send_email', 'get_forecast']);
      expect((await layer.prepare(context)).discovered).toEqual(all);
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).toMatch(/store "indexeddb" failed .*no object store "discovered"/);
      await upgrade(dbName, (db) => db.createObjectStore('discovered'));
      await layer.prepare(context);
      expect(await createIndexedDbStore({ dbName }).get('s')).toBeDefined();
      const reloaded = createToolSearch({ store: createIndexedDbStore({ dbName }), logger: recordingLogger() });
      expect((await reloaded.prepare(context)).discovered).toEqual(all);
      expect(logger.lines).toHaveLength(1);
    });

    it('two layers on one session at the same moment keep every discovery (two tabs)', async () => {
      const tab = () => createToolSearch({ store: createIndexedDbStore({ dbName }), logger: recordingLogger() });
      const [a, b] = [tab(), tab()];
      const context = { sessionId: 'shared', tools: catalogue };
      const [mail, files] = await Promise.all([
        a.search(context, { query: 'email' }),
        b.search(context, { query: 'file' }),
      ]);
      const foundNames = [mail, files].flatMap((r) => ('tools' in r ? r.tools.map((t) => t.name) : []));
      expect(foundNames).toEqual(expect.arrayContaining(['send_email', 'read_file']));
      const reloaded = await tab().prepare(context);
      expect([...reloaded.discovered].sort()).toEqual([...new Set(foundNames)].sort());
    });
  });
}
