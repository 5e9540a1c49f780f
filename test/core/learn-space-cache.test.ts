// The values read lately, shared by the layers of one storage: a layer built within the window of another's reads
// (a Worker's next request) reads nothing from the store for its first search, and ranks as a layer alone; other
// storages share nothing, a clear or forgetLearned through one layer reaches the others, and a store without
// identity keeps a cache of its layer's own.
import { createMemoryStore, createToolSearch, type DiscoveredStore, type ToolSearch } from 'tool-search-layer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogue, names } from './fixtures.ts';
import { asked, taught, turn, unshared } from './learn-share-fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };

const layerOn = (store: DiscoveredStore, learn: object = {}) => createToolSearch({ learn, store, logger: quiet });

async function feed(layer: ToolSearch, prefix = 'feed'): Promise<void> {
  for (const [i, [query, called]] of taught.entries())
    await layer.prepare({ sessionId: `${prefix}-${i}`, tools, messages: turn(query, called) });
  await layer.flush();
}

const rankings = (layer: ToolSearch): Promise<string[][]> =>
  Promise.all(
    asked.map(async (query) => {
      const result = await layer.search({ sessionId: 'ask', tools }, { query });
      if ('error' in result) throw new Error(String(result.error));
      return names(result.tools);
    }),
  );

/** The store with its shared space's reads counted (its identity, if any, kept). */
function counted(base: DiscoveredStore) {
  const space = base.shared as NonNullable<DiscoveredStore['shared']>;
  const reads = { n: 0 };
  const store: DiscoveredStore = {
    ...base,
    shared: {
      ...space,
      get: (key) => {
        reads.n++;
        return space.get(key);
      },
    },
  };
  return { store, reads };
}

describe('the values read lately, shared by the layers of one storage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives a new layer its first search without a read, ranked as a layer alone', async () => {
    const store = createMemoryStore();
    await feed(layerOn(store));
    // A layer alone (no identity: a cache of its own) reads the store, and sets the ranking to match.
    const alone = counted(unshared(store));
    const own = await rankings(layerOn(alone.store));
    expect(own[0]).toEqual(['get_forecast']);
    expect(alone.reads.n).toBeGreaterThan(0);
    const warm = counted(store);
    await rankings(layerOn(warm.store));
    // The next layer of the storage, within the window: no read at all.
    const next = counted(store);
    expect(await rankings(layerOn(next.store))).toEqual(own);
    expect(next.reads.n).toBe(0);
    // Past the window, it reads again.
    vi.setSystemTime(Date.now() + 5_001);
    const later = counted(store);
    expect(await rankings(layerOn(later.store))).toEqual(own);
    expect(later.reads.n).toBeGreaterThan(0);
  });

  it("keeps the values of 60 tenants' searches: a layer per request reads none again within the window", async () => {
    // A Worker serving many tenants, a scope each, a layer per request: each first search reads about 24 values here
    // (40 at seal-tools' size), 1,440 in all: more than the 1,024 an isolate kept before.
    const store = createMemoryStore({ maxShared: 100_000 });
    const tenants = Array.from({ length: 60 }, (_, i) => `tenant-${i}`);
    for (const scope of tenants) await feed(layerOn(store, { scope }), scope);
    vi.setSystemTime(Date.now() + 5_001);
    const first = counted(store);
    const ranked = new Map<string, string[][]>();
    for (const scope of tenants) ranked.set(scope, await rankings(layerOn(first.store, { scope })));
    expect(first.reads.n).toBeGreaterThan(1_024);
    expect(ranked.get('tenant-0')?.[0]).toEqual(['get_forecast']);
    // Each tenant's next request, within the window: no read at all, and the same ranking.
    const next = counted(store);
    for (const scope of tenants) expect(await rankings(layerOn(next.store, { scope }))).toEqual(ranked.get(scope));
    expect(next.reads.n).toBe(0);
  });

  it('shares nothing with another store, nor with a store that gives no identity', async () => {
    const store = createMemoryStore();
    await feed(layerOn(store));
    await rankings(layerOn(store));
    const other = counted(createMemoryStore());
    const unlearned = await rankings(createToolSearch({ store: createMemoryStore(), logger: quiet }));
    expect(await rankings(layerOn(other.store))).toEqual(unlearned);
    expect(other.reads.n).toBeGreaterThan(0);
    // A custom store without identity over the same values: its layer reads them itself, as before.
    const custom = counted(unshared(store));
    const customRanked = await rankings(layerOn(custom.store));
    expect(custom.reads.n).toBeGreaterThan(0);
    expect(customRanked).toEqual(await rankings(layerOn(store)));
    // Layers of another half-life keep their values apart (what a search derives from a value is kept by it).
    const halfLife = counted(store);
    await rankings(layerOn(halfLife.store, { halfLife: 50 }));
    expect(halfLife.reads.n).toBeGreaterThan(0);
  });

  it('answers nothing from cleared values: a clear or forgetLearned through one layer makes the others read again', async () => {
    for (const how of ['clear', 'forgetLearned'] as const) {
      const store = createMemoryStore();
      const clearer = layerOn(store);
      await feed(clearer);
      const reader = layerOn(store);
      expect((await rankings(reader))[0]).toEqual(['get_forecast']);
      const unlearned = await rankings(createToolSearch({ store: createMemoryStore(), logger: quiet }));
      if (how === 'clear') await clearer.clear();
      else await clearer.forgetLearned();
      // Within the window still: the reader reads the emptied store, and ranks as a layer that learned nothing.
      const fresh = counted(store);
      expect(await rankings(layerOn(fresh.store))).toEqual(unlearned);
      expect(fresh.reads.n).toBeGreaterThan(0);
      expect(await rankings(reader)).toEqual(unlearned);
    }
  });

  it('ranks by the table as a commit between two searches of one layer left it, and another cache’s once the window passed', async () => {
    // The table alone: its clock and shards, which a layer keeps from one search to the next while they stand.
    const learn = { memoryWeight: 0, setWeight: 0 };
    const store = createMemoryStore();
    const layer = layerOn(store, learn);
    const unlearned = await rankings(layer);
    expect(unlearned[0]).not.toEqual(['get_forecast']);
    // Searched again, with everything read: the layer answers from what it kept.
    expect(await rankings(layer)).toEqual(unlearned);
    await feed(layer);
    expect((await rankings(layer))[0]).toEqual(['get_forecast']);
    // Another cache's layer (no identity) reads the store before the commit: within the window it keeps what it read,
    // and once it passed it reads what the commit left.
    const other = createMemoryStore();
    const reader = layerOn(unshared(other), learn);
    expect(await rankings(reader)).toEqual(unlearned);
    expect(await rankings(reader)).toEqual(unlearned);
    await feed(layerOn(unshared(other), learn));
    expect(await rankings(reader)).toEqual(unlearned);
    vi.setSystemTime(Date.now() + 5_001);
    expect((await rankings(reader))[0]).toEqual(['get_forecast']);
  });

  it('reads each value once for layers whose first searches run at once', async () => {
    const store = createMemoryStore();
    await feed(layerOn(store));
    vi.setSystemTime(Date.now() + 5_001);
    const alone = counted(unshared(store));
    const own = await rankings(layerOn(alone.store));
    vi.setSystemTime(Date.now() + 5_001);
    // Four requests' layers at once: together they read what one layer alone reads, and each ranks as it does.
    const together = counted(store);
    const ranked = await Promise.all(Array.from({ length: 4 }, () => rankings(layerOn(together.store))));
    for (const each of ranked) expect(each).toEqual(own);
    expect(together.reads.n).toBe(alone.reads.n);
    // The same with the isolate's index held (the pages being filled read alongside the heads): four at once read
    // what one reads.
    vi.setSystemTime(Date.now() + 5_001);
    const one = counted(store);
    expect(await rankings(layerOn(one.store))).toEqual(own);
    vi.setSystemTime(Date.now() + 5_001);
    const four = counted(store);
    for (const each of await Promise.all(Array.from({ length: 4 }, () => rankings(layerOn(four.store)))))
      expect(each).toEqual(own);
    expect(four.reads.n).toBe(one.reads.n);
  });

  it('keeps a bounded number of values per storage, the oldest going first', async () => {
    const store = createMemoryStore();
    const search = (scope: string) =>
      layerOn(store, { scope }).search({ sessionId: 'ask', tools }, { query: 'umbrella tomorrow lisbon' });
    // Each scope's first search reads its clock, a shard per term, and its memory's heads and pages: 1,200 scopes read
    // more values than the isolate keeps for one storage (16,384), all within the window (the clock stands still).
    for (let i = 0; i < 1_200; i++) await search(`s${i}`);
    const last = counted(store);
    await layerOn(last.store, { scope: 's1199' }).search(
      { sessionId: 'ask', tools },
      { query: 'umbrella tomorrow lisbon' },
    );
    expect(last.reads.n).toBe(0);
    const first = counted(store);
    await layerOn(first.store, { scope: 's0' }).search(
      { sessionId: 'ask', tools },
      { query: 'umbrella tomorrow lisbon' },
    );
    expect(first.reads.n).toBeGreaterThan(0);
  }, 30_000);

  it('drops only the forgotten scope’s values', async () => {
    const store = createMemoryStore();
    const a = layerOn(store, { scope: 'a' });
    await feed(a);
    await feed(layerOn(store, { scope: 'b' }), 'b');
    await rankings(layerOn(store, { scope: 'b' }));
    await a.forgetLearned('a');
    // Scope b's values are still the isolate's: its next layer reads nothing.
    const b = counted(store);
    expect((await rankings(layerOn(b.store, { scope: 'b' })))[0]).toEqual(['get_forecast']);
    expect(b.reads.n).toBe(0);
    // Scope a's are gone: its next layer reads the store.
    const readA = counted(store);
    await rankings(layerOn(readA.store, { scope: 'a' }));
    expect(readA.reads.n).toBeGreaterThan(0);
  });
});
