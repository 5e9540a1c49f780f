// A search index made ahead of time (serializeIndex) and loaded in a new isolate (loadIndex), checked against its tools.
import { describe, expect, it } from 'vitest';
import { createToolSearch, type Tool, ToolSearchError } from '../../src/index.ts';
import { buildIndex } from '../../src/search/build.ts';
import { getToolIndex, rankTools } from '../../src/search/index.ts';
import { loadIndex, serializeIndex } from '../../src/search/serialize.ts';
import { findSubstring } from '../../src/search/substring.ts';

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
    (keywords[1] as unknown as { keywords: string[] }).keywords = ['bids'];
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

  it('refuse every kind of change to the searchable texts, the count or the order', () => {
    const rich: Tool[] = [
      {
        name: 'bookFlight',
        description: 'Book a flight',
        keywords: 'airline',
        parameters: {
          type: 'object',
          properties: {
            from: { type: 'string', description: 'Departure airport' },
            cabin: { type: 'string', enum: ['economy', 'business'] },
            legs: { type: 'array', items: { type: 'object', properties: { date: { type: 'string' } } } },
          },
        },
      },
      { name: 'cancelFlight', description: 'Cancel a booking', keywords: ['refund', 'void'] },
    ];
    const text = serializeIndex(rich);
    const fresh = (): Tool[] => JSON.parse(JSON.stringify(rich)) as Tool[];
    const props = (t: Tool[]) => (t[0]?.parameters?.properties ?? {}) as Record<string, Record<string, unknown>>;
    const edits: ((t: Tool[]) => void)[] = [
      (t) => Object.assign(t[0] as Tool, { name: 'bookFlights' }),
      (t) => Object.assign(t[0] as Tool, { description: 'Book a flight!' }),
      // The last of an odd number of characters, hashed alone.
      (t) => Object.assign(t[0] as Tool, { description: 'Book a flighT' }),
      (t) => Object.assign(t[0] as Tool, { keywords: 'airlines' }),
      (t) => Object.assign(t[1] as Tool, { keywords: ['refund', 'avoid'] }),
      (t) => Object.assign(t[1] as Tool, { keywords: ['refund'] }),
      (t) => Object.assign(props(t), { to: { type: 'string' } }),
      (t) => Object.assign(props(t).from ?? {}, { description: 'Arrival' }),
      (t) => Object.assign(props(t).cabin ?? {}, { enum: ['economy'] }),
      (t) => Object.assign(t[1] as Tool, { parameters: { type: 'object', properties: { id: { type: 'string' } } } }),
      // Nested deeper: an item's property name.
      (t) => {
        const legs = props(t).legs as { items: { properties: object } };
        legs.items.properties = { day: { type: 'string' } };
      },
      (t) => t.reverse(),
      (t) => t.push({ name: 'x' }),
      // A trailing NUL, which hashing two characters a step must still see.
      (t) => Object.assign(t[1] as Tool, { description: 'Cancel a booking\0' }),
    ];
    expect(loadIndex(text, fresh())).toBe(true);
    for (const edit of edits) {
      const changed = fresh();
      edit(changed);
      expect(loadIndex(text, changed)).toBe(false);
    }
    // Texts that are not searched may change: an index made before still loads.
    const same = fresh();
    Object.assign(same[0] as Tool, { groups: ['travel'], extra: 1 });
    expect(loadIndex(text, same)).toBe(true);
  });

  it('load a catalogue whose arrays need 32 bits, and rank as a fresh build', () => {
    // 20,000 distinct words: the substring text outgrows 16-bit offsets and the terms 16-bit ids.
    const words = Array.from({ length: 20000 }, (_, i) => `w${i.toString(36)}x`);
    const big: Tool[] = Array.from({ length: 40 }, (_, i) => ({
      name: `tool${i}`,
      description: words.slice(i * 500, i * 500 + 500).join(' '),
    }));
    const text = serializeIndex(big);
    const parsed = JSON.parse(text) as { arrays: Record<string, string> };
    expect(parsed.arrays.starts?.[0]).toBe('4');
    expect(parsed.arrays.docs?.[0]).toBe('2');
    const fresh = JSON.parse(JSON.stringify(big)) as Tool[];
    expect(loadIndex(text, fresh)).toBe(true);
    const loaded = getToolIndex(fresh);
    const built = buildIndex(fresh);
    for (const query of ['w1x', 'wax tool3', 'tool39', 'w3x w4x', 'zzz', 'x'])
      expect(rankTools(loaded, query)).toEqual(rankTools(built, query));
  });

  it('throw a ToolSearchError for damaged tables and widths', () => {
    const parsed = JSON.parse(serializeIndex(tools)) as { arrays: Record<string, string> };
    const damage = (key: string, value: string) => {
      const copyOf = structuredClone(parsed);
      copyOf.arrays[key] = value;
      expect(() => loadIndex(JSON.stringify(copyOf), copy())).toThrow(/damaged/);
    };
    damage('docs', `3${parsed.arrays.docs?.slice(1)}`);
    damage('weights', 'AAA=');
    damage('slots', '2AAA=');
    damage('slots', parsed.arrays.nameSlots as string);
    damage('nameIds', '2AQA=');
    damage('nameStart', '2AQA=');
  });

  it('load weights sent as a palette or as plain 32-bit words alike, and refuse a damaged palette', () => {
    const parsed = JSON.parse(serializeIndex(tools)) as { arrays: Record<string, string> };
    const weights = parsed.arrays.weights as string;
    expect(weights[0]).toBe('p');
    // Re-encode the palette form as plain words, as serializeIndex does past 65,536 distinct weights.
    const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const [palette, indices] = weights.slice(1).split(':').map(bytes) as [Uint8Array, Uint8Array];
    const plain = new Uint8Array(indices.length * 2);
    for (let i = 0; i < indices.length / 2; i++) {
      const p = (indices[2 * i] as number) | ((indices[2 * i + 1] as number) << 8);
      plain.set(palette.subarray(p * 4, p * 4 + 4), i * 4);
    }
    const raw = structuredClone(parsed);
    raw.arrays.weights = `4${btoa(String.fromCharCode(...plain))}`;
    const fresh = copy();
    expect(loadIndex(JSON.stringify(raw), fresh)).toBe(true);
    const built = buildIndex(fresh);
    for (const query of queries) expect(rankTools(getToolIndex(fresh), query)).toEqual(rankTools(built, query));
    for (const bad of [`x${weights.slice(1)}`, weights.replace(':', ''), `${weights.split(':')[0]}:/wA=`]) {
      const damaged = structuredClone(parsed);
      damaged.arrays.weights = bad;
      expect(() => loadIndex(JSON.stringify(damaged), copy())).toThrow(/damaged/);
    }
  });

  it('find the same substrings by scanning as with the trigram table made later', () => {
    const index = buildIndex(tools) as unknown as { substring: Parameters<typeof findSubstring>[0] };
    const keywords = ['eathe', 'weather', 'listings', 'city', 'ay', '天气', 'nothing', 'mail', 'five-day', 'e'];
    const scanned = keywords.map((k) => findSubstring(index.substring, k, tools.length));
    expect(index.substring.table).toBeUndefined();
    // Enough lookups that scanning has cost as much as the table: it is made, and answers the same.
    for (let i = 0; !index.substring.table && i < 100; i++) findSubstring(index.substring, `zz${i}`, tools.length);
    expect(index.substring.table).toBeDefined();
    expect(keywords.map((k) => findSubstring(index.substring, k, tools.length))).toEqual(scanned);
    expect([...(scanned[0] ?? [])].sort()).toEqual([0, 2, 4]);
    expect(scanned[6]).toEqual([]);
  });
});
