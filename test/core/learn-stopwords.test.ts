// The memory of past requests matches them on their stopwords too (hashed): requests written from one template may
// differ by nothing else ("for us", "with them"), and those words still tell which tools they led to. The table and
// the keyword ranking never see them.
import { createMemoryStore, createToolSearch, type ToolSearch } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names, ok, learnedTurn as turn } from './fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
// The table off: only the memory's parts can tell the two templates apart, and only by their stopwords.
const memoryOnly = { weight: 0 };

const cities = ['lisbon', 'oslo', 'cairo'];

async function feed(layer: ToolSearch, template: (city: string) => string, called: readonly string[], tag: string) {
  for (const [i, city] of cities.entries())
    await layer.prepare({ sessionId: `${tag}-${i}`, tools, messages: turn(template(city), called) });
  await layer.flush();
}

const top = async (layer: ToolSearch, query: string) =>
  names(ok(await layer.search({ sessionId: `ask-${Math.random()}`, tools }, { query, limit: 2 })).tools);

describe('learn: the memory reads the words the ranker drops', () => {
  it('tells apart requests that differ only by their stopwords, and keeps none of them as text', async () => {
    const store = createMemoryStore();
    const written: unknown[] = [];
    const shared = store.shared as NonNullable<typeof store.shared>;
    const recorded = {
      ...store,
      shared: {
        ...shared,
        update: (async (key, apply) => {
          const value = await shared.update(key, apply);
          if (key.includes(':m')) written.push(value);
          return value;
        }) as typeof shared.update,
      },
    };
    const layer = createToolSearch({ learn: memoryOnly, store: recorded, logger: quiet });
    await feed(layer, (city) => `a trip to ${city} for us`, ['create_event'], 'there');
    await feed(layer, (city) => `a trip to ${city} with them`, ['send_email'], 'tell');
    // The keyword ranking reads the same two terms in both ("trip", the city); the memory reads the rest too.
    expect((await top(layer, 'a trip to porto for us'))[0]).toBe('create_event');
    expect((await top(layer, 'a trip to porto with them'))[0]).toBe('send_email');
    const values = JSON.stringify(written);
    expect(values).toContain('send_email');
    for (const word of ['lisbon', 'them', 'with', '~for']) expect(values).not.toContain(word);
  });

  it('remembers no request of stopwords alone', async () => {
    const layer = createToolSearch({ learn: memoryOnly, logger: quiet });
    for (const i of [0, 1, 2])
      await layer.prepare({ sessionId: `none-${i}`, tools, messages: turn('what can you do for me', ['calculator']) });
    await layer.flush();
    expect(await top(layer, 'what can you do for me')).toEqual([]);
  });
});
