// Learning's tool sets (option `learn.setWeight`): the remembered requests grouped by the whole set of tools each one
// used, and a search that resembles one set's requests, backed by enough sessions, given all its tools together.
import {
  createMemoryStore,
  createToolSearch,
  type DiscoveredStore,
  type Message,
  type ToolSearch,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names, ok } from './fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
// The table and the memory's nearest requests off: only the tool sets speak.
const setsOnly = { weight: 0, memoryWeight: 0, modelWeight: 0 };

/** One request of a session: a search, then each tool called with a result. */
function turn(query: string, called: readonly string[], prefix = 't'): Message[] {
  return [
    { role: 'user', content: query },
    {
      role: 'assistant',
      toolCalls: [{ id: `${prefix}s`, name: 'search_tools', arguments: JSON.stringify({ query }) }],
    },
    { role: 'tool', toolCallId: `${prefix}s`, content: '{"found":0,"tools":[]}' },
    ...called.flatMap((name, i): Message[] => [
      { role: 'assistant', toolCalls: [{ id: `${prefix}c${i}`, name, arguments: '{}' }] },
      { role: 'tool', toolCallId: `${prefix}c${i}`, content: '{"ok":true}' },
    ]),
  ];
}

// Requests of one template: the intent words stay, the city and the day change from session to session.
const trips = [
  'plan a trip to lisbon on monday',
  'plan a trip to oslo on friday',
  'plan a trip to cairo on sunday',
  'plan a trip to quito on tuesday',
];
const together = ['create_event', 'get_forecast'];

const top = async (layer: ToolSearch, query: string, extra: object = {}, limit?: number) =>
  names(
    ok(
      await layer.search(
        { sessionId: `ask-${Math.random()}`, tools, ...extra },
        { query, ...(limit ? { limit } : {}) },
      ),
    ).tools,
  );

async function feed(layer: ToolSearch, requests: readonly string[], called: readonly string[], tag = 'trip') {
  for (const [i, query] of requests.entries())
    await layer.prepare({ sessionId: `${tag}-${i}`, tools, messages: turn(query, called) });
  await layer.flush();
}

/** A store that records every key and value the layer writes to its shared space. */
function recording(): { store: DiscoveredStore; written: Map<string, unknown> } {
  const store = createMemoryStore();
  const shared = store.shared as NonNullable<DiscoveredStore['shared']>;
  const written = new Map<string, unknown>();
  const update: typeof shared.update = async (key, apply) => {
    const value = await shared.update(key, apply);
    written.set(key, value);
    return value;
  };
  return { store: { ...store, shared: { ...shared, update } }, written };
}

describe('learn: tool sets used together', () => {
  it('gives a new request of a known template every tool of its set, once sessions agree', async () => {
    const store = createMemoryStore();
    const layer = createToolSearch({ learn: setsOnly, store, logger: quiet });
    await feed(layer, trips.slice(0, 3), together);
    const asked = 'plan a trip to porto on saturday';
    expect((await top(layer, asked)).slice(0, 2).sort()).toEqual(together);
    // The same store with the sets off: nothing else speaks.
    const off = createToolSearch({ learn: { ...setsOnly, setWeight: 0 }, store, logger: quiet });
    expect(await top(off, asked)).toEqual([]);
    // Never a tool outside the enabled groups: the set's visible tools only.
    expect(await top(layer, asked, { enabledGroups: ['calendar'] })).toEqual(['create_event']);
    expect(() => createToolSearch({ learn: { setWeight: -1 } })).toThrow(/"learn.setWeight": must be 0 or more/);
  });

  it('gives the nearest sets in order: every tool of the nearest first, then those of the next', async () => {
    const layer = createToolSearch({ learn: setsOnly, logger: quiet });
    await feed(layer, trips.slice(0, 3), together);
    const flights = ['book a flight to lisbon on monday', 'book a flight to oslo on friday', 'book a flight to rome'];
    await feed(layer, flights, ['web_search', 'calculator'], 'flight');
    // Nearer the trips (two of their intent words) than the flights (one of theirs).
    const ranked = await top(layer, 'plan a trip to porto on saturday, maybe a flight', {}, 5);
    expect(ranked.slice(0, 2).sort()).toEqual(together);
    expect(ranked.slice(2, 4).sort()).toEqual(['calculator', 'web_search']);
    // A request nearer the flights turns the order round.
    const other = await top(layer, 'book a flight to porto, maybe a trip', {}, 5);
    expect(other.slice(0, 2).sort()).toEqual(['calculator', 'web_search']);
    expect(other.slice(2, 4).sort()).toEqual(together);
  });

  it('finds a set by words the memory first held after the layer last searched', async () => {
    const layer = createToolSearch({ learn: setsOnly, logger: quiet });
    await feed(layer, trips.slice(0, 3), together);
    expect((await top(layer, 'plan a trip to porto on saturday')).slice(0, 2).sort()).toEqual(together);
    // Words no set held at that search: the next finds them.
    const flights = ['book a flight to lisbon on monday', 'book a flight to oslo on friday', 'book a flight to rome'];
    await feed(layer, flights, ['web_search', 'calculator'], 'flight');
    expect((await top(layer, 'book a flight to porto')).slice(0, 2).sort()).toEqual(['calculator', 'web_search']);
  });

  it('stays silent on one session, on sessions that disagree, and on a request unlike any set', async () => {
    const layer = createToolSearch({ learn: setsOnly, logger: quiet });
    const asked = 'plan a trip to porto on saturday';
    await feed(layer, trips.slice(0, 1), together);
    expect(await top(layer, asked)).toEqual([]);
    // Three more sessions of the template, each with a set of its own: no set is backed by two sessions.
    await feed(layer, trips.slice(1, 2), ['get_forecast'], 'a');
    await feed(layer, trips.slice(2, 3), ['create_event'], 'b');
    await feed(layer, trips.slice(3, 4), ['get_weather', 'create_event'], 'c');
    expect(await top(layer, asked)).toEqual([]);
    // A second session backs the first set; a request unlike its requests still gets nothing.
    await feed(layer, trips.slice(1, 2), together, 'd');
    expect((await top(layer, asked)).slice(0, 2).sort()).toEqual(together);
    expect(await top(layer, 'translate this letter into german')).toEqual(['translate_text']);
  });

  it('follows the memory of past requests: within its bytes, the oldest going first', async () => {
    const store = createMemoryStore();
    const layer = createToolSearch({ learn: { ...setsOnly, memoryBytes: 16_000 }, store, logger: quiet });
    await feed(layer, trips.slice(0, 3), together);
    const asked = 'plan a trip to porto on saturday';
    expect((await top(layer, asked)).slice(0, 2).sort()).toEqual(together);
    // Later sessions fill the memory's 16,000 bytes: the trips' pages go, and their set with them.
    for (let i = 0; i < 400; i++) {
      const words = Array.from({ length: 6 }, (_, k) => `topic${i}x${k}`).join(' ');
      await layer.prepare({ sessionId: `later-${i}`, tools, messages: turn(words, ['calculator']) });
    }
    await layer.flush();
    expect(await top(createToolSearch({ learn: { ...setsOnly, memoryBytes: 16_000 }, store }), asked)).toEqual([]);
  });

  it('ranks the same whether each session is read once or at every round', async () => {
    // The sets alone, so that what is compared is theirs (the defaults are compared on a real catalogue in
    // test/node/learn-use.test.ts).
    const once = createToolSearch({ learn: setsOnly, logger: quiet });
    const rounds = createToolSearch({ learn: setsOnly, logger: quiet });
    for (const [i, query] of trips.entries()) {
      // Two requests per session, the first growing a tool at a time.
      const history = [...turn(query, together, 'a'), ...turn(`email ${query}`, ['send_email'], 'b')];
      await once.prepare({ sessionId: `s${i}`, tools, messages: history });
      for (let end = 1; end <= history.length; end++)
        await rounds.prepare({ sessionId: `s${i}`, tools, messages: history.slice(0, end) });
      await Promise.all([once.flush(), rounds.flush()]);
    }
    for (const asked of ['plan a trip to porto on saturday', 'email plan a trip to rome', 'trip']) {
      const ranked = await top(once, asked);
      expect(await top(rounds, asked)).toEqual(ranked);
    }
    expect((await top(once, 'plan a trip to porto on saturday')).slice(0, 2).sort()).toEqual(together);
  });

  it('keeps the same sets as a fresh layer reading the same memory, as its pages fill, reload and go', async () => {
    // A long-lived layer follows the memory page by page (a page reloaded as it grows, the oldest dropped at the
    // bound, its ids compacted); one made afresh reads it whole. Both must rank alike after every round.
    const store = createMemoryStore();
    const learn = { ...setsOnly, memoryBytes: 16_000 };
    const layer = createToolSearch({ learn, store, logger: quiet });
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const sets = [
      together,
      ['send_email'],
      ['web_search', 'calculator'],
      ['read_inbox', 'delete_email'],
      ['get_weather'],
    ];
    const intents = ['plan a trip', 'send a note', 'book a flight', 'clean the inbox', 'check the sky'];
    const fillers = ['lisbon', 'oslo', 'monday', 'friday', 'early', 'cheap', 'family', 'work', 'quick', 'late'];
    const request = (k: number) =>
      `${intents[k]} ${Array.from({ length: 1 + random(4) }, () => fillers[random(fillers.length)]).join(' ')}`;
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 30; i++) {
        // One request or two, the second now and then of the same set in other words.
        const k = random(sets.length);
        const second = random(3) === 0 ? (random(2) === 0 ? k : random(sets.length)) : -1;
        const messages = [
          ...turn(request(k), sets[k] as string[], 'a'),
          ...(second < 0 ? [] : turn(request(second), sets[second] as string[], 'b')),
        ];
        await layer.prepare({ sessionId: `r${round}-${i}`, tools, messages });
      }
      await layer.flush();
      // Its own index: layers of one storage share theirs, so the same space under another identity.
      const alone = { ...store, shared: { ...(store.shared as NonNullable<DiscoveredStore['shared']>), identity: {} } };
      const fresh = createToolSearch({ learn, store: alone, logger: quiet });
      for (const [k, intent] of intents.entries()) {
        const asked = `${intent} ${fillers[(k + round) % fillers.length]}`;
        expect(await top(layer, asked, {}, 5)).toEqual(await top(fresh, asked, {}, 5));
      }
    }
  });

  it('adds no key to the store, keeps no word of a request, and is forgotten with the memory', async () => {
    const { store, written } = recording();
    const layer = createToolSearch({ learn: setsOnly, store, logger: quiet });
    await feed(layer, trips.slice(0, 3), together);
    const asked = 'plan a trip to porto on saturday';
    expect((await top(layer, asked)).slice(0, 2).sort()).toEqual(together);
    // The sets are read from the memory's pages: only the table's and the memory's keys are written.
    for (const key of written.keys()) expect(key).toMatch(/^learn:default(:u:\d|:32:\d+|:m\d(:\d+)?)$/);
    // What they read, the memory's pages, holds the requests' terms hashed (the table keeps its terms, as documented).
    const values = JSON.stringify([...written].filter(([key]) => key.includes(':m')).map(([, value]) => value));
    expect(values).toContain('get_forecast');
    for (const word of ['lisbon', 'oslo', 'cairo', 'monday', 'friday', 'trip-']) expect(values).not.toContain(word);
    await layer.forgetLearned();
    expect(await top(createToolSearch({ learn: setsOnly, store }), asked)).toEqual([]);
    await feed(layer, trips.slice(0, 3), together, 'again');
    expect((await top(layer, asked)).slice(0, 2).sort()).toEqual(together);
    await layer.clear();
    expect(await top(layer, asked)).toEqual([]);
    expect(await top(createToolSearch({ learn: setsOnly, store }), asked)).toEqual([]);
  });
});

describe('learn: how loudly the memory and the sets speak', () => {
  // Requests each of its own (two words no other request holds, among stopwords as requests have them): neither the
  // memory nor the sets name their tools (too many of them and a memory right for few of its requests says nothing at
  // all).
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const unique = Array.from({ length: 10 }, (_, i) => {
    const [a, b] = [letters[i % 26], letters[Math.floor(i / 26)]];
    return `the ${a}${b}zorbel for a ${b}${a}quaxt on it`;
  });
  const asked = 'plan a trip to lisbon on monday and translate';
  const twice = [trips[0], trips[0]] as string[];

  for (const [part, learn] of [
    ['memory', { weight: 0, setWeight: 0, modelWeight: 0 }],
    ['sets', setsOnly],
  ] as const)
    it(`${part}: judges itself again once many new sessions came, and then speaks louder`, async () => {
      const layer = createToolSearch({ learn, store: createMemoryStore(), logger: quiet });
      await feed(layer, unique, ['read_file'], 'unique');
      await feed(layer, twice, together);
      // Right for 2 of its 12 requests: it speaks, below what the keywords find.
      const quiet1 = await top(layer, asked, {}, 3);
      expect(quiet1[0]).toBe('translate_text');
      expect(quiet1.slice(1).sort()).toEqual(together);
      // As many sessions again, each a trip: judged again, it is mostly right, and leads.
      await feed(
        layer,
        [...trips, ...trips, ...trips, ...trips, ...trips, ...trips, ...trips, ...trips],
        together,
        'more',
      );
      const loud = await top(layer, asked, {}, 3);
      expect(loud.slice(0, 2).sort()).toEqual(together);
      expect(loud[2]).toBe('translate_text');
    });

  it('votes with a session committed after it last judged itself', async () => {
    const layer = createToolSearch({
      learn: { weight: 0, setWeight: 0, modelWeight: 0 },
      store: createMemoryStore(),
      logger: quiet,
    });
    await feed(layer, unique, ['read_file'], 'unique');
    await feed(layer, Array<string>(24).fill(trips[0] as string), together);
    expect((await top(layer, trips[0] as string)).slice(0, 2).sort()).toEqual(together);
    // One session of a new request: no second agrees yet.
    const splines = 'reticulate the splines quickly';
    await feed(layer, [splines], ['calculator'], 'spline-a');
    expect(await top(layer, splines)).not.toContain('calculator');
    // One more: a change of two requests in 36 keeps the memory's own judgement, not its requests.
    await feed(layer, [splines], ['calculator'], 'spline-b');
    expect(await top(layer, splines)).toEqual(['calculator']);
  });
});
