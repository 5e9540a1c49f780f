// exposure: 'bridge' (SPEC 11): a tools block that never changes within a session, and discoveries still tracked.
import {
  CALL_TOOL_NAME,
  createToolSearch,
  type Message,
  SEARCH_TOOL_NAME,
  type Tool,
  ToolSearchError,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { callAndResult, catalogue, names, recordingLogger } from './fixtures.ts';

const quiet = () => ({ logger: recordingLogger() });

/** An assistant's call_tool call of `name` and its result, as a host appends them. */
function bridgedTurn(id: string, name: string, args: unknown, content: string): Message[] {
  return callAndResult(id, CALL_TOOL_NAME, content, JSON.stringify({ name, arguments: args }));
}

describe('bridge: the tools block', () => {
  it('is [search_tools, call_tool, ...direct tools], with the bridge texts', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge', alwaysDirectTools: ['calculator', 'web_search'] });
    const { tools, bypassed } = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(bypassed).toBe(false);
    expect(names(tools)).toEqual([SEARCH_TOOL_NAME, CALL_TOOL_NAME, 'calculator', 'web_search']);
    expect(tools[2]).toBe(catalogue.find((tool) => tool.name === 'calculator'));
    expect(tools[0]?.description).toMatch(/called with call_tool/);
    expect(tools[0]?.description).toContain('send_email');
    expect(tools[1]?.parameters).toMatchObject({ required: ['name', 'arguments'] });
  });

  it('keeps the block byte-identical (the same objects) over a 30-round session with discoveries and uses', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge', alwaysDirectTools: ['calculator'] });
    const context = { sessionId: 'thirty', tools: catalogue };
    const queries = ['weather', 'email', 'calendar event', 'file', 'stock price', 'currency', 'translate'];
    const messages: Message[] = [{ role: 'user', content: 'do many things' }];
    const first = await layer.prepare({ ...context, messages });
    const block = JSON.stringify(first.tools);
    let discovered = 0;
    for (let round = 1; round < 30; round++) {
      if (round % 3 === 1) {
        const result = await layer.search(context, {
          query: queries[Math.floor(round / 3) % queries.length],
          limit: 2,
        });
        messages.push(...callAndResult(`s${round}`, SEARCH_TOOL_NAME, JSON.stringify(result)));
      } else {
        const { discovered: known } = await layer.prepare({ ...context, messages });
        const name = known[round % known.length] as string;
        const call = await layer.callTool(context, { name, arguments: validArgs(name) });
        expect(call.ok, name).toBe(true);
        messages.push(...bridgedTurn(`c${round}`, name, validArgs(name), 'done'));
      }
      const next = await layer.prepare({ ...context, messages });
      expect(JSON.stringify(next.tools)).toBe(block);
      for (const [i, tool] of next.tools.entries()) expect(tool).toBe(first.tools[i]);
      expect(next.discovered.length).toBeGreaterThanOrEqual(discovered);
      discovered = next.discovered.length;
    }
    expect(discovered).toBeGreaterThanOrEqual(8);
  });

  it('gives every session of a catalogue the same block, and a fresh layer the same bytes', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const a = await layer.prepare({ sessionId: 'a', tools: catalogue });
    const b = await layer.prepare({ sessionId: 'b', tools: [...catalogue] });
    expect(b.tools).toEqual(a.tools);
    for (const [i, tool] of b.tools.entries()) expect(tool).toBe(a.tools[i]);
    const again = await createToolSearch({ ...quiet(), exposure: 'bridge' }).prepare({
      sessionId: 'a',
      tools: catalogue,
    });
    expect(JSON.stringify(again.tools)).toBe(JSON.stringify(a.tools));
  });

  it('stays append-only when the catalogue grows mid-session: the new tool is found and called, not listed', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const before = await layer.prepare({ sessionId: 's', tools: catalogue });
    const added: Tool = {
      name: 'book_flight',
      description: 'Book a flight ticket',
      parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    };
    const grown = { sessionId: 's', tools: [...catalogue, added] };
    const after = await layer.prepare(grown);
    expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
    expect(after.tools[0]?.description).not.toContain('book_flight');
    const found = await layer.search(grown, { query: 'flight' });
    expect(names((found as unknown as { tools: Tool[] }).tools)).toContain('book_flight');
    expect(await layer.callTool(grown, { name: 'book_flight', arguments: { to: 'Oslo' } })).toMatchObject({ ok: true });
    // Another session that starts with the grown catalogue lists it: the block is per session.
    const fresh = await layer.prepare({ ...grown, sessionId: 'other' });
    expect(fresh.tools[0]?.description).toContain('book_flight');
  });

  it('rebuilds the block, once, when it would name a tool outside the enabled groups', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const all = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(all.tools[0]?.description).toContain('send_email');
    const narrowed = { sessionId: 's', tools: catalogue, enabledGroups: ['weather'] };
    const weather = await layer.prepare(narrowed);
    expect(weather.tools[0]?.description).not.toContain('send_email');
    expect(weather.tools[0]?.description).toContain('get_weather');
    expect((await layer.prepare(narrowed)).tools[0]).toBe(weather.tools[0]);
    // Widening again names no hidden tool: the narrowed block stays.
    const widened = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(widened.tools[0]).toBe(weather.tools[0]);
  });

  it('never names a disabled group in the names list, even of a visible tool that is also in it', async () => {
    const tools: Tool[] = Array.from({ length: 12 }, (_, i) => ({
      name: `mail_tool_${i}`,
      description: 'Mail',
      groups: i % 2 ? ['mail', 'secret_ops'] : ['mail'],
    }));
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge', toolNamesBudget: 120 });
    const { tools: block } = await layer.prepare({ sessionId: 's', tools, enabledGroups: ['mail'] });
    expect(block[0]?.description).toMatch(/more tools not listed here, in these groups: mail \(\d+\)/);
    expect(block[0]?.description).not.toContain('secret_ops');
  });

  it('rebuilds when a direct tool changes or leaves, never carrying a stale definition', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge', alwaysDirectTools: ['calculator'] });
    const first = await layer.prepare({ sessionId: 's', tools: catalogue });
    const changed = catalogue.map((tool) => (tool.name === 'calculator' ? { ...tool, description: 'Do maths' } : tool));
    const next = await layer.prepare({ sessionId: 's', tools: changed });
    expect(next.tools[2]?.description).toBe('Do maths');
    expect(first.tools[2]?.description).not.toBe('Do maths');
    const gone = await layer.prepare({ sessionId: 's', tools: catalogue.filter((tool) => tool.name !== 'calculator') });
    expect(names(gone.tools)).toEqual([SEARCH_TOOL_NAME, CALL_TOOL_NAME]);
  });

  it('sends a host that rebuilds its tool objects every round the same bytes, as its own objects', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge', alwaysDirectTools: ['calculator'] });
    const first = await layer.prepare({ sessionId: 's', tools: structuredClone(catalogue) });
    const round = structuredClone(catalogue);
    const next = await layer.prepare({ sessionId: 's', tools: round });
    expect(JSON.stringify(next.tools)).toBe(JSON.stringify(first.tools));
    expect(next.tools[2]).toBe(round.find((tool) => tool.name === 'calculator'));
  });

  it('never lists or exposes a call_tool the host passed back in its tools as one of the catalogue', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge', alwaysDirectTools: [CALL_TOOL_NAME] });
    const theirs: Tool = { name: CALL_TOOL_NAME, description: 'An old copy' };
    const { tools } = await layer.prepare({ sessionId: 's', tools: [...catalogue, theirs] });
    expect(names(tools)).toEqual([SEARCH_TOOL_NAME, CALL_TOOL_NAME]);
    expect(tools[1]).not.toBe(theirs);
    const plain = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const [search] = (await plain.prepare({ sessionId: 's', tools: [...catalogue, theirs] })).tools;
    const listed = search?.description?.split('\n').at(-1)?.split(' ');
    expect(listed).toContain('send_email');
    expect(listed).not.toContain(CALL_TOOL_NAME);
  });

  it('passes a small round through, as the tools mode does', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const few = catalogue.slice(0, 3);
    expect(await layer.prepare({ sessionId: 's', tools: few })).toMatchObject({ tools: few, bypassed: true });
  });

  it('is chosen per call, on a layer made with default options', async () => {
    const layer = createToolSearch(quiet());
    const bridged = await layer.prepare({ sessionId: 's', tools: catalogue, exposure: 'bridge' });
    expect(names(bridged.tools)).toEqual([SEARCH_TOOL_NAME, CALL_TOOL_NAME]);
    const plain = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(names(plain.tools)).toEqual([SEARCH_TOOL_NAME]);
    const back = createToolSearch({ ...quiet(), exposure: 'bridge' });
    expect(names((await back.prepare({ sessionId: 's', tools: catalogue, exposure: 'tools' })).tools)).toEqual([
      SEARCH_TOOL_NAME,
    ]);
  });

  it('says in its search hint to call what it found through call_tool', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const result = await layer.search({ sessionId: 's', tools: catalogue }, { query: 'weather' });
    expect((result as { hint: string }).hint).toMatch(/call_tool/);
    expect((result as unknown as { tools: Tool[] }).tools[0]?.parameters).toEqual(catalogue[3]?.parameters);
    const zh = createToolSearch({ ...quiet(), exposure: 'bridge', locale: 'zh' });
    expect(
      ((await zh.search({ sessionId: 's', tools: catalogue }, { query: 'weather' })) as { hint: string }).hint,
    ).toMatch(/请用 call_tool 调用/);
    const [search, call] = (await zh.prepare({ sessionId: 's', tools: catalogue })).tools;
    expect(search?.description).toMatch(/通过 call_tool 调用/);
    expect(call?.description).toMatch(/调用 search_tools 返回的工具/);
  });

  it('takes the texts option for its own texts', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge', texts: { callToolDescription: 'Run a tool.' } });
    const { tools } = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(tools[1]?.description).toBe('Run a tool.');
  });
});

describe('bridge: history', () => {
  it('reads a call_tool call with a result as a use of the tool it names', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const messages = bridgedTurn('c1', 'get_weather', { city: 'Oslo' }, 'sunny');
    const { discovered } = await layer.prepare({ sessionId: 's', tools: catalogue, messages });
    expect(discovered).toEqual(['get_weather']);
    expect(
      await layer.callTool({ sessionId: 's', tools: catalogue }, { name: 'get_weather', arguments: { city: 'Rome' } }),
    ).toMatchObject({ ok: true });
  });

  it('does not count a refused call, an unanswered call, or a call naming an unknown tool', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const refusal = await layer.callTool({ sessionId: 'x', tools: catalogue }, { name: 'send_email', arguments: {} });
    if (refusal.ok) throw new Error('expected a refusal');
    const messages: Message[] = [
      ...bridgedTurn('c1', 'send_email', {}, JSON.stringify(refusal.result)),
      { role: 'assistant', toolCalls: [{ id: 'c2', name: CALL_TOOL_NAME, arguments: '{"name":"get_weather"}' }] },
      ...bridgedTurn('c3', 'no_such_tool', {}, 'ok'),
      ...callAndResult('c4', CALL_TOOL_NAME, 'ok', 'not json'),
    ];
    expect((await layer.prepare({ sessionId: 's', tools: catalogue, messages })).discovered).toEqual([]);
  });
});

describe('bridge: options', () => {
  it('defaults to tools mode and full results', () => {
    expect(createToolSearch().options).toMatchObject({ exposure: 'tools', searchResults: 'full' });
  });

  it.each([
    [{ exposure: 'native' }, 'exposure', 'must be "tools" or "bridge"'],
    [{ exposure: 'native' }, 'exposure', '"native" is a mode of the OpenAI Responses, Anthropic and AI SDK adapters'],
    [{ searchResults: 'short' }, 'searchResults', 'must be "full" or "compact"'],
    [{ exposure: 'bridge', searchResults: 'compact' }, 'searchResults', 'cannot be used with exposure "bridge"'],
    [{ texts: { callToolDescripton: 'x' } }, 'texts.callToolDescripton', 'is not a text key'],
  ])('rejects %o naming "%s"', (options, path, reason) => {
    const create = () => createToolSearch(options as never);
    expect(create).toThrow(ToolSearchError);
    expect(create).toThrow(`"${path}"`);
    expect(create).toThrow(reason);
  });

  it('rejects bad per-call fields, and per-call compact with bridge, as host mistakes', async () => {
    const layer = createToolSearch(quiet());
    const context = { sessionId: 's', tools: catalogue };
    await expect(layer.prepare({ ...context, exposure: 'native' as never })).rejects.toThrow(/exposure must be/);
    await expect(layer.search({ ...context, searchResults: 'tiny' as never }, { query: 'x' })).rejects.toThrow(
      /searchResults must be/,
    );
    await expect(
      layer.search({ ...context, exposure: 'bridge', searchResults: 'compact' }, { query: 'x' }),
    ).rejects.toThrow(ToolSearchError);
    await expect(layer.callTool({ ...context, exposure: 'bridge', searchResults: 'compact' }, {})).rejects.toThrow(
      /cannot be used with exposure "bridge"/,
    );
  });
});

/** Arguments that fit the fixtures' schemas: every property a string. */
function validArgs(name: string): Record<string, string> {
  const tool = catalogue.find((t) => t.name === name) as Tool;
  const properties = (tool.parameters as { properties: Record<string, unknown> }).properties;
  return Object.fromEntries(Object.keys(properties).map((key) => [key, 'x']));
}
