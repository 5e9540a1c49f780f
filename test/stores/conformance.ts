// One conformance suite for every DiscoveredStore: memory, IndexedDB, Cloudflare KV, Durable Objects.
// Each backend calls storeConformance from its own test file, in its own runtime, with a harness over
// fresh backend data. Everything goes through the public API: the store's methods and createToolSearch.
import { createToolSearch, type DiscoveredStore, type Logger, type Tool } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { storeTools } from './catalogue.ts';
import { learnCallsConformance, learnConformance } from './learn-conformance.ts';
import { sharedConformance } from './shared-conformance.ts';
import { vectorConformance } from './vector-conformance.ts';

/** Opens stores over one backend's data, as another request, tab or isolate would. */
export interface StoreHarness {
  /** A new store instance over the same backend data. */
  open(): DiscoveredStore | Promise<DiscoveredStore>;
  /** Waits until writes the store deferred (KV's waitUntil) have landed. */
  settle?(): Promise<void>;
  /** Writes that reached the backend so far. */
  writes?(): number;
}

const tools = storeTools;

const hostileIds = ['../x', 'a:b', '', 'x'.repeat(10_240), '__proto__', '\0', 'tsl:', 'tsl:epoch', 'constructor'];

function quietLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (message) => void lines.push(message) };
}

/** A layer over a store that must not fall back to memory: any warning fails the test. */
function layerOver(store: DiscoveredStore, logger = quietLogger()) {
  return { layer: createToolSearch({ store, logger, storeTimeoutMs: 10_000 }), logger };
}

async function discoveredIn(store: DiscoveredStore, sessionId: string): Promise<string[]> {
  const { layer, logger } = layerOver(store);
  const { discovered } = await layer.prepare({ sessionId, tools });
  expect(logger.lines).toEqual([]);
  return discovered;
}

/**
 * Registers the conformance tests for one store; `make` gives a harness over fresh backend data per test. A runtime
 * that cannot load a second copy of the library (a browser page) passes `coldIsolates: false` and tests the tool
 * vectors with Workers itself.
 */
export function storeConformance(
  label: string,
  make: () => StoreHarness | Promise<StoreHarness>,
  { coldIsolates = true }: { coldIsolates?: boolean } = {},
): void {
  describe(`store conformance: ${label}`, () => {
    it('reads a session never written as empty', async () => {
      const harness = await make();
      const store = await harness.open();
      expect(await store.get('nobody')).toBeUndefined();
      expect(await discoveredIn(store, 'nobody')).toEqual([]);
      expect(typeof store.name).toBe('string');
    });

    it('keeps a discovered set across store instances (a round trip)', async () => {
      const harness = await make();
      const { layer, logger } = layerOver(await harness.open());
      await layer.search({ sessionId: 's', tools }, { query: 'weather forecast', limit: 2 });
      await layer.search({ sessionId: 's', tools }, { query: 'email', limit: 1 });
      await harness.settle?.();
      expect(logger.lines).toEqual([]);
      expect(await discoveredIn(await harness.open(), 's')).toEqual(['get_weather', 'get_forecast', 'send_email']);
    });

    it('writes nothing for an update that changes nothing', async () => {
      const harness = await make();
      const store = await harness.open();
      const { layer } = layerOver(store);
      await layer.search({ sessionId: 's', tools }, { query: 'email', limit: 1 });
      await harness.settle?.();
      const before = harness.writes?.();
      const value = await store.get('s');
      // The layer's own no-op rounds, and a direct no-op update.
      await layer.prepare({ sessionId: 's', tools });
      await layer.prepare({ sessionId: 's', tools, messages: [] });
      const after = await store.update('s', (current) => current);
      await harness.settle?.();
      expect(after).toEqual(value);
      if (harness.writes) expect(harness.writes()).toBe(before);
      else expect(await store.get('s')).toBe(value); // memory: the very same object, nothing rewritten
    });

    it('loses nothing when two writers discover different tools in one session at the same moment', async () => {
      const harness = await make();
      const [one, two] = [layerOver(await harness.open()), layerOver(await harness.open())];
      await Promise.all([
        one.layer.search({ sessionId: 's', tools }, { query: 'email', limit: 1 }),
        two.layer.search({ sessionId: 's', tools }, { query: 'currency', limit: 1 }),
      ]);
      await Promise.all([
        one.layer.search({ sessionId: 's', tools }, { query: 'translate', limit: 1 }),
        two.layer.search({ sessionId: 's', tools }, { query: 'forecast', limit: 1 }),
      ]);
      await harness.settle?.();
      expect(one.logger.lines).toEqual([]);
      expect(two.logger.lines).toEqual([]);
      const found = await discoveredIn(await harness.open(), 's');
      expect([...found].sort()).toEqual(['convert_currency', 'get_forecast', 'send_email', 'translate_text']);
    });

    it('deletes one session and leaves the others', async () => {
      const harness = await make();
      const store = await harness.open();
      const { layer } = layerOver(store);
      await layer.search({ sessionId: 'a', tools }, { query: 'email', limit: 1 });
      await layer.search({ sessionId: 'b', tools }, { query: 'weather', limit: 1 });
      await harness.settle?.();
      await layer.clear('a');
      await harness.settle?.();
      const fresh = await harness.open();
      expect(await discoveredIn(fresh, 'a')).toEqual([]);
      expect(await discoveredIn(fresh, 'b')).toEqual(['get_weather']);
    });

    it('clears every session', async () => {
      const harness = await make();
      const { layer } = layerOver(await harness.open());
      for (const id of ['a', 'b', 'c']) await layer.search({ sessionId: id, tools }, { query: 'event', limit: 1 });
      await harness.settle?.();
      await layer.clear();
      await harness.settle?.();
      const fresh = await harness.open();
      for (const id of ['a', 'b', 'c']) expect(await discoveredIn(fresh, id)).toEqual([]);
      // The store still works after a clear.
      const again = layerOver(fresh).layer;
      await again.search({ sessionId: 'a', tools }, { query: 'translate', limit: 1 });
      await harness.settle?.();
      expect(await discoveredIn(await harness.open(), 'a')).toEqual(['translate_text']);
    });

    it('keeps hostile session ids apart from each other', async () => {
      const harness = await make();
      const { layer, logger } = layerOver(await harness.open());
      // Each id discovers a different tool (cycling through the catalogue).
      for (const [i, id] of hostileIds.entries()) {
        await layer.search({ sessionId: id, tools }, { query: (tools[i % tools.length] as Tool).name, limit: 1 });
      }
      await harness.settle?.();
      expect(logger.lines).toEqual([]);
      const fresh = await harness.open();
      for (const [i, id] of hostileIds.entries()) {
        expect(await discoveredIn(fresh, id)).toEqual([(tools[i % tools.length] as Tool).name]);
      }
      await layerOver(fresh).layer.clear('../x');
      await harness.settle?.();
      const after = await harness.open();
      expect(await discoveredIn(after, '../x')).toEqual([]);
      expect(await discoveredIn(after, 'x')).toEqual([]);
      expect(await discoveredIn(after, 'a:b')).toEqual([(tools[1] as Tool).name]);
      expect(await discoveredIn(after, '')).toEqual([(tools[2] as Tool).name]);
    });

    it('reads a value of an unknown format version as empty, with one warning naming the version', async () => {
      const harness = await make();
      const store = await harness.open();
      await store.update('s', () => ({ v: 99, tools: { send_email: 1 } }));
      await harness.settle?.();
      const logger = quietLogger();
      const layer = createToolSearch({ store: await harness.open(), logger, storeTimeoutMs: 10_000 });
      const first = await layer.prepare({ sessionId: 's', tools });
      expect(first.discovered).toEqual([]);
      expect(first.warnings).toHaveLength(1);
      expect(first.warnings[0]).toMatch(/format version 99/);
      const again = await layer.prepare({ sessionId: 's', tools });
      expect(again.warnings).toEqual([]);
      // The round goes on: a discovery replaces the unreadable value with one this release reads.
      await layer.search({ sessionId: 's', tools }, { query: 'weather', limit: 1 });
      await harness.settle?.();
      expect(await discoveredIn(await harness.open(), 's')).toEqual(['get_weather']);
      expect(logger.lines).toHaveLength(1);
    });

    describe('the shared space', () => sharedConformance(make, hostileIds, tools));
    describe('learning', () => {
      learnConformance(make, tools);
      learnCallsConformance(make, tools);
    });
    if (coldIsolates) describe('tool vectors', () => vectorConformance(make, tools));
  });
}
