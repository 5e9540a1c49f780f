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

  // A catalogue far larger than the first writer sized the buckets for: more buckets, and nothing embedded twice.
  const grown = (count: number): Tool[] => [
    ...tools,
    ...Array.from({ length: count }, (_, i) => ({
      name: `task_${i}`,
      description: `Runs task ${i} of the catalogue`,
      parameters: { type: 'object', properties: {} },
    })),
  ];

  it('grows its buckets for a catalogue that outgrows them: a later cold isolate embeds nothing again', async () => {
    const harness = await make();
    const model = `model-${crypto.randomUUID()}`;
    let library = await coldIsolate();
    await searchOnce(library, await harness.open(), tools, model);
    await harness.settle?.();

    const large = grown(3000);
    library = await coldIsolate(library);
    const writer = await searchOnce(library, await harness.open(), large, model);
    expect(writer.asked.tool).toHaveLength(3000);
    await harness.settle?.();

    const reader = await searchOnce(await coldIsolate(library), await harness.open(), large, model);
    expect(reader.asked.tool).toEqual([]);
    expect(reader.lines).toEqual([]);
  });

  it('moves the vectors a full bucket would drop: each tool is embedded once however the catalogue grows', async () => {
    const harness = await make();
    const model = `model-${crypto.randomUUID()}`;
    let library = await coldIsolate();
    const embedded = new Set<string>();
    let again = 0;
    // Each step adds a thousand tools, few enough that the buckets the first writer sized are kept until they fill.
    for (const size of [0, 1000, 2000, 2000, 2000]) {
      library = await coldIsolate(library);
      const step = await searchOnce(library, await harness.open(), grown(size), model);
      for (const text of step.asked.tool) {
        if (embedded.has(text)) again++;
        embedded.add(text);
      }
      expect(step.lines).toEqual([]);
      await harness.settle?.();
    }
    expect(embedded.size).toBe(tools.length + 2000);
    // A full bucket drops vectors once, before the buckets double; they are embedded again that once, never after.
    const last = await searchOnce(await coldIsolate(library), await harness.open(), grown(2000), model);
    expect(last.asked.tool).toEqual([]);
    expect(again).toBeLessThan(1000);
    // KV paces its writes a second apart per key, and reads each back a second later.
  }, 20_000);
}
