// Learning's trained model (option `learn.modelWeight`): a softmax over the tools the memory's requests used, trained on
// those requests in the background, speaking as loudly as its record on requests it was never trained on.
import { createMemoryStore, createToolSearch, type DiscoveredStore, type ToolSearch } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names, ok, learnedTurn as turn } from './fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
// Only the model speaks: the table, the memory's neighbours and the sets off.
const modelOnly = { weight: 0, memoryWeight: 0, setWeight: 0 };

const cities = ['lisbon', 'oslo', 'cairo', 'quito', 'lima', 'rome', 'paris', 'delhi', 'tunis', 'kyiv', 'riga', 'bern'];
const days = ['monday', 'tuesday', 'friday', 'sunday', 'soon', 'today'];

/** Requests of two templates that differ by their stopwords alone, each session one of them. */
async function feedTemplates(layer: ToolSearch, sessions: number, tag = 'f'): Promise<void> {
  for (let i = 0; i < sessions; i++) {
    const place = `${cities[i % cities.length]} on ${days[(i * 7) % days.length]}`;
    const [query, tool] =
      i % 2 === 0 ? [`a trip to ${place} for us`, 'create_event'] : [`a trip to ${place} with them`, 'send_email'];
    await layer.prepare({ sessionId: `${tag}-${i}`, tools, messages: turn(query, [tool]) });
  }
  await layer.flush();
}

const top = async (layer: ToolSearch, query: string, extra: object = {}) =>
  names(ok(await layer.search({ sessionId: `ask-${Math.random()}`, tools, ...extra }, { query, limit: 2 })).tools);

/** A store that records every key the layer writes to its shared space. */
function recording(): { store: DiscoveredStore; keys: Set<string> } {
  const store = createMemoryStore();
  const shared = store.shared as NonNullable<DiscoveredStore['shared']>;
  const keys = new Set<string>();
  const update: typeof shared.update = async (key, apply) => {
    keys.add(key);
    return shared.update(key, apply);
  };
  return { store: { ...store, shared: { ...shared, update } }, keys };
}

describe('learn: the trained model', () => {
  it('learns which words tell apart requests of one template, once trained, and only the visible tools', async () => {
    const layer = createToolSearch({ learn: modelOnly, store: createMemoryStore(), logger: quiet });
    await feedTemplates(layer, 160);
    // New cities and days: only the stopwords say which template a request follows.
    expect((await top(layer, 'a trip to porto on thursday for us'))[0]).toBe('create_event');
    expect((await top(layer, 'a trip to porto on thursday with them'))[0]).toBe('send_email');
    // Never a tool outside the enabled groups.
    expect(await top(layer, 'a trip to porto on thursday with them', { enabledGroups: ['calendar'] })).not.toContain(
      'send_email',
    );
    // Off, it says nothing; and its weight is checked like the others'.
    const off = createToolSearch({ learn: { ...modelOnly, modelWeight: 0 }, store: createMemoryStore() });
    expect(await top(off, 'a trip to porto on thursday for us')).toEqual([]);
    expect(() => createToolSearch({ learn: { modelWeight: -1 } })).toThrow(/"learn.modelWeight": must be 0 or more/);
  });

  it('trains in the background: a layer that only reads the store trains from its first search, and flush() waits', async () => {
    const store = createMemoryStore();
    await feedTemplates(createToolSearch({ learn: { ...modelOnly, modelWeight: 0 }, store, logger: quiet }), 160);
    // Another storage identity over the same space: its own index, its model never trained.
    const alone = { ...store, shared: { ...(store.shared as NonNullable<DiscoveredStore['shared']>), identity: {} } };
    const reader = createToolSearch({ learn: modelOnly, store: alone, logger: quiet });
    // Its first search answers at once, untrained: the model says nothing yet.
    expect(await top(reader, 'a trip to porto on thursday for us')).toEqual([]);
    await reader.flush();
    expect((await top(reader, 'a trip to porto on thursday for us'))[0]).toBe('create_event');
  });

  it('stays silent where its record is poor: requests of their own, each a new tool', async () => {
    const layer = createToolSearch({ learn: modelOnly, store: createMemoryStore(), logger: quiet });
    const own = tools.map((tool) => tool.name);
    for (let i = 0; i < 160; i++) {
      const query = `zq${i}x wv${i}y for the plan`;
      await layer.prepare({ sessionId: `own-${i}`, tools, messages: turn(query, [own[i % own.length] as string]) });
    }
    await layer.flush();
    // "for the plan" is in every request, with every tool: the model names no tool for it loudly enough to show.
    expect(await top(layer, 'zq999x for the plan')).toEqual([]);
  });

  it('adds no key to the store, keeps no word, and is forgotten with the memory', async () => {
    const { store, keys } = recording();
    const layer = createToolSearch({ learn: modelOnly, store, logger: quiet });
    await feedTemplates(layer, 160);
    expect((await top(layer, 'a trip to porto on thursday with them'))[0]).toBe('send_email');
    // The table's and the memory's keys only: the model lives beside the memory's index, in memory.
    for (const key of keys) expect(key).toMatch(/^learn:default(:u:\d|:32:\d+|:m\d(:\d+)?)$/);
    await layer.clear();
    expect(await top(layer, 'a trip to porto on thursday with them')).toEqual([]);
    await feedTemplates(layer, 160, 'again');
    expect((await top(layer, 'a trip to porto on thursday with them'))[0]).toBe('send_email');
  });
});
