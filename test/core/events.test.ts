// onEvent, inspect and forget: what a host watching the layer sees, in order, including a store outage.
import {
  createMemoryStore,
  createToolSearch,
  type DiscoveredStore,
  ToolSearchError,
  type ToolSearchEvent,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { callAndResult, catalogue, recordingLogger, searchTurn } from './fixtures.ts';

/** A memory store that fails every call while `down` is set. */
function breakable() {
  const inner = createMemoryStore();
  const state = { down: false };
  const gate = async () => {
    if (state.down) throw new Error('503 unavailable');
  };
  const store: DiscoveredStore = {
    name: 'breakable',
    get: async (id) => {
      await gate();
      return inner.get(id);
    },
    update: async (id, apply) => {
      await gate();
      return inner.update(id, apply);
    },
    delete: (id) => inner.delete(id),
    clear: () => inner.clear(),
  };
  return { store, state };
}

describe('events', () => {
  it('reports a scripted session in order, through an outage and its recovery', async () => {
    const events: ToolSearchEvent[] = [];
    const { store, state } = breakable();
    const layer = createToolSearch({
      store,
      logger: recordingLogger(),
      maxDiscoveredKeep: 2,
      storeRetryMs: 0,
      onEvent: (event) => events.push(event),
    });
    const s = { sessionId: 's', tools: catalogue };
    await layer.search(s, { query: 'forecast', limit: 1 });
    await layer.prepare({ ...s, messages: callAndResult('c1', 'calculator', '42') });
    await layer.checkCall(s, 'read_inbox');
    await layer.checkCall(s, 'no_such_tool');
    state.down = true;
    await layer.search(s, { query: 'translate', limit: 1 }); // evicts get_forecast, in memory
    state.down = false;
    await layer.prepare(s); // merged back
    await layer.forget('s', ['calculator', 'web_search']);
    expect(events).toEqual([
      { type: 'search', sessionId: 's', query: 'forecast', found: 1, names: ['get_forecast'] },
      { type: 'discover', sessionId: 's', names: ['get_forecast'], source: 'search' },
      { type: 'discover', sessionId: 's', names: ['calculator'], source: 'history' },
      { type: 'call-refused', sessionId: 's', name: 'read_inbox', reason: 'undiscovered' },
      { type: 'call-refused', sessionId: 's', name: 'no_such_tool', reason: 'unknown' },
      { type: 'search', sessionId: 's', query: 'translate', found: 1, names: ['translate_text'] },
      { type: 'store-fallback', store: 'breakable', sessionId: 's', error: '503 unavailable' },
      { type: 'discover', sessionId: 's', names: ['translate_text'], source: 'search' },
      { type: 'evict', sessionId: 's', names: ['get_forecast'] },
      { type: 'store-recover', store: 'breakable', sessions: ['s'] },
      { type: 'evict', sessionId: 's', names: ['calculator'] },
    ]);
    expect(await layer.inspect('s')).toEqual({ order: ['translate_text'], recent: ['translate_text'] });
  });

  it('reports a tool discovered by checkCall in discover mode with source call', async () => {
    const events: ToolSearchEvent[] = [];
    const layer = createToolSearch({ logger: recordingLogger(), onEvent: (event) => events.push(event) });
    await layer.checkCall({ sessionId: 's', tools: catalogue }, 'read_inbox', { onUndiscoveredCall: 'discover' });
    expect(events.at(-1)).toEqual({ type: 'discover', sessionId: 's', names: ['read_inbox'], source: 'call' });
  });

  it('warns once about a listener that throws or rejects, and never breaks a round', async () => {
    const logger = recordingLogger();
    let calls = 0;
    const layer = createToolSearch({
      logger,
      onEvent: (() => {
        calls++;
        if (calls % 2 === 0) return Promise.reject(new Error('async listener'));
        throw new Error('listener bug');
      }) as () => void,
    });
    const s = { sessionId: 's', tools: catalogue };
    const found = await layer.search(s, { query: 'email', limit: 2 });
    expect('tools' in found && found.tools).toHaveLength(2);
    const round = await layer.prepare({ ...s, messages: searchTurn('1', ['calculator']) });
    expect(round.discovered).toEqual(['tools' in found && found.tools.map((t) => t.name), 'calculator'].flat());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(logger.lines.filter((line) => line.includes('onEvent'))).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/the onEvent listener threw \(listener bug\)/);
  });

  it('validates onEvent', () => {
    expect(() => createToolSearch({ onEvent: 'log' as never })).toThrow(/"onEvent": must be a function/);
  });
});

describe('inspect and forget', () => {
  it('shows the set in exposure and recency order, and forgets names', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    const s = { sessionId: 's', tools: catalogue };
    expect(await layer.inspect('s')).toEqual({ order: [], recent: [] });
    await layer.prepare({ ...s, messages: [...searchTurn('1', ['send_email', 'get_weather'])] });
    await layer.search(s, { query: 'send email', limit: 1 });
    expect(await layer.inspect('s')).toEqual({
      order: ['send_email', 'get_weather'],
      recent: ['get_weather', 'send_email'],
    });
    await layer.forget('s', ['send_email', 'not_there']);
    expect(await layer.inspect('s')).toEqual({ order: ['get_weather'], recent: ['get_weather'] });
    expect((await layer.prepare(s)).discovered).toEqual(['get_weather']);
    expect(await layer.inspect('t')).toEqual({ order: [], recent: [] });
  });

  it('forgetting a name the set does not hold writes nothing', async () => {
    let writes = 0;
    const inner = createMemoryStore();
    const store: DiscoveredStore = {
      ...inner,
      name: 'counting',
      get: (id) => inner.get(id),
      update: (id, apply) =>
        inner.update(id, (current) => {
          const next = apply(current);
          if (next !== current) writes++;
          return next;
        }),
      delete: (id) => inner.delete(id),
      clear: () => inner.clear(),
    };
    const layer = createToolSearch({ store, logger: recordingLogger() });
    await layer.search({ sessionId: 's', tools: catalogue }, { query: 'calculator', limit: 1 });
    writes = 0;
    await layer.forget('s', ['web_search']);
    expect(writes).toBe(0);
  });

  it('throws ToolSearchError for host mistakes', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    await expect(layer.inspect(1 as never)).rejects.toThrow(ToolSearchError);
    await expect(layer.forget('s', 'send_email' as never)).rejects.toThrow(/names must be an array of strings/);
  });
});

describe('events of the bridge', () => {
  it('announces callTool refusals with their reason, once, and a bridged use read from history as source call', async () => {
    const events: ToolSearchEvent[] = [];
    const layer = createToolSearch({
      logger: recordingLogger(),
      exposure: 'bridge',
      onEvent: (event) => events.push(event),
    });
    const s = { sessionId: 's', tools: catalogue };
    await layer.search(s, { query: 'forecast', limit: 1 });
    events.length = 0;
    await layer.callTool(s, 'not json');
    await layer.callTool(s, { name: 'search_tools', arguments: {} });
    await layer.callTool(s, { name: 'read_inbox', arguments: {} });
    await layer.callTool(s, { name: 'get_forecast', arguments: { city: 7 } });
    const ok = await layer.callTool(s, { name: 'get_forecast', arguments: { city: 'Oslo', days: '2' } });
    expect(ok.ok).toBe(true);
    expect(events).toEqual([
      { type: 'call-refused', sessionId: 's', name: '', reason: 'malformed' },
      { type: 'call-refused', sessionId: 's', name: 'search_tools', reason: 'self' },
      { type: 'call-refused', sessionId: 's', name: 'read_inbox', reason: 'undiscovered' },
      { type: 'call-refused', sessionId: 's', name: 'get_forecast', reason: 'invalid-arguments' },
    ]);
    events.length = 0;
    const bridged = (id: string, name: string) => [
      {
        role: 'assistant' as const,
        toolCalls: [{ id, name: 'call_tool', arguments: JSON.stringify({ name, arguments: {} }) }],
      },
      { role: 'tool' as const, toolCallId: id, content: 'done' },
    ];
    await layer.prepare({
      ...s,
      messages: [...bridged('b1', 'calculator'), ...callAndResult('c2', 'web_search', 'ok')],
    });
    expect(events).toEqual([
      { type: 'discover', sessionId: 's', names: ['calculator'], source: 'call' },
      { type: 'discover', sessionId: 's', names: ['web_search'], source: 'history' },
    ]);
  });
});
