// The memory of past requests, indexed once per isolate: layers whose stores are the same storage (the same memory
// store, or stores that give one storage identity) share the index, re-reading the pages but indexing again only
// those whose content changed; a clear or forgetLearned through any layer reaches the others once they read again.
import { createMemoryStore, createToolSearch, type DiscoveredStore, type ToolSearch } from 'tool-search-layer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogue, names, ok } from './fixtures.ts';
import { asked, swapped, taught, turn, unshared } from './learn-share-fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
// The table off: only the memory of past requests (and its tool sets) speaks.
const memoryOnly = { weight: 0 };

async function feed(layer: ToolSearch, prefix = 'feed'): Promise<void> {
  for (const [i, [query, called]] of taught.entries())
    await layer.prepare({ sessionId: `${prefix}-${i}`, tools, messages: turn(query, called) });
  await layer.flush();
}

const rankings = async (layer: ToolSearch): Promise<string[][]> =>
  Promise.all(asked.map(async (query) => names(ok(await layer.search({ sessionId: 'ask', tools }, { query })).tools)));

const layerOn = (store: DiscoveredStore, learn: object = memoryOnly) =>
  createToolSearch({ learn, store, logger: quiet });

/** Moves the clock past the window in which layers of one storage answer from the values read lately. */
const afterWindow = () => vi.setSystemTime(Date.now() + 5_001);

describe('a memory index shared by the layers of one storage', () => {
  // The layers of one storage also share the values read lately: a test whose layer must read the store itself waits
  // out that window on a faked clock.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives a new layer the ranking of one that built its own, without indexing the pages again', async () => {
    const store = createMemoryStore();
    await feed(layerOn(store));
    const first = await rankings(layerOn(store));
    expect(first[0]).toEqual(['get_forecast']);
    // A layer that builds its own index from the same pages ranks the same.
    expect(await rankings(layerOn(unshared(store)))).toEqual(first);
    // Served pages whose tool names were swapped behind the same tags: a layer indexing them (no identity) follows
    // the swap; a layer sharing the built index (same identity) reads them, trusts their tags, and does not.
    expect((await rankings(layerOn(swapped(store, false))))[0]).toEqual(['calculator']);
    afterWindow();
    expect(await rankings(layerOn(swapped(store, true)))).toEqual(first);
  });

  it('indexes again a page that changed, and only for the scope, store and settings it belongs to', async () => {
    const store = createMemoryStore();
    await feed(layerOn(store));
    await rankings(layerOn(store));
    // A page that grew (new content, same tag) is read and indexed again: the swap shows through. Fed by a layer
    // without the storage's identity: one with it brings the isolate's index to the pages it writes as it writes them.
    await feed(layerOn(unshared(store)), 'again');
    afterWindow();
    expect((await rankings(layerOn(swapped(store, true)))).flat()).toContain('calculator');
    // Another scope, another store, other settings: nothing is shared.
    const unlearned = await rankings(createToolSearch({ store: createMemoryStore(), logger: quiet }));
    expect(await rankings(layerOn(store, { ...memoryOnly, scope: 'other' }))).toEqual(unlearned);
    expect(await rankings(layerOn(createMemoryStore()))).toEqual(unlearned);
    // The same store and scope without the tool sets: an index of its own, built from the pages as served.
    const sets = await rankings(layerOn(store));
    const noSets = { ...memoryOnly, setWeight: 0 };
    afterWindow();
    expect((await rankings(layerOn(swapped(store, true), noSets)))[0]).toEqual(['calculator']);
    expect(await rankings(layerOn(store))).toEqual(sets);
  });

  it('reads only the heads and the pages being filled when the isolate holds the closed pages', async () => {
    const store = createMemoryStore();
    const small = { ...memoryOnly, memoryBytes: 16_000 };
    const writer = layerOn(store, small);
    await feed(writer);
    for (let i = 0; i < 300; i++)
      await writer.prepare({
        sessionId: `more-${i}`,
        tools,
        messages: turn(`umbrella tomorrow lisbon ${i}`, ['get_forecast']),
      });
    await writer.flush();
    // The writer brought the isolate's index to its last write. A page that write closed was read while its lane was
    // filling it, and the next reading reads it once more, closed: one past the window, before the counts below.
    afterWindow();
    await rankings(layerOn(store, small));
    /** The store with its reads of memory pages counted. */
    const counted = (base: DiscoveredStore) => {
      const space = base.shared as NonNullable<DiscoveredStore['shared']>;
      const reads = { pages: 0 };
      const store: DiscoveredStore = {
        ...base,
        shared: {
          ...space,
          get: (key) => {
            if (/:m\d:\d+$/.test(key)) reads.pages++;
            return space.get(key);
          },
        },
      };
      return { store, reads };
    };
    const alone = counted(unshared(store));
    const own = await rankings(layerOn(alone.store, small));
    expect(own[0]).toEqual(['get_forecast']);
    // Two lanes, each filling its last page and holding up to one closed page before it: the layer alone reads them
    // all (its searches at once wait for one reading).
    const heads = await Promise.all([0, 1].map((lane) => store.shared?.get(`learn:default:m${lane}`)));
    const spans = heads.map((head) => {
      const { first = 0, last = 0 } = (head ?? {}) as { first?: number; last?: number };
      return last - first + 1;
    });
    expect(spans.some((pages) => pages > 1)).toBe(true);
    expect(alone.reads.pages).toBe(spans.reduce((sum, pages) => sum + pages, 0));
    expect(await rankings(layerOn(store, small))).toEqual(own);
    // A layer after it, within the window, reads no page: the values read lately are the isolate's.
    const second = counted(store);
    expect(await rankings(layerOn(second.store, small))).toEqual(own);
    expect(second.reads.pages).toBe(0);
    // Past the window, a layer reads the two pages being filled; the closed ones are the isolate's index's already.
    afterWindow();
    const third = counted(store);
    expect(await rankings(layerOn(third.store, small))).toEqual(own);
    expect(third.reads.pages).toBe(2);
  });

  it('keeps the indexes of 256 small scopes per storage, the next evicting the least recently used, which rebuilds from the store', async () => {
    const store = createMemoryStore({ maxSessions: 10_000, maxShared: 100_000 });
    // A scope per tenant, each with a small memory: the isolate keeps them all, up to 256 (src/learn/shared-memory.ts
    // also lets indexes go past the four last used once they hold too many terms in all: test/node/learn-kept.test.ts).
    const scopes = Array.from({ length: 257 }, (_, i) => `tenant-${i}`);
    const of = (scope: string) => ({ ...memoryOnly, scope });
    for (const scope of scopes) await feed(layerOn(store, of(scope)), scope);
    const alone = await rankings(layerOn(unshared(store), of('tenant-0')));
    expect(alone[0]).toEqual(['get_forecast']);
    /**
     * Whether the isolate holds the scope's index: a layer over the store served with swapped tool names (tags kept)
     * ranks as taught only when it trusts an index built before; one rebuilding from the store follows the swap.
     */
    const held = async (scope: string) => {
      afterWindow();
      const ranked = await rankings(layerOn(swapped(store, true), of(scope)));
      // Read from the swapped store: past the window, no later layer answers from those values.
      afterWindow();
      if (ranked[0]?.[0] === 'calculator') return false;
      expect(ranked).toEqual(alone);
      return true;
    };
    // 256 scopes indexed, the first the least recently used; using it again makes the second so.
    for (const scope of scopes.slice(0, 256)) expect(await rankings(layerOn(store, of(scope)))).toEqual(alone);
    expect(await held('tenant-0')).toBe(true);
    // The 257th scope's layer evicts the second: its next layer rebuilds from the store (and evicts the third).
    expect(await rankings(layerOn(store, of('tenant-256')))).toEqual(alone);
    expect(await held('tenant-1')).toBe(false);
    for (const scope of ['tenant-255', 'tenant-0', 'tenant-256', 'tenant-3']) expect(await held(scope)).toBe(true);
    // An evicted scope's next layer ranks exactly like a layer alone, rebuilding its index from the store.
    const rebuilt = await rankings(layerOn(store, of('tenant-2')));
    expect(rebuilt).toEqual(await rankings(layerOn(unshared(store), of('tenant-2'))));
    expect(rebuilt).toEqual(alone);
  }, 60_000);

  it('answers alike when layers of one storage read and index at the same time', async () => {
    const store = createMemoryStore();
    await feed(layerOn(store));
    const alone = await rankings(layerOn(unshared(store)));
    // Four fresh layers' first searches at once: each brings the shared index to what it read, with no await between,
    // so none votes on a half-loaded one.
    const together = await Promise.all(Array.from({ length: 4 }, () => rankings(layerOn(store))));
    for (const ranked of together) expect(ranked).toEqual(alone);
  });

  it('never answers from requests a clear removed once a layer reads again, even when page 0 fills anew', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // Small pages (two lanes of two 4 KB pages), so that a lane closes pages: a layer reads a closed page once.
      const small = { ...memoryOnly, memoryBytes: 16_000 };
      const many = async (layer: ToolSearch, query: string, tool: string) => {
        for (let i = 0; i < 120; i++)
          await layer.prepare({ sessionId: `${query}-${i}`, tools, messages: turn(`${query} ${i}`, [tool]) });
        await layer.flush();
      };
      for (const how of ['clear', 'forgetLearned'] as const) {
        const store = createMemoryStore();
        const clearer = layerOn(store, small);
        await feed(clearer);
        await many(clearer, 'umbrella tomorrow lisbon', 'get_forecast');
        const reader = layerOn(store, small);
        expect((await rankings(reader))[0]).toEqual(['get_forecast']);
        if (how === 'clear') await clearer.clear();
        else await clearer.forgetLearned();
        // New requests refill the lanes from page 0, closing the same page numbers: other words, other tools.
        await many(clearer, 'translate this memo', 'translate_text');
        vi.setSystemTime(Date.now() + 5_001);
        const [umbrella, notes] = await rankings(reader);
        expect([umbrella, notes]).toEqual([[], []]);
        expect(
          names(ok(await reader.search({ sessionId: 'ask', tools }, { query: 'translate memo' })).tools),
        ).toContain('translate_text');
        // A layer built after the clear agrees.
        expect((await rankings(layerOn(store, small))).slice(0, 2)).toEqual([[], []]);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('still reads pages written before tags, each layer indexing them itself', async () => {
    const store = createMemoryStore();
    await feed(layerOn(store));
    const tagged = await rankings(layerOn(store));
    // Pages and heads as the earlier version wrote them: no filling tag, no hash, no run tag.
    for (let lane = 0; lane < 4; lane++) {
      for (const key of [`learn:default:m${lane}`, `learn:default:m${lane}:0`, `learn:default:m${lane}:1`]) {
        await store.shared?.update(key, (value) => {
          if (!value) return value;
          const { f: _f, h: _h, ...old } = value as Record<string, unknown>;
          return old;
        });
      }
    }
    afterWindow();
    expect(await rankings(layerOn(store))).toEqual(tagged);
    afterWindow();
    // Untagged pages are not trusted across layers: the swap shows through.
    expect((await rankings(layerOn(swapped(store, true))))[0]).toEqual(['calculator']);
  });
});
