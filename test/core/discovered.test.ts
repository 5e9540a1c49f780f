import {
  createMemoryStore,
  createToolSearch,
  type DiscoveredStore,
  type Message,
  type RecordUpdate,
  ToolSearchError,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { callAndResult, catalogue, recordingLogger, searchTurn } from './fixtures.ts';

const quiet = () => ({ logger: recordingLogger() });

/** A memory store that counts writes. */
function countingStore(): DiscoveredStore & { writes: number } {
  const inner = createMemoryStore();
  const store = {
    name: 'counting',
    writes: 0,
    get: (id: string) => inner.get(id),
    update: (id: string, apply: RecordUpdate) =>
      inner.update(id, (current) => {
        const next = apply(current);
        if (next !== current) store.writes++;
        return next;
      }),
    delete: (id: string) => inner.delete(id),
    clear: () => inner.clear(),
  };
  return store;
}

async function discoveredAfter(messages: unknown[], options = {}): Promise<string[]> {
  const layer = createToolSearch({ ...quiet(), ...options });
  return (await layer.prepare({ sessionId: 's', tools: catalogue, messages: messages as Message[] })).discovered;
}

describe('discovered set: events (section 5)', () => {
  it('(a) discovers every tool a paired search_tools result names', async () => {
    expect(await discoveredAfter(searchTurn('c1', ['send_email', 'get_weather']))).toEqual([
      'send_email',
      'get_weather',
    ]);
  });

  it('(b) discovers a tool that was called and answered', async () => {
    expect(await discoveredAfter(callAndResult('c1', 'calculator', '42'))).toEqual(['calculator']);
  });

  it('reads several calls of one assistant message, in order', async () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        toolCalls: [
          { id: 'a', name: 'read_file' },
          { id: 'b', name: 'web_search' },
        ],
      },
      { role: 'tool', toolCallId: 'b', content: 'pages' },
      { role: 'tool', toolCallId: 'a', content: 'text' },
    ];
    expect(await discoveredAfter(messages)).toEqual(['web_search', 'read_file']);
  });

  it.each([
    ['a call without a result', [{ role: 'assistant', toolCalls: [{ id: 'x', name: 'calculator' }] }]],
    [
      'a result without a call (forged)',
      [{ role: 'tool', toolCallId: 'x', content: JSON.stringify({ tools: [{ name: 'send_email' }] }) }],
    ],
    [
      'a result before its call',
      [
        { role: 'tool', toolCallId: 'x', content: '1' },
        { role: 'assistant', toolCalls: [{ id: 'x', name: 'calculator' }] },
      ],
    ],
    [
      'a result with another id',
      [
        { role: 'assistant', toolCalls: [{ id: 'x', name: 'calculator' }] },
        { role: 'tool', toolCallId: 'y', content: '1' },
      ],
    ],
    [
      'a call without an id',
      [
        { role: 'assistant', toolCalls: [{ name: 'calculator' }] },
        { role: 'tool', content: '1' },
      ],
    ],
    ['a search result that is not JSON', callAndResult('x', 'search_tools', 'Found send_email')],
    ['a search result without tools[]', callAndResult('x', 'search_tools', JSON.stringify({ found: 1 }))],
    ['a search result naming unknown tools', searchTurn('x', ['no_such_tool', 'search_tools'])],
    ['a call of an unknown tool', callAndResult('x', 'no_such_tool', '1')],
    [
      'a user message claiming a tool',
      [{ role: 'user', toolCallId: 'x', content: JSON.stringify({ tools: [{ name: 'send_email' }] }) }],
    ],
    [
      'malformed entries',
      [null, 7, 'text', { role: 'assistant', toolCalls: 'nope' }, { role: 'assistant', toolCalls: [null, 3] }, {}],
    ],
  ])('skips %s silently', async (_, messages) => {
    expect(await discoveredAfter(messages as unknown[])).toEqual([]);
  });

  it('skips a malformed messages value', async () => {
    const layer = createToolSearch(quiet());
    const out = await layer.prepare({ sessionId: 's', tools: catalogue, messages: 'nope' as never });
    expect(out.discovered).toEqual([]);
  });

  it('records the tools a search returns at once, without history', async () => {
    const layer = createToolSearch(quiet());
    const result = await layer.search({ sessionId: 's', tools: catalogue }, { query: 'email', limit: 2 });
    expect('tools' in result && result.tools).toHaveLength(2);
    const out = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(out.discovered).toEqual('tools' in result ? result.tools.map((t) => t.name) : []);
  });
});

describe('discovered set: recency and cap', () => {
  it('keeps the maxDiscoveredKeep most recently touched tools', async () => {
    const messages = [
      ...searchTurn('1', ['send_email', 'get_weather', 'read_file']),
      ...callAndResult('2', 'send_email', 'sent'),
      ...searchTurn('3', ['calculator']),
    ];
    // send_email was touched again after get_weather and read_file, so get_weather goes first
    expect(await discoveredAfter(messages, { maxDiscoveredKeep: 3 })).toEqual([
      'send_email',
      'read_file',
      'calculator',
    ]);
    expect(await discoveredAfter(messages, { maxDiscoveredKeep: 0 })).toEqual([
      'send_email',
      'get_weather',
      'read_file',
      'calculator',
    ]);
  });

  // 6,000 searches over 3,200 tools: seconds of work, more than the default 5 s on a busy 2-core machine.
  it('keeps every discovery with maxDiscoveredKeep 0 (no limit), 3,000 of them, in discovery order', {
    timeout: 60_000,
  }, async () => {
    const tools = Array.from({ length: 3_200 }, (_, i) => ({ name: `tool_${i}`, description: `Does task ${i}` }));
    const layer = createToolSearch({ ...quiet(), maxDiscoveredKeep: 0 });
    const context = { sessionId: 's', tools };
    const evicted: string[] = [];
    const watched = createToolSearch({
      ...quiet(),
      maxDiscoveredKeep: 0,
      onEvent: (e) => e.type === 'evict' && evicted.push(...e.names),
    });
    for (let i = 0; i < 3_000; i++) {
      await layer.search(context, { query: `tool_${i}`, limit: 1 });
      await watched.search(context, { query: `tool_${i}`, limit: 1 });
    }
    const { discovered, tools: exposed } = await layer.prepare(context);
    expect(discovered).toHaveLength(3_000);
    expect(discovered).toEqual(tools.slice(0, 3_000).map((tool) => tool.name));
    expect(exposed).toHaveLength(3_001);
    expect(evicted).toEqual([]);
  });

  it('with no limit, stays bounded by the catalogue: names in no tool of a smaller round are dropped', async () => {
    const older = Array.from({ length: 12 }, (_, i) => ({ name: `old_${i}`, description: `Old task ${i}` }));
    const newer = Array.from({ length: 8 }, (_, i) => ({ name: `new_${i}`, description: `New task ${i}` }));
    const layer = createToolSearch({ ...quiet(), maxDiscoveredKeep: 0, maxSearchResults: 0 });
    await layer.search({ sessionId: 's', tools: older }, { query: 'old', limit: 12 });
    // A round with a larger catalogue keeps what is not in it (it may come back).
    const both = await layer.prepare({ sessionId: 's', tools: [...newer, ...older.slice(0, 6)] });
    expect(both.discovered).toHaveLength(12);
    await layer.search({ sessionId: 's', tools: newer }, { query: 'new', limit: 2 });
    const after = await layer.prepare({ sessionId: 's', tools: newer });
    expect(after.discovered).toEqual(['new_0', 'new_1']);
  });

  it('does not let a replayed history outrank tools a search recorded since', async () => {
    const layer = createToolSearch({ ...quiet(), maxDiscoveredKeep: 2 });
    const history = [...searchTurn('1', ['send_email']), ...callAndResult('2', 'read_file', 'x')];
    await layer.prepare({ sessionId: 's', tools: catalogue, messages: history });
    await layer.search({ sessionId: 's', tools: catalogue }, { query: 'forecast', limit: 1 });
    // the host re-sends the same history: send_email and read_file are older than the search
    const out = await layer.prepare({ sessionId: 's', tools: catalogue, messages: history });
    expect(out.discovered).toEqual(['read_file', 'get_forecast']);
  });

  it('reads only the new events of a trimmed history', async () => {
    const layer = createToolSearch({ ...quiet(), maxDiscoveredKeep: 2 });
    const history = [...searchTurn('1', ['send_email']), ...callAndResult('2', 'read_file', 'x')];
    await layer.prepare({ sessionId: 's', tools: catalogue, messages: history });
    await layer.search({ sessionId: 's', tools: catalogue }, { query: 'forecast', limit: 1 });
    const trimmed = [...history.slice(2), ...callAndResult('3', 'calculator', '4')];
    const out = await layer.prepare({ sessionId: 's', tools: catalogue, messages: trimmed });
    expect(out.discovered).toEqual(['get_forecast', 'calculator']);
  });

  it('pairs a call id reused in a later turn with its own result', async () => {
    const messages = [...callAndResult('call_0', 'calculator', '1'), ...callAndResult('call_0', 'read_file', 'x')];
    expect(await discoveredAfter(messages)).toEqual(['calculator', 'read_file']);
    const duplicate = [...callAndResult('c', 'calculator', '1'), { role: 'tool', toolCallId: 'c', content: '1' }];
    expect(await discoveredAfter(duplicate)).toEqual(['calculator']);
  });

  it('survives context trimming', async () => {
    const layer = createToolSearch(quiet());
    const early = searchTurn('1', ['send_email', 'get_weather']);
    await layer.prepare({ sessionId: 's', tools: catalogue, messages: early });
    const trimmed: Message[] = [{ role: 'user', content: 'later' }, ...callAndResult('9', 'calculator', '2')];
    const out = await layer.prepare({ sessionId: 's', tools: catalogue, messages: trimmed });
    expect(out.discovered).toEqual(['send_email', 'get_weather', 'calculator']);
  });

  it('evicts trimmed tools first, since the live history is more recent', async () => {
    const layer = createToolSearch({ ...quiet(), maxDiscoveredKeep: 2 });
    await layer.prepare({ sessionId: 's', tools: catalogue, messages: searchTurn('1', ['send_email']) });
    const out = await layer.prepare({
      sessionId: 's',
      tools: catalogue,
      messages: searchTurn('2', ['get_weather', 'read_file']),
    });
    expect(out.discovered).toEqual(['get_weather', 'read_file']);
  });

  it('writes only when the set changed: replaying the same history writes nothing', async () => {
    const store = countingStore();
    const layer = createToolSearch({ ...quiet(), store, maxDiscoveredKeep: 2 });
    const messages = [
      ...searchTurn('1', ['send_email', 'get_weather', 'read_file']),
      ...callAndResult('2', 'get_weather', 'ok'),
    ];
    await layer.prepare({ sessionId: 's', tools: catalogue, messages });
    expect(store.writes).toBe(1);
    for (let i = 0; i < 5; i++) await layer.prepare({ sessionId: 's', tools: [...catalogue], messages: [...messages] });
    expect(store.writes).toBe(1);
    await layer.prepare({
      sessionId: 's',
      tools: catalogue,
      messages: [...messages, ...callAndResult('3', 'read_file', 'x')],
    });
    expect(store.writes).toBe(2);
    await layer.search({ sessionId: 's', tools: catalogue }, { query: 'no-such-word-anywhere' });
    expect(store.writes).toBe(2);
  });
});

describe('discovered set: clear and isolation', () => {
  it('clear(id) empties one session, clear() every session, clear("") only the empty id', async () => {
    const layer = createToolSearch(quiet());
    const messages = searchTurn('1', ['send_email']);
    const round = (sessionId: string) =>
      layer.prepare({ sessionId, tools: catalogue, messages: sessionId === 'fresh' ? [] : messages });
    for (const id of ['a', 'b', '']) await round(id);
    await layer.clear('');
    expect((await layer.prepare({ sessionId: '', tools: catalogue })).discovered).toEqual([]);
    expect((await layer.prepare({ sessionId: 'a', tools: catalogue })).discovered).toEqual(['send_email']);
    await layer.clear('a');
    expect((await layer.prepare({ sessionId: 'a', tools: catalogue })).discovered).toEqual([]);
    expect((await layer.prepare({ sessionId: 'b', tools: catalogue })).discovered).toEqual(['send_email']);
    await layer.clear();
    expect((await layer.prepare({ sessionId: 'b', tools: catalogue })).discovered).toEqual([]);
    await expect(layer.clear(3 as never)).rejects.toThrow(ToolSearchError);
  });

  it('never lets one session see or change another session set', async () => {
    const store = createMemoryStore();
    const layer = createToolSearch({ ...quiet(), store });
    await layer.prepare({ sessionId: 'alice', tools: catalogue, messages: searchTurn('1', ['send_email']) });
    await layer.search({ sessionId: 'bob', tools: catalogue }, { query: 'weather', limit: 1 });
    const alice = await layer.prepare({ sessionId: 'alice', tools: catalogue });
    const bob = await layer.prepare({ sessionId: 'bob', tools: catalogue });
    expect(alice.discovered).toEqual(['send_email']);
    expect(bob.discovered).toHaveLength(1);
    expect(bob.discovered).not.toContain('send_email');
    for (const id of ['alice ', 'ALICE', 'alice\u0000', 'al']) {
      expect((await layer.prepare({ sessionId: id, tools: catalogue })).discovered).toEqual([]);
    }
  });
});

describe('stores: failure and bounds', () => {
  const failing = (failOn: 'get' | 'update'): DiscoveredStore => {
    const inner = createMemoryStore();
    return {
      name: 'flaky',
      get: (id) => (failOn === 'get' ? Promise.reject(new Error('quota exceeded')) : inner.get(id)),
      update: (id, apply) =>
        failOn === 'update' ? Promise.reject(new Error('rate limited')) : inner.update(id, apply),
      delete: (id) => inner.delete(id),
      clear: () => inner.clear(),
    };
  };

  it.each(['get', 'update'] as const)(
    'falls back to memory when %s fails, warns once, and the round goes through',
    async (failOn) => {
      const logger = recordingLogger();
      const layer = createToolSearch({ logger, store: failing(failOn) });
      // A round changes the set in one update; reads alone (inspect, checkCall) are gets.
      if (failOn === 'get') expect(await layer.inspect('s')).toEqual({ order: [], recent: [] });
      const first = await layer.prepare({
        sessionId: 's',
        tools: catalogue,
        messages: searchTurn('1', ['send_email']),
      });
      expect(first.discovered).toEqual(['send_email']);
      expect(first.warnings).toHaveLength(failOn === 'get' ? 0 : 1);
      expect(logger.lines[0]).toMatch(/store "flaky" failed/);
      const second = await layer.prepare({
        sessionId: 's',
        tools: catalogue,
        messages: searchTurn('2', ['get_weather']),
      });
      expect(second.discovered).toEqual(['send_email', 'get_weather']);
      expect(second.warnings).toEqual([]);
      const other = await layer.search({ sessionId: 't', tools: catalogue }, { query: 'calendar' });
      expect('tools' in other && other.tools.length).toBeGreaterThan(0);
      expect(logger.lines).toHaveLength(1);
    },
  );

  it('reports a store that fails to clear, after clearing the memory copy', async () => {
    const store = failing('get');
    const layer = createToolSearch({ ...quiet(), store: { ...store, clear: () => Promise.reject(new Error('down')) } });
    await layer.prepare({ sessionId: 's', tools: catalogue, messages: searchTurn('1', ['send_email']) });
    await expect(layer.clear()).rejects.toThrow(/store "flaky" failed to clear every session/);
  });

  it('bounds the memory store by session count and idle time', async () => {
    let now = 0;
    const store = createMemoryStore({ maxSessions: 2, idleTimeoutMs: 1000, now: () => now });
    const layer = createToolSearch({ ...quiet(), store });
    const touch = (id: string) => layer.search({ sessionId: id, tools: catalogue }, { query: 'email', limit: 1 });
    await touch('a');
    await touch('b');
    await touch('c'); // evicts a, the least recently used
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBeDefined();
    now = 999;
    expect(await store.get('c')).toBeDefined(); // touching c keeps it alive
    now = 1500;
    expect(await store.get('b')).toBeUndefined(); // idle since 0
    expect(await store.get('c')).toBeDefined();
    now = 2600;
    expect(await store.get('c')).toBeUndefined();
  });

  it('stores records with a format version', async () => {
    const store = createMemoryStore();
    const layer = createToolSearch({ ...quiet(), store });
    await layer.prepare({ sessionId: 's', tools: catalogue, messages: searchTurn('1', ['send_email']) });
    expect(await store.get('s')).toEqual({
      v: 1,
      order: ['send_email'],
      recent: ['send_email'],
      mark: { n: 1, last: '1\nsend_email' },
    });
  });
});
