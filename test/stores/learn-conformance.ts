// Learning (the `learn` option) over every store: credits live in the store's shared space, so a fresh layer over a
// fresh store instance (another request, tab or isolate) orders its searches by what the sessions taught.
import { createToolSearch, type DiscoveredStore, type Message, type Tool } from 'tool-search-layer';
import { expect, it } from 'vitest';
import type { StoreHarness } from './conformance.ts';

/** A turn as a host's history holds it: the request, a search with its result, then the tool called with a result. */
export function learnTurn(query: string, tool: string, id = ''): Message[] {
  return [
    { role: 'user', content: query },
    { role: 'assistant', toolCalls: [{ id: `s${id}`, name: 'search_tools', arguments: JSON.stringify({ query }) }] },
    { role: 'tool', toolCallId: `s${id}`, content: '{"found":0,"tools":[],"related":[],"hint":""}' },
    { role: 'assistant', toolCalls: [{ id: `c${id}`, name: tool, arguments: '{}' }] },
    { role: 'tool', toolCallId: `c${id}`, content: '{"ok":true}' },
  ];
}

const layerOver = (store: DiscoveredStore, learn: object | true = true) =>
  createToolSearch({ store, learn, storeTimeoutMs: 10_000, logger: { warn: (m) => expect.fail(m) } });

/** Registers the learning conformance tests, in the caller's describe. */
export function learnConformance(make: () => StoreHarness | Promise<StoreHarness>, tools: readonly Tool[]): void {
  const top = async (store: DiscoveredStore, query: string) => {
    const result = (await layerOver(store).search({ sessionId: 'ask', tools }, { query })) as unknown as {
      tools: readonly Tool[];
    };
    return result.tools.map((tool) => tool.name);
  };

  it('keeps learned credits across store instances, orders a fresh layer’s search by them, and forgets them', async () => {
    const harness = await make();
    expect(await top(await harness.open(), 'umbrella')).toEqual([]);
    for (let i = 0; i < 3; i++) {
      // A layer per request, as a Worker makes them: flush() waits for the credit its round wrote in the background.
      const layer = layerOver(await harness.open());
      await layer.prepare({ sessionId: `s${i}`, tools, messages: learnTurn('umbrella', 'get_forecast') });
      await layer.flush();
      await harness.settle?.();
    }
    expect(await top(await harness.open(), 'umbrella')).toEqual(['get_forecast']);
    const learned = await layerOver(await harness.open()).inspectLearned();
    expect(learned).toEqual([{ tool: 'get_forecast', term: 'umbrella', credit: 3, sessions: 3 }]);
    // A replayed history adds nothing, from any instance.
    const again = layerOver(await harness.open());
    await again.prepare({ sessionId: 's0', tools, messages: learnTurn('umbrella', 'get_forecast') });
    await again.flush();
    await harness.settle?.();
    expect((await layerOver(await harness.open()).inspectLearned())[0]?.credit).toBe(3);
    await layerOver(await harness.open()).forgetLearned();
    await harness.settle?.();
    expect(await top(await harness.open(), 'umbrella')).toEqual([]);
    // KV paces its writes a second apart per key, and reads each back a second later.
  }, 20_000);

  it('keeps a table at its byte bound within the shared space’s value limit', async () => {
    const harness = await make();
    // 18 sessions of four searches, 32 new words each: 2,304 (tool, term) pairs, more than the bound keeps.
    const many: Tool[] = Array.from({ length: 72 }, (_, i) => ({ name: `tool_number_${i}`, description: `tool ${i}` }));
    const layer = layerOver(await harness.open(), { maxBytes: 100_000 });
    for (let i = 0; i < 18; i++) {
      const messages = [0, 1, 2, 3].flatMap((j) => {
        const words = Array.from({ length: 32 }, (_, k) => `word${i}x${j}x${k}`).join(' ');
        return learnTurn(words, `tool_number_${i * 4 + j}`, `${j}`);
      });
      await layer.prepare({ sessionId: `b${i}`, tools: many, messages });
    }
    await layer.flush();
    await harness.settle?.();
    const fresh = layerOver(await harness.open(), { maxBytes: 100_000 });
    const learned = await fresh.inspectLearned();
    expect(learned.length).toBeGreaterThan(1000);
    expect(learned.length).toBeLessThan(18 * 4 * 32);
    // The newest credit is kept; the oldest went to make room.
    expect(learned.some((c) => c.tool === 'tool_number_71')).toBe(true);
    expect(learned.some((c) => c.tool === 'tool_number_0')).toBe(false);
    // 18 merged writes per store, and KV paces each key's writes a second apart: seconds on a busy machine.
  }, 20_000);
}

/** The store with its session methods counted as the layer calls them (a method it lacks stays absent). */
export function countingSessions(store: DiscoveredStore): { store: DiscoveredStore; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        calls[property] = (calls[property] ?? 0) + 1;
        return value.apply(target, args);
      };
    },
  });
  return { store: counted, calls };
}

/** Registers the check that a search with learning makes no store call more than its session's update needs. */
export function learnCallsConformance(make: () => StoreHarness | Promise<StoreHarness>, tools: readonly Tool[]): void {
  it('gives a search with learning one session call, its update, and a read ahead only to a store that offers one', async () => {
    const harness = await make();
    const opened = await harness.open();
    const { store, calls } = countingSessions(opened);
    const layer = layerOver(store);
    await layer.search({ sessionId: 'ask', tools }, { query: 'weather forecast' });
    // A store whose update is one call (memory, IndexedDB, a Durable Object) is asked nothing more than it was
    // before the hint existed; KV, whose update opens with a read, is told the update is coming.
    expect(calls).toEqual(opened.prefetch ? { prefetch: 1, update: 1 } : { update: 1 });
    await layer.flush();
    await harness.settle?.();
  });
}
