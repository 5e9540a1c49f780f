// One session, several scopes: layers of two scopes over one store (a tenant's and a global one) each learn from the
// same session, each replay gives nothing twice to either, and a record written before sessions kept their scopes
// apart stays every scope's (none gives its pairs again).
import { createMemoryStore, createToolSearch, type Message, type ToolSearch } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue } from './fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
const layerOf = (store: ReturnType<typeof createMemoryStore>, scope: string) =>
  createToolSearch({ learn: { scope }, store, logger: quiet });

/** A history of two turns, each searching and calling a tool. */
const history: Message[] = [
  { role: 'user', content: 'umbrella for tomorrow in lisbon' },
  { role: 'assistant', toolCalls: [{ id: 's1', name: 'search_tools', arguments: '{"query":"umbrella tomorrow"}' }] },
  { role: 'tool', toolCallId: 's1', content: '{"found":0,"tools":[]}' },
  { role: 'assistant', toolCalls: [{ id: 'c1', name: 'get_forecast', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'c1', content: '{"ok":true}' },
  { role: 'user', content: 'and mail it to my sister' },
  { role: 'assistant', toolCalls: [{ id: 's2', name: 'search_tools', arguments: '{"query":"mail my sister"}' }] },
  { role: 'tool', toolCallId: 's2', content: '{"found":0,"tools":[]}' },
  { role: 'assistant', toolCalls: [{ id: 'c2', name: 'send_email', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'c2', content: '{"ok":true}' },
];

/** The history sent at every prefix, as a loop sends it, by each layer in turn. */
async function replay(layers: readonly ToolSearch[], sessionId = 'one'): Promise<void> {
  for (let n = 1; n <= history.length; n++)
    for (const layer of layers) await layer.prepare({ sessionId, tools, messages: history.slice(0, n) });
  for (const layer of layers) await layer.flush();
}

describe('a session that several scopes learn from', () => {
  it('gives each scope what a scope alone learns from it, replayed at every prefix and again', async () => {
    const alone = layerOf(createMemoryStore(), 'tenant');
    await replay([alone]);
    const learned = await alone.inspectLearned();
    expect(learned.map((row) => row.tool).sort()).toContain('send_email');
    const store = createMemoryStore();
    const layers = ['tenant', 'global', 'team'].map((scope) => layerOf(store, scope));
    await replay(layers);
    await replay(layers);
    for (const layer of layers) expect(await layer.inspectLearned()).toEqual(learned);
    // A new layer of each scope, the same session replayed: nothing twice.
    await replay(['tenant', 'global', 'team'].map((scope) => layerOf(store, scope)));
    for (const layer of layers) expect(await layer.inspectLearned()).toEqual(learned);
  });

  it('keeps a record written before scopes were kept apart as every scope’s', async () => {
    const store = createMemoryStore();
    const first = layerOf(store, 'tenant');
    await replay([first]);
    const learned = await first.inspectLearned();
    // The record as an earlier version wrote it: the session's learned part without its scope.
    const record = (await store.get('one')) as Record<string, unknown>;
    expect(record.learnedScope).toBe('tenant');
    const { learnedScope: _, ...older } = record;
    await store.update('one', () => older);
    // Another scope takes the session's part as its own, as before: it gives nothing for pairs already given.
    const second = layerOf(store, 'global');
    await replay([second, first]);
    expect(await second.inspectLearned()).toEqual([]);
    expect(await first.inspectLearned()).toEqual(learned);
  });

  it('gives nothing to a tenth scope: a record keeps the first scope’s part and eight others', async () => {
    const store = createMemoryStore();
    const scopes = Array.from({ length: 10 }, (_, i) => `scope-${i}`);
    const layers = scopes.map((scope) => layerOf(store, scope));
    await replay(layers);
    const learned = await (layers[0] as ToolSearch).inspectLearned();
    expect(learned.length).toBeGreaterThan(0);
    for (const layer of layers.slice(0, 9)) expect(await layer.inspectLearned()).toEqual(learned);
    expect(await (layers[9] as ToolSearch).inspectLearned()).toEqual([]);
    // Another session still gives to it.
    await replay([layers[9] as ToolSearch], 'two');
    expect(await (layers[9] as ToolSearch).inspectLearned()).toEqual(learned);
  });
});
