// A layer's table reader keeps each term's record, resolved for a catalogue, while the values it read stand: after a
// commit, a clear, values expired behind it, or with another catalogue, a layer that searched the same terms many
// times ranks as a new layer does.
import {
  createMemoryStore,
  createToolSearch,
  type DiscoveredStore,
  type SearchResult,
  type Tool,
  type ToolSearch,
} from 'tool-search-layer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogue, names } from './fixtures.ts';
import { turn, unshared } from './learn-share-fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
// The table alone speaks (the memory's and the sets' votes off): its terms' records are what the reader keeps.
const learn = { memoryWeight: 0, setWeight: 0 };
const layerOn = (store: DiscoveredStore): ToolSearch => createToolSearch({ learn, store, logger: quiet });

async function feed(layer: ToolSearch, prefix: string, sessions: number, query: string, called: string[]) {
  for (let i = 0; i < sessions; i++)
    await layer.prepare({ sessionId: `${prefix}-${i}`, tools, messages: turn(query, called) });
  await layer.flush();
}

const asked = ['umbrella tomorrow lisbon', 'lisbon umbrella', 'notes for tomorrow'];

/** Each asked query's ranking; a query's text differs by trailing spaces each time, so no query's cache answers. */
let sent = 0;
async function rankings(layer: ToolSearch, over: readonly Tool[] = tools): Promise<string[][]> {
  const out: string[][] = [];
  sent++;
  for (const query of asked) {
    const text = query + ' '.repeat(sent);
    const result = (await layer.search({ sessionId: 'ask', tools: [...over] }, { query: text })) as SearchResult;
    out.push(names(result.tools));
  }
  return out;
}

describe("learn: the table reader's records of terms", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sees a commit and a clear as a new layer does', async () => {
    const store = createMemoryStore();
    const layer = layerOn(store);
    await feed(layer, 'a', 3, 'pack an umbrella for tomorrow in lisbon', ['get_forecast']);
    const before = await rankings(layer);
    expect(before[0]?.[0]).toBe('get_forecast');
    // Asked again: the records now stand, resolved.
    expect(await rankings(layer)).toEqual(before);
    // A commit moves the same terms' credit to another tool.
    await feed(layer, 'b', 8, 'umbrella tomorrow lisbon', ['calculator']);
    const after = await rankings(layer);
    expect(after).not.toEqual(before);
    expect(after).toEqual(await rankings(layerOn(store)));
    expect(await rankings(layer)).toEqual(after);
    // A clear forgets it all: the layer ranks as a layer of an empty store.
    await layer.clear();
    const cleared = await rankings(layer);
    expect(cleared).not.toEqual(after);
    expect(cleared).toEqual(await rankings(layerOn(createMemoryStore())));
  });

  it('sees values another layer changed behind its cache once they expire', async () => {
    const store = createMemoryStore();
    const layer = layerOn(store);
    await feed(layer, 'a', 3, 'pack an umbrella for tomorrow in lisbon', ['get_forecast']);
    const before = await rankings(layer);
    expect(await rankings(layer)).toEqual(before);
    // A layer with a cache of its own commits: this layer's values stand until they expire.
    await feed(layerOn(unshared(store)), 'b', 8, 'umbrella tomorrow lisbon', ['calculator']);
    expect(await rankings(layer)).toEqual(before);
    vi.setSystemTime(Date.now() + 5_001);
    const after = await rankings(layer);
    expect(after).not.toEqual(before);
    expect(after).toEqual(await rankings(layerOn(unshared(store))));
  });

  it('resolves the same records for each catalogue it is asked over', async () => {
    const store = createMemoryStore();
    const layer = layerOn(store);
    await feed(layer, 'a', 3, 'pack an umbrella for tomorrow in lisbon', ['get_forecast']);
    // The same tools in another order (each at another id), and a catalogue without the credited tool.
    const reversed = [...tools].reverse();
    const without = tools.filter((tool) => tool.name !== 'get_forecast');
    const first = await rankings(layer);
    for (const over of [reversed, without, tools, reversed]) {
      const own = await rankings(layer, over);
      expect(own).toEqual(await rankings(layerOn(store), over));
      expect(own).toEqual(await rankings(layerOn(unshared(store)), over));
    }
    expect(await rankings(layer, reversed)).not.toEqual(await rankings(layer, without));
    expect(await rankings(layer)).toEqual(first);
  });
});
