// A scope is any string a host picks (a tenant's id may hold a ':'), and no scope reads, writes or forgets another's
// keys, whatever their names: scope "a:m0" once wrote scope "a"'s memory head, and forgetting it deleted that head.
import { createMemoryStore, createToolSearch, type Message, type ToolSearch } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue } from './fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };

/** A session that searched `query` and called `tool` with a result. */
const session = (query: string, tool: string): Message[] => [
  { role: 'user', content: query },
  { role: 'assistant', toolCalls: [{ id: 's', name: 'search_tools', arguments: JSON.stringify({ query }) }] },
  { role: 'tool', toolCallId: 's', content: '{"found":0,"tools":[],"hint":""}' },
  { role: 'assistant', toolCalls: [{ id: 'c', name: tool, arguments: '{}' }] },
  { role: 'tool', toolCallId: 'c', content: '{"ok":true}' },
];

async function feed(layer: ToolSearch, query: string, tool: string): Promise<void> {
  for (let i = 0; i < 3; i++)
    await layer.prepare({ sessionId: `${query}-${i}`, tools, messages: session(query, tool) });
  await layer.flush();
}

describe('scopes whose names hold the keys’ separator', () => {
  it('keep apart from the scope they extend, and forget only themselves', async () => {
    const store = createMemoryStore();
    const layerOf = (scope: string) => createToolSearch({ learn: { scope }, store, logger: quiet });
    const base = layerOf('a');
    await feed(base, 'rainfall', 'get_forecast');
    // Names that are "a"'s own keys past its prefix: its clock slots, its 32 shards, its memory lanes and pages.
    const keys = [
      ...Array.from({ length: 8 }, (_, j) => `a:u:${j}`),
      ...Array.from({ length: 32 }, (_, i) => `a:32:${i}`),
      ...Array.from({ length: 4 }, (_, lane) => `a:m${lane}`),
      'a:m0:0',
    ];
    for (const scope of keys) {
      const other = layerOf(scope);
      expect(await other.inspectLearned(), scope).toEqual([]);
      // Forgetting a scope deletes its keys, and none of them may be another scope's.
      await other.forgetLearned();
    }
    for (const scope of ['a:m0', 'a:32:0', 'a:%3A', '%', 'a%3Am0']) {
      const other = layerOf(scope);
      await feed(other, `drizzle ${scope}`, 'send_email');
      expect(
        (await other.inspectLearned()).map((c) => c.tool),
        scope,
      ).toContain('send_email');
      await other.forgetLearned();
      expect(await other.inspectLearned(), scope).toEqual([]);
    }
    // "a" still holds what it learned, and nothing the others did, read by a fresh layer from the store.
    const learned = await layerOf('a').inspectLearned();
    expect(learned.map((c) => c.tool)).toEqual(expect.arrayContaining(['get_forecast']));
    expect(learned.some((c) => c.tool === 'send_email')).toBe(false);
    // And its memory of past requests answers as before.
    const result = await layerOf('a').search({ sessionId: 'ask', tools }, { query: 'rainfall' });
    expect('tools' in result && result.tools[0]?.name).toBe('get_forecast');
  });
});
