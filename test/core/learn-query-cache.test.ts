// What a learner keeps per query (its terms, hashes and first places; the memory's plan for a query asked again)
// never changes a ranking: a layer that asked a query many times, and thousands of others since, ranks it as a layer
// that never asked it, before and after the memory grows.
import {
  createMemoryStore,
  createToolSearch,
  type Message,
  type SearchResult,
  type ToolSearch,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names } from './fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
// The memory alone speaks (the table and the sets off): its plan for a query is what a layer keeps per query.
const learn = { weight: 0, setWeight: 0 };

/** A turn: the request, a search for it, then each tool called with a result. */
const turn = (query: string, called: readonly string[], prefix: string): Message[] => [
  { role: 'user', content: query },
  {
    role: 'assistant',
    toolCalls: [{ id: `${prefix}s`, name: 'search_tools', arguments: JSON.stringify({ query }) }],
  },
  { role: 'tool', toolCallId: `${prefix}s`, content: JSON.stringify({ found: 0, tools: [], related: [], hint: '' }) },
  { role: 'assistant', toolCalls: called.map((name, i) => ({ id: `${prefix}c${i}`, name, arguments: '{}' })) },
  ...called.map((_, i): Message => ({ role: 'tool', toolCallId: `${prefix}c${i}`, content: '{"ok":true}' })),
];

async function feed(layer: ToolSearch, from: number, sessions: number, query: string, called: string[]) {
  for (let i = from; i < from + sessions; i++)
    await layer.prepare({ sessionId: `feed-${i}`, tools, messages: turn(query, called, `t${i}`) });
  await layer.flush();
}

const ranked = async (layer: ToolSearch, query: string) => {
  const result = (await layer.search({ sessionId: 'ask', tools }, { query, limit: 10 })) as SearchResult;
  return names(result.tools);
};

describe('learn: what is kept per query', () => {
  it('ranks a query asked often, and after thousands of others, as a layer that never asked it', async () => {
    const store = createMemoryStore();
    const layer = createToolSearch({ learn, store, logger: quiet });
    await feed(layer, 0, 3, 'pack an umbrella for tomorrow in lisbon', ['get_forecast']);
    await feed(layer, 3, 2, 'will it rain in lisbon tomorrow', ['get_weather', 'get_forecast']);
    const asked = 'umbrella or rain tomorrow in lisbon?';
    const fresh = () => ranked(createToolSearch({ learn, store, logger: quiet }), asked);
    const first = await ranked(layer, asked);
    expect(first).toContain('get_forecast');
    for (let i = 0; i < 3; i++) expect(await ranked(layer, asked)).toEqual(first);
    for (let i = 0; i < 2500; i++) await ranked(layer, `weather ${i} tomorrow`);
    expect(await ranked(layer, asked)).toEqual(await fresh());
    // The memory grows: what the layer kept for the query is of the memory before.
    await feed(layer, 5, 4, 'umbrella or rain tomorrow in lisbon? send it to bob', ['send_email']);
    const grown = await ranked(layer, asked);
    expect(grown).toEqual(await fresh());
    expect(grown).toContain('send_email');
    expect(await ranked(layer, asked)).toEqual(grown);
  });
});
