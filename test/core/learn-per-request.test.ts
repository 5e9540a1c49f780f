// A layer built per request (as a Worker builds one), on a store whose storage its layers share: what the learners of
// that storage keep between requests (the sessions they credited, the terms they resolved) changes nothing a layer
// learns or ranks. Each case is held to one layer living through the same rounds on a store of its own.
import {
  createMemoryStore,
  createToolSearch,
  type DiscoveredStore,
  type Message,
  type Tool,
  type ToolSearch,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names } from './fixtures.ts';
import { asked, taught, turn, unshared } from './learn-share-fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };

const layerOn = (store: DiscoveredStore, learn: object = {}) =>
  createToolSearch({ learn, store, logger: quiet, maxDirectTools: 1 });

/** Rankings of the asked requests, and of requests that take a few words of each taught one. */
const rankings = (layer: ToolSearch, on: readonly Tool[] = tools): Promise<string[][]> =>
  Promise.all(
    [...asked, 'lisbon tomorrow', 'notes down', 'haircut week'].map(async (query) => {
      const result = await layer.search({ sessionId: 'ask', tools: on }, { query });
      if ('error' in result) throw new Error(String(result.error));
      return names(result.tools);
    }),
  );

/** A long session's rounds: each a new taught request after the history of the rounds before it. */
function rounds(count: number): Message[][] {
  const out: Message[][] = [];
  let history: Message[] = [];
  for (let r = 0; r < count; r++) {
    const [query, called] = taught[r % taught.length] as [string, string[]];
    // Each round's call ids apart from the others', as a real loop's are.
    const next = turn(`${query} ${r}`, called).map((message) =>
      message.role === 'assistant' && message.toolCalls
        ? { ...message, toolCalls: message.toolCalls.map((call) => ({ ...call, id: `${call.id}-${r}` })) }
        : message.role === 'tool'
          ? { ...message, toolCallId: `${message.toolCallId}-${r}` }
          : message,
    );
    history = [...history, ...next];
    out.push(history);
  }
  return out;
}

describe('a layer per request on one storage', () => {
  it('learns a long session replayed round by round as one layer does, with or without the storage shared', async () => {
    const histories = rounds(14);
    const one = layerOn(createMemoryStore());
    for (const messages of histories) await one.prepare({ sessionId: 'long', tools, messages });
    await one.flush();
    for (const shared of [true, false]) {
      const base = createMemoryStore();
      const store = shared ? base : unshared(base);
      for (const messages of histories) {
        const layer = layerOn(store);
        await layer.prepare({ sessionId: 'long', tools, messages });
        // The history again, through another new layer: it gives nothing twice.
        await layerOn(store).prepare({ sessionId: 'long', tools, messages });
        await layer.flush();
      }
      const last = layerOn(store);
      expect(await last.inspectLearned()).toEqual(await one.inspectLearned());
      expect(await rankings(last)).toEqual(await rankings(one));
    }
  });

  it('credits a session again once a layer of the storage cleared the store', async () => {
    const store = createMemoryStore();
    const messages = turn(...(taught[0] as [string, string[]]));
    const first = layerOn(store);
    await first.prepare({ sessionId: 's', tools, messages });
    await first.flush();
    const learned = await first.inspectLearned();
    expect(learned.length).toBeGreaterThan(0);
    await layerOn(store).clear();
    expect(await layerOn(store).inspectLearned()).toEqual([]);
    // The same history, to a new layer: the store holds nothing of it, so it is credited anew.
    const again = layerOn(store);
    await again.prepare({ sessionId: 's', tools, messages });
    await again.flush();
    expect(await again.inspectLearned()).toEqual(learned);
  });

  it('makes a session’s requests in a layer with a memory after a layer without one read the same history', async () => {
    const store = createMemoryStore();
    const messages = turn(...(taught[0] as [string, string[]]));
    const recorded = async () =>
      Object.keys(((await store.get('s')) as { learned?: Record<string, number> } | undefined)?.learned ?? {});
    const noMemory = layerOn(store, { memoryBytes: 0 });
    await noMemory.prepare({ sessionId: 's', tools, messages });
    await noMemory.flush();
    // A request's key in the session's record starts with a tab (its turn).
    expect((await recorded()).filter((key) => key.startsWith('\t'))).toEqual([]);
    const withMemory = layerOn(store);
    await withMemory.prepare({ sessionId: 's', tools, messages });
    await withMemory.flush();
    expect((await recorded()).filter((key) => key.startsWith('\t'))).toEqual(['\t1']);
  });

  it('ranks as one layer through commits between requests, two catalogues and two scopes', async () => {
    const base = createMemoryStore();
    // The reference layers' store gives no storage identity: each keeps what it reads to itself.
    const alone = unshared(createMemoryStore());
    const half = tools.slice(0, Math.ceil(tools.length / 2)).concat(tools.filter((t) => t.name === 'get_forecast'));
    // The table alone (no memory of requests), so the terms' values are all that ranks.
    const learn = (scope: string) => ({ scope, memoryBytes: 0 });
    const one = { a: layerOn(alone, learn('a')), b: layerOn(alone, learn('b')) };
    // Scope b learns other tools for the same requests: a reader that answered b from a's terms would rank as a.
    const other = (name: string) =>
      name === 'get_forecast' ? 'calculator' : name === 'write_file' ? 'read_inbox' : name;
    for (const [i, [query, called]] of taught.entries()) {
      for (const scope of ['a', 'b'] as const) {
        const messages = turn(query, scope === 'a' ? called : called.map(other));
        const layer = layerOn(base, learn(scope));
        await layer.prepare({ sessionId: `s${i}`, tools, messages });
        await layer.flush();
        await one[scope].prepare({ sessionId: `s${i}`, tools, messages });
        await one[scope].flush();
        // Between commits, a new layer of each scope over each catalogue ranks as the layer that lived through them.
        for (const s of ['a', 'b'] as const)
          for (const on of [tools, half])
            expect(await rankings(layerOn(base, learn(s)), on)).toEqual(await rankings(one[s], on));
      }
    }
    expect(await rankings(one.a)).not.toEqual(await rankings(one.b));
  });

  it('ranks as one layer for each of more scopes than an isolate keeps the terms of, round after round', async () => {
    const base = createMemoryStore();
    const alone = unshared(createMemoryStore());
    const names = ['get_forecast', 'write_file', 'send_email', 'create_event', 'calculator', 'read_inbox'];
    const scopes = Array.from({ length: 12 }, (_, i) => `tenant-${i}`);
    const learn = (scope: string) => ({ scope, memoryBytes: 0 });
    const one = new Map(scopes.map((scope) => [scope, layerOn(alone, learn(scope))]));
    // Each scope learns its own tool for the same requests.
    for (const [i, scope] of scopes.entries())
      for (const [k, [query]] of taught.entries()) {
        const messages = turn(query, [names[(i + k) % names.length] as string]);
        const layer = layerOn(base, learn(scope));
        await layer.prepare({ sessionId: `${scope}-${k}`, tools, messages });
        await layer.flush();
        await (one.get(scope) as ToolSearch).prepare({ sessionId: `${scope}-${k}`, tools, messages });
        await (one.get(scope) as ToolSearch).flush();
      }
    for (let round = 0; round < 2; round++)
      for (const scope of scopes)
        expect(await rankings(layerOn(base, learn(scope)))).toEqual(await rankings(one.get(scope) as ToolSearch));
  });
});
