// A search index made ahead of time (serializeIndex) and loaded in a new isolate (loadIndex), checked against its tools.
import { describe, expect, it } from 'vitest';
import { createToolSearch, loadIndex, serializeIndex, type Tool, ToolSearchError } from '../../src/index.ts';
import { buildIndex } from '../../src/search/build.ts';
import { getToolIndex, rankTools } from '../../src/search/index.ts';

const tools: Tool[] = [
  {
    name: 'getWeather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } },
  },
  { name: 'eBayListings', description: 'Search the listings of an online marketplace', keywords: ['auction'] },
  { name: 'queryWeather', description: '查询某城市的天气预报' },
  { name: 'sendEmail', description: 'Send an email message to a recipient' },
  { name: 'weather.forecast', description: 'Five-day forecast' },
];
const queries = ['weather in Paris', 'ebay auction', '天气', 'send a message', 'eathe', 'forecast for five days', ''];
const copy = (): Tool[] => JSON.parse(JSON.stringify(tools)) as Tool[];

describe('serializeIndex and loadIndex', () => {
  it('load an index that ranks exactly as a fresh build, and seed the cache with it', async () => {
    const text = serializeIndex(tools);
    expect(typeof text).toBe('string');
    const fresh = copy();
    expect(loadIndex(text, fresh)).toBe(true);
    const loaded = getToolIndex(fresh);
    const built = buildIndex(fresh);
    for (const query of queries) expect(rankTools(loaded, query)).toEqual(rankTools(built, query));
    // The layer finds it through the cache: an equal copy of the tools is served by the same index.
    expect(getToolIndex(copy())).toBe(loaded);
    const layer = createToolSearch({ maxSearchResults: 0 });
    const result = await layer.search({ sessionId: 's', tools: fresh }, { query: 'ebay auction' });
    expect('tools' in result && result.tools[0]?.name).toBe('eBayListings');
  });

  it('refuse an index made from other tools, and leave the cache alone', () => {
    const text = serializeIndex(tools);
    const changed = copy();
    (changed[3] as { description: string }).description = 'Send a text message';
    expect(loadIndex(text, changed)).toBe(false);
    expect(loadIndex(text, tools.slice(1))).toBe(false);
    const keywords = copy();
    (keywords[1] as { keywords: string[] }).keywords = ['bids'];
    expect(loadIndex(text, keywords)).toBe(false);
    const other = getToolIndex(changed);
    expect(rankTools(other, 'text message').ids[0]).toBe(3);
  });

  it('refuse an index made by another version of the library', () => {
    const parsed = JSON.parse(serializeIndex(tools)) as { version: string };
    parsed.version = 'tool-search-layer/index@0 []';
    expect(loadIndex(JSON.stringify(parsed), copy())).toBe(false);
  });

  it('throw a ToolSearchError for text that is no serialised index', () => {
    for (const bad of ['not json', '{}', '[]', 'null', JSON.stringify({ version: 'x' })])
      expect(() => loadIndex(bad, tools)).toThrow(ToolSearchError);
    const parsed = JSON.parse(serializeIndex(tools)) as { arrays: Record<string, string> };
    parsed.arrays.docs = '';
    expect(() => loadIndex(JSON.stringify(parsed), copy())).toThrow(/damaged/);
    parsed.arrays.docs = 'AAA=';
    expect(() => loadIndex(JSON.stringify(parsed), copy())).toThrow(/damaged/);
    parsed.arrays.docs = '***';
    expect(() => loadIndex(JSON.stringify(parsed), copy())).toThrow(/damaged/);
    expect(() => loadIndex(serializeIndex(tools), 'tools' as unknown as Tool[])).toThrow(ToolSearchError);
    expect(() => serializeIndex({} as unknown as Tool[])).toThrow(ToolSearchError);
  });
});
