// A long-lived layer follows its memory of past requests as the pages fill: a page read again after an append is
// indexed only for the requests appended to it (memory-pages.ts `heldPrefix`), where a page whose content cannot be
// told apart (written before tags) is indexed again whole. Both must rank alike, as requests grow and pages close.
import {
  createMemoryStore,
  createToolSearch,
  type DiscoveredStore,
  type Message,
  type ToolSearch,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names, ok } from './fixtures.ts';
import { seededRandom } from './seeded.ts';

const tools = [...catalogue];
const quiet = { warn() {} };

/** One request of a session: a search, then each tool called with a result. */
function turn(query: string, called: readonly string[], prefix: string): Message[] {
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

/** A memory store whose pages read back (and write back) without their tag and hash, as pages written before tags do. */
function untagged(): DiscoveredStore {
  const store = createMemoryStore();
  const space = store.shared as NonNullable<DiscoveredStore['shared']>;
  const strip = (key: string, value: unknown) => {
    if (!/:m\d:\d+$/.test(key) || typeof value !== 'object' || value === null) return value;
    const { f: _f, h: _h, ...rest } = value as { f?: string; h?: number };
    return rest;
  };
  return {
    ...store,
    shared: {
      ...space,
      get: async (key) => strip(key, await space.get(key)),
      update: async (key, apply) => strip(key, await space.update(key, apply)),
    },
  };
}

describe('learn: pages read again as they fill', () => {
  it('ranks as a layer that indexes every page again whole, as requests grow and pages close', async () => {
    // Two lanes of two 8 KB pages: pages close but none goes (each write picks its lane at random, so the two layers'
    // pages hold their requests in other places, and a page gone would be another request's in each). Every part of
    // learning on at its default weight but the trained model, which trains in the background as macrotasks allow,
    // not as pages are read (learn-model.test.ts).
    const learn = { memoryBytes: 32_000, modelWeight: 0 };
    const grows = createToolSearch({ learn, store: createMemoryStore(), logger: quiet });
    const whole = createToolSearch({ learn, store: untagged(), logger: quiet });
    const random = seededRandom(11);
    const sets = [['create_event', 'get_forecast'], ['send_email'], ['web_search', 'calculator'], ['read_inbox']];
    const intents = ['plan a trip', 'send a note', 'look it up and add it', 'clean the inbox'];
    const fillers = ['lisbon', 'oslo', 'monday', 'friday', 'early', 'cheap', 'family', 'work', 'quick', 'late'];
    const words = () => Array.from({ length: 1 + random(3) }, () => fillers[random(fillers.length)]).join(' ');
    const ask = async (layer: ToolSearch, query: string) =>
      names(ok(await layer.search({ sessionId: 'ask', tools }, { query, limit: 5 })).tools);
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 12; i++) {
        // A session's history grows over two prepares: its request gains a tool (a new version of it, larger), and
        // now and then a second request follows.
        const k = random(sets.length);
        const set = sets[k] as string[];
        const query = `${intents[k]} ${words()}`;
        const later = random(3) === 0 ? turn(`${intents[random(intents.length)]} ${words()}`, ['send_email'], 'b') : [];
        const sessionId = `r${round}-${i}`;
        for (const messages of [turn(query, set.slice(0, 1), 'a'), [...turn(query, set, 'a'), ...later]]) {
          for (const layer of [grows, whole]) await layer.prepare({ sessionId, tools, messages });
          // Searched between appends, so each page is read again as it fills.
          const asked = `${intents[random(intents.length)]} ${words()}`;
          expect(await ask(grows, asked)).toEqual(await ask(whole, asked));
        }
      }
      for (const layer of [grows, whole]) await layer.flush();
      for (const intent of intents) {
        const asked = `${intent} ${words()}`;
        expect(await ask(grows, asked)).toEqual(await ask(whole, asked));
      }
    }
  });
});
