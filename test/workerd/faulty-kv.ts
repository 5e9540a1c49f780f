// A fault-injecting wrapper around a real KV binding, for the failures production KV shows and a
// local one does not: stale reads across locations, the one-write-per-key-per-second limit (429),
// failing and hanging calls. Every value still lives in the real binding; the wrapper only decides
// what one "location" sees and when a call fails.
import type { DiscoveredStore, SharedSpace } from 'tool-search-layer';
import { createKvStore } from 'tool-search-layer/cloudflare-kv';

/** The writes every location made, per key, in order; shared by the wrappers of one test. */
export interface KvNetwork {
  readonly log: Map<string, { value: string | null; at: number; location: string }[]>;
  /** Writes that reached the real binding. */
  writes: number;
}

export interface Faults {
  /** How long another location's write stays invisible here, in ms. 0 = at once. */
  visibilityMs?: number;
  /** Answer 429 to a put within a second of the key's previous put, as KV does. Default true. */
  rateLimit?: boolean;
  /** 'fail': every call throws a 429; 'hang': every call never settles. Default 'ok'. */
  mode?: 'ok' | 'fail' | 'hang';
  /** The next this many puts answer 429 (counted down). */
  failPuts?: number;
}

export function kvNetwork(): KvNetwork {
  return { log: new Map(), writes: 0 };
}

const tooMany = () => new Error('KV PUT failed: 429 Too Many Requests');

/** One location's view of a real namespace, with the given faults (mutable, to switch them mid-test). */
export function faultyKv(real: KVNamespace, network: KvNetwork, location: string, faults: Faults = {}): KVNamespace {
  const gate = async () => {
    if (faults.mode === 'hang') await new Promise(() => {});
    if (faults.mode === 'fail') throw tooMany();
  };
  const record = (key: string, value: string | null) => {
    const entries = network.log.get(key) ?? [];
    entries.push({ value, at: Date.now(), location });
    network.log.set(key, entries);
  };
  const wrapper = {
    async get(key: string) {
      await gate();
      const entries = network.log.get(key) ?? [];
      const newest = entries.at(-1);
      const horizon = Date.now() - (faults.visibilityMs ?? 0);
      const seen = entries.findLast((entry) => entry.location === location || entry.at <= horizon);
      // This location still has an older value (or none) cached: serve it instead of the newest.
      if (newest && seen !== newest) return seen ? seen.value : null;
      return real.get(key);
    },
    async put(key: string, value: string, options?: KVNamespacePutOptions) {
      await gate();
      const last = network.log.get(key)?.at(-1);
      if ((faults.rateLimit ?? true) && last && Date.now() - last.at < 1000) throw tooMany();
      if (faults.failPuts) {
        faults.failPuts--;
        throw tooMany();
      }
      record(key, value);
      network.writes++;
      await real.put(key, value, options);
    },
    async delete(key: string) {
      await gate();
      record(key, null);
      await real.delete(key);
    },
    async list(options?: KVNamespaceListOptions) {
      await gate();
      return real.list(options);
    },
  };
  return wrapper as unknown as KVNamespace;
}

/** A request's deferred work, as ctx.waitUntil collects it. */
function deferred() {
  const promises: Promise<unknown>[] = [];
  return {
    waitUntil: (promise: Promise<unknown>) => void promises.push(promise),
    settle: async () => {
      for (let i = 0; i < promises.length; i++) await promises[i];
    },
  };
}

const append = (name: string) => (current: unknown) => {
  const names = (current as string[] | undefined) ?? [];
  return names.includes(name) ? current : [...names, name];
};
// Credits as the layer's learning keeps them in the shared space: a change adds, so it can be lost or doubled.
const credit = (name: string) => (current: unknown) => {
  const credits = (current as Record<string, number> | undefined) ?? {};
  return { ...credits, [name]: (credits[name] ?? 0) + 1 };
};

/** Where a race writes: one session (its discoveries, a set) or one shared value (additive credits). */
export type RaceSpace = 'session' | 'shared';

/** Times a name is held by a final value: once or not at all in a session's list, any count in credits. */
function held(space: RaceSpace, value: unknown, name: string): number {
  if (space === 'session') return (value as string[]).includes(name) ? 1 : 0;
  return (value as Record<string, number>)[name] ?? 0;
}

/**
 * Two writers in two locations add one change each to a value both already hold; what is left? `lost` counts the
 * changes missing, `doubled` those applied twice (only additive shared values can show it).
 */
export async function race(
  real: KVNamespace,
  network: KvNetwork,
  faults: Faults,
  staggerMs: number,
  space: RaceSpace = 'session',
): Promise<{ lost: number; doubled: number }> {
  const prefix = `race${crypto.randomUUID().slice(0, 8)}:`;
  const change = space === 'session' ? append : credit;
  const at = (store: DiscoveredStore) => (space === 'session' ? store : (store.shared as SharedSpace));
  const seed = createKvStore({ namespace: faultyKv(real, network, 'a', { visibilityMs: 0 }), prefix });
  await at(seed).update('s', change('base'));
  // Past the write limit and the visibility delay of the seed write.
  await new Promise((r) => setTimeout(r, 1000 + (faults.visibilityMs ?? 0)));
  const writers = ['a', 'b'].map(async (location, i) => {
    if (i === 1) await new Promise((r) => setTimeout(r, staggerMs));
    const request = deferred();
    const namespace = faultyKv(real, network, location, faults);
    const store = at(createKvStore({ namespace, prefix, waitUntil: request.waitUntil }));
    await store.get('s');
    await store.update('s', change(`from ${location}`));
    await request.settle();
  });
  await Promise.all(writers);
  const final = await at(createKvStore({ namespace: real, prefix })).get('s');
  const counts = ['base', 'from a', 'from b'].map((name) => held(space, final, name));
  return { lost: counts.filter((n) => n === 0).length, doubled: counts.filter((n) => n > 1).length };
}
