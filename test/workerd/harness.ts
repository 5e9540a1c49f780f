// Conformance harnesses for the Cloudflare stores, over real workerd bindings (see wrangler.jsonc).
import { env } from 'cloudflare:test';
import type { DiscoveredStore, SharedSpace } from 'tool-search-layer';
import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { createDurableObjectStore, type DurableObjectStoreOptions } from 'tool-search-layer/durable-object';
import type { StoreHarness } from '../stores/conformance.ts';
import type { ExpiringHarness } from '../stores/expiry-conformance.ts';
import { type Faults, faultyKv, kvNetwork } from './faulty-kv.ts';

export type Host = 'SQLITE_HOST' | 'KEY_VALUE_HOST';
const bindings = env as unknown as Record<Host, DurableObjectNamespace> & { DISCOVERED: KVNamespace };

/** The real KV binding of the test Worker. */
export const realKv: KVNamespace = bindings.DISCOVERED;

export const freshPrefix = (): string => `t${crypto.randomUUID().slice(0, 8)}:`;

/** A request's deferred work, as ctx.waitUntil collects it; `settle` waits for all of it. */
export function requestContext(): { waitUntil: (promise: Promise<unknown>) => void; settle: () => Promise<void> } {
  const deferred: Promise<unknown>[] = [];
  return {
    waitUntil: (promise) => void deferred.push(promise),
    settle: async () => {
      for (let i = 0; i < deferred.length; i++) await deferred[i];
    },
  };
}

/** Each open() is another request (own store, own waitUntil) at its own location, over one KV prefix. */
export function kvHarness(faults: Faults = {}): StoreHarness {
  const network = kvNetwork();
  const prefix = freshPrefix();
  const requests: ReturnType<typeof requestContext>[] = [];
  let opened = 0;
  return {
    open() {
      const request = requestContext();
      requests.push(request);
      const namespace = faultyKv(realKv, network, `location ${opened++}`, faults);
      return createKvStore({ namespace, prefix, waitUntil: request.waitUntil });
    },
    async settle() {
      for (let i = 0; i < requests.length; i++) await requests[i]?.settle();
    },
    writes: () => network.writes,
  };
}

/**
 * Real KV with its expiration (expirationTtl) kept on a fake clock: Miniflare's KV expires keys on the real
 * clock, which a test cannot move an hour ahead.
 */
function kvOnClock(real: KVNamespace, now: () => number, expiries: Map<string, number>): KVNamespace {
  const wrapper = {
    get: async (key: string) => ((expiries.get(key) ?? Number.POSITIVE_INFINITY) <= now() ? null : real.get(key)),
    async put(key: string, value: string, options?: KVNamespacePutOptions) {
      if (options?.expirationTtl === undefined) expiries.delete(key);
      else expiries.set(key, now() + options.expirationTtl * 1000);
      await real.put(key, value, options);
    },
    delete: (key: string) => real.delete(key),
    list: (options?: KVNamespaceListOptions) => real.list(options),
  };
  return wrapper as unknown as KVNamespace;
}

/** KV stores over one prefix, each another request, writing inline, whose sessions expire on a given clock. */
export function expiringKvHarness(): ExpiringHarness {
  const prefix = freshPrefix();
  const expiries = new Map<string, number>();
  return {
    open: (ttlSeconds, now) => createKvStore({ namespace: kvOnClock(realKv, now, expiries), prefix, ttlSeconds }),
  };
}

/** The object's storage with its writes counted (native methods keep their own receiver). */
function counted(storage: DurableObjectStorage, count: () => void): DurableObjectStorage {
  const wrap = <T extends object>(target: T, writers: string[]): T =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object);
        if (typeof value !== 'function') return value;
        if (writers.includes(String(property))) {
          return (...args: unknown[]) => {
            count();
            return value.apply(object, args);
          };
        }
        return value.bind(object);
      },
    });
  const kv = (() => {
    try {
      return wrap(storage.kv, ['put', 'delete']);
    } catch {
      return undefined;
    }
  })();
  const wrapped = wrap(storage, ['put', 'delete', 'deleteAll']);
  return new Proxy(wrapped, { get: (object, property) => (property === 'kv' ? kv : Reflect.get(object, property)) });
}

/** The store's shared space; the conformance suite asserts every store has one. */
const sharedOf = (store: DiscoveredStore): SharedSpace => {
  if (!store.shared) throw new Error(`store "${store.name}" has no shared space`);
  return store.shared;
};

/** Each call runs as its own request to one object, with a fresh store over the object's storage. */
export function durableObjectHarness(host: Host): StoreHarness {
  let writes = 0;
  const over = storesIn(host, () => writes++);
  return { open: () => over({}), writes: () => writes };
}

/** As durableObjectHarness, with stores that expire sessions on a given clock. */
export function expiringDurableObjectHarness(host: Host): ExpiringHarness {
  const over = storesIn(host, () => {});
  return { open: (ttlSeconds, now) => over({ ttlSeconds, now }) };
}

/** Stores whose every call runs as its own request to the object, with the given options and writes counted. */
function storesIn(host: Host, count: () => void) {
  const id = bindings[host].idFromName(crypto.randomUUID());
  let stub = bindings[host].get(id);
  // The same object through a new stub from the current copy of the bindings: a restarted object refuses the old.
  const renew = async () => {
    const test = await import('cloudflare:test');
    return (test.env as unknown as Record<Host, DurableObjectNamespace>)[host].get(id);
  };
  return (options: Partial<DurableObjectStoreOptions>): DiscoveredStore => {
    const run = async <T>(body: (store: DiscoveredStore) => Promise<T>) => {
      // The current copy of cloudflare:test: a test that reloads the modules (a cold isolate) gets a new one.
      const test = await import('cloudflare:test');
      return test.runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) =>
        body(createDurableObjectStore({ ...options, storage: counted(state.storage, count) })),
      );
    };
    // Reloading the modules restarts the object, as a deployment does: its first call after that is refused with
    // "retry", and its storage is all still there.
    const inObject = async <T>(body: (store: DiscoveredStore) => Promise<T>): Promise<T> => {
      try {
        return await run(body);
      } catch (error) {
        if (!String(error).includes('invalidating this Durable Object')) throw error;
        stub = await renew();
        return run(body);
      }
    };
    return {
      name: 'durable-object',
      get: (id) => inObject((store) => store.get(id)),
      update: (id, apply) => inObject((store) => store.update(id, apply)),
      delete: (id) => inObject((store) => store.delete(id)),
      clear: () => inObject((store) => store.clear()),
      shared: {
        get: (key) => inObject((store) => sharedOf(store).get(key)),
        update: (key, apply) => inObject((store) => sharedOf(store).update(key, apply)),
        delete: (key) => inObject((store) => sharedOf(store).delete(key)),
      },
    };
  };
}
