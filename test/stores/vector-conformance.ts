// The tool vectors' part of the store conformance suite: a layer with a named embedding model keeps its tool
// vectors in the store's shared space, so the layer of a cold isolate (a fresh copy of the library's modules, as a
// new Worker isolate loads them) reads them back and asks the model for the query alone.
import type * as Library from 'tool-search-layer';
import { expect, it, vi } from 'vitest';
import type { StoreHarness } from './conformance.ts';
import { countingModel } from './counting-model.ts';

type Tool = Library.Tool;

/** A fresh copy of the library, as a new isolate loads it: no vector cached in its modules. */
async function coldIsolate(warm?: typeof Library): Promise<typeof Library> {
  vi.resetModules();
  const library = await import('tool-search-layer');
  // Proves the copy is fresh: a runtime that cannot reset modules would pass the tests below without the store.
  if (warm) expect(library.createToolSearch).not.toBe(warm.createToolSearch);
  return library;
}

async function searchOnce(
  library: typeof Library,
  store: Library.DiscoveredStore,
  tools: readonly Tool[],
  model: string,
) {
  const { asked, embed } = countingModel();
  const lines: string[] = [];
  const layer = library.createToolSearch({
    store,
    storeTimeoutMs: 10_000,
    logger: { warn: (line) => void lines.push(line) },
    semantic: { embed, model },
  });
  const result = await layer.search({ sessionId: 's', tools: [...tools] }, { query: 'weather forecast', limit: 3 });
  return { asked, lines, names: (result as Library.SearchResult).tools.map((t) => t.name) };
}

/** Registers the tool vectors' conformance tests, in the caller's describe. */
export function vectorConformance(make: () => StoreHarness | Promise<StoreHarness>, tools: readonly Tool[]): void {
  it('keeps tool vectors in the shared space: a cold isolate embeds the query alone', async () => {
    const harness = await make();
    const model = `model-${crypto.randomUUID()}`;
    const first = await coldIsolate();
    const writer = await searchOnce(first, await harness.open(), tools, model);
    expect(writer.asked.tool).toHaveLength(tools.length);
    expect(writer.lines).toEqual([]);
    await harness.settle?.();

    const reader = await searchOnce(await coldIsolate(first), await harness.open(), tools, model);
    expect(reader.asked).toEqual({ tool: [], query: ['weather forecast'] });
    expect(reader.names).toEqual(writer.names);
    expect(reader.lines).toEqual([]);
  });

  it('re-embeds a changed tool alone, and keeps the vectors of another model apart', async () => {
    const harness = await make();
    const model = `model-${crypto.randomUUID()}`;
    const first = await coldIsolate();
    await searchOnce(first, await harness.open(), tools, model);
    await harness.settle?.();

    const changed = tools.map((tool, i) => (i === 2 ? { ...tool, description: 'the weather at a place, now' } : tool));
    const second = await coldIsolate(first);
    const reader = await searchOnce(second, await harness.open(), changed, model);
    expect(reader.asked.tool).toEqual([expect.stringContaining('the weather at a place, now')]);
    await harness.settle?.();

    const other = await searchOnce(await coldIsolate(second), await harness.open(), tools, `${model}-other`);
    expect(other.asked.tool).toHaveLength(tools.length);
  });
}
