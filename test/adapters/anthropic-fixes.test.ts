// Issue 15, items 1 to 4: request shapes Anthropic answers with a 400, and Anthropic's own tool search beside the
// adapter. Each through the real `@anthropic-ai/sdk` client against the loopback server, checked against the SDK's types.
import Anthropic from '@anthropic-ai/sdk';
import type {
  Tool as AnthropicTool,
  MessageParam,
  ServerToolUseBlock,
  ToolResultBlockParam,
  ToolSearchToolResultBlock,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { createToolSearch } from 'tool-search-layer';
import {
  answerAnthropicToolUse,
  anthropicToolsToTools,
  prepareAnthropicMessages,
  type ToolExecution,
} from 'tool-search-layer/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue, recordingLogger } from '../core/fixtures.ts';
import { anthropicReply, type MockProvider, type Script, startMockProvider } from './mock-provider.ts';

const tools: AnthropicTool[] = catalogue.map((tool) => ({
  name: tool.name,
  description: tool.description ?? '',
  input_schema: (tool.parameters ?? { type: 'object' }) as AnthropicTool['input_schema'],
}));
const groupOf = (name: string) => catalogue.find((tool) => tool.name === name)?.groups;
const quiet = () => ({ logger: recordingLogger() });
const names = (list: unknown) => (list as { name: string }[]).map((tool) => tool.name);
type Sent = Record<string, unknown> & { name: string };

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function start(script: Script) {
  provider = await startMockProvider(script);
  return { provider, client: new Anthropic({ baseURL: provider.origin, apiKey: 'test', maxRetries: 0 }) };
}

describe('item 1: a bypassed round never sends a repeated name', () => {
  // Three tools, under maxDirectTools: the layer steps aside, and used to send the caller's body as it was.
  const few: AnthropicTool[] = [
    tools[0] as AnthropicTool,
    tools[1] as AnthropicTool,
    { ...(tools[0] as AnthropicTool) },
  ];

  for (const exposure of ['tools', 'native', 'bridge', 'inline'] as const) {
    it(`${exposure}: the request's custom tools have unique names, the first of each name kept`, async () => {
      const { client, provider } = await start(() => anthropicReply({ text: 'ok' }));
      const layer = createToolSearch(quiet());
      const body = { model: 'm', max_tokens: 9, messages: [{ role: 'user' as const, content: 'hi' }], tools: few };
      const request = await prepareAnthropicMessages(layer, body, { sessionId: 's', exposure });
      await client.messages.create(request as Anthropic.MessageCreateParamsNonStreaming);
      const sent = provider.body(0).tools as Sent[];
      expect(names(sent)).toEqual(['send_email', 'read_inbox']);
      expect(sent[0]).toEqual(few[0]);
    });
  }

  it('keeps the caller’s own cache_control, and adds none where four breakpoints are already set', async () => {
    const layer = createToolSearch(quiet());
    const own = { messages: [], tools, cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } };
    expect((await prepareAnthropicMessages(layer, own, { sessionId: 'c1' })).cache_control).toEqual(own.cache_control);
    const mark = { type: 'ephemeral' as const };
    const full = {
      system: [1, 2, 3, 4].map((n) => ({ type: 'text' as const, text: `part ${n}`, cache_control: mark })),
      messages: [{ role: 'user' as const, content: 'hello' }],
      tools,
    };
    expect(await prepareAnthropicMessages(layer, full, { sessionId: 'c2', exposure: 'bridge' })).not.toHaveProperty(
      'cache_control',
    );
    const room = { ...full, system: full.system.slice(0, 3) };
    const prepared = await prepareAnthropicMessages(layer, room, { sessionId: 'c3', exposure: 'bridge' });
    expect(Reflect.get(prepared, 'cache_control')).toEqual(mark);
  });

  it('a round without repeats is sent as the caller gave it', async () => {
    const layer = createToolSearch(quiet());
    const body = { messages: [], tools: tools.slice(0, 3) };
    expect(await prepareAnthropicMessages(layer, body, { sessionId: 's' })).toBe(body);
  });
});

describe('one tool object twice (a host that merges two lists) is sent once', () => {
  const shared = tools[0] as AnthropicTool;
  const rest = tools.slice(1) as AnthropicTool[];
  const rounds = {
    bypassed: [shared, rest[0] as AnthropicTool, rest[1] as AnthropicTool, shared],
    searched: [shared, ...rest, shared],
  };

  for (const exposure of ['native', 'bridge', 'tools', 'inline'] as const) {
    for (const [round, list] of Object.entries(rounds)) {
      it(`${exposure}, ${round}: each name once, through the real client`, async () => {
        const { client, provider } = await start(() => anthropicReply({ text: 'ok' }));
        const layer = createToolSearch({ ...quiet(), alwaysDirectTools: [shared.name] });
        const body = { model: 'm', max_tokens: 9, messages: [{ role: 'user' as const, content: 'hi' }], tools: list };
        const request = await prepareAnthropicMessages(layer, body, { sessionId: 's', exposure });
        await client.messages.create(request as Anthropic.MessageCreateParamsNonStreaming);
        const sent = names(provider.body(0).tools);
        expect(sent).toContain(shared.name);
        expect(sent).toEqual([...new Set(sent)]);
      });
    }

    it(`${exposure}: found by a search, each name once`, async () => {
      const { client, provider } = await start(() => anthropicReply({ text: 'ok' }));
      const layer = createToolSearch(quiet());
      const context = { sessionId: 's', tools: anthropicToolsToTools(rounds.searched, groupOf) };
      await layer.search(context, { query: shared.name });
      const body = {
        model: 'm',
        max_tokens: 9,
        messages: [{ role: 'user' as const, content: 'hi' }],
        tools: rounds.searched,
      };
      const request = await prepareAnthropicMessages(layer, body, { sessionId: 's', exposure, groupOf });
      await client.messages.create(request as Anthropic.MessageCreateParamsNonStreaming);
      const sent = names(provider.body(0).tools);
      expect(sent).toEqual([...new Set(sent)]);
    });
  }
});

describe('item 2: native mode never sends cache_control on a deferred tool', () => {
  it('moves the caller’s breakpoint from a deferred tool to the last tool that is not deferred', async () => {
    const { client, provider } = await start(() => anthropicReply({ text: 'ok' }));
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['calculator'] });
    // The usual way to cache the tools block: a breakpoint on the last tool.
    const marked = tools.map((tool, i) =>
      i === tools.length - 1 ? { ...tool, cache_control: { type: 'ephemeral' as const } } : tool,
    );
    const body = { model: 'm', max_tokens: 9, messages: [{ role: 'user' as const, content: 'hi' }], tools: marked };
    await client.messages.create(await prepareAnthropicMessages(layer, body, { sessionId: 's', exposure: 'native' }));
    const sent = provider.body(0).tools as Sent[];
    expect(sent.filter((tool) => tool.defer_loading === true)).toHaveLength(tools.length - 1);
    expect(sent.filter((tool) => tool.defer_loading === true && 'cache_control' in tool)).toEqual([]);
    // The breakpoint still caches the tools block: it sits on the last tool sent in full.
    const full = sent.filter((tool) => tool.defer_loading !== true);
    expect(names(full)).toEqual(['search_tools', 'calculator']);
    expect(full.map((tool) => tool.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    // The caller's objects are left as they were.
    expect(marked.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
  });
});

describe('item 3: native mode never references a tool it no longer sends', () => {
  it('keeps every tool the history references in `tools`, deferred, after enabledGroups narrow; calls of it are refused', async () => {
    const script: Script = (_r, index) =>
      [
        anthropicReply({ uses: [['search_tools', { query: 'weather forecast', limit: 1 }]] }),
        anthropicReply({ uses: [['get_forecast', { city: 'Oslo' }]] }),
        anthropicReply({ text: 'done' }),
      ][index];
    const { client, provider } = await start(script);
    const layer = createToolSearch(quiet());
    const ran: string[] = [];
    const messages: MessageParam[] = [{ role: 'user', content: 'Weather?' }];
    const rounds = [['weather', 'mail'], ['mail'], ['mail']];
    for (const enabledGroups of rounds) {
      const options = { sessionId: 'g', groupOf, exposure: 'native' as const, enabledGroups };
      const body = { model: 'm', max_tokens: 9, messages, tools };
      const reply = await client.messages.create(await prepareAnthropicMessages(layer, body, options));
      messages.push({ role: 'assistant', content: reply.content });
      const results: ToolResultBlockParam[] = [];
      for (const block of reply.content) {
        if (block.type !== 'tool_use') continue;
        const execute = (call: ToolExecution<ToolUnion>) => void ran.push(call.name);
        results.push(await answerAnthropicToolUse(layer, block, { ...options, tools, execute }));
      }
      if (results.length === 0) break;
      messages.push({ role: 'user', content: results });
    }
    const referenced = JSON.stringify(provider.body(1).messages).match(/"tool_name":"[^"]+"/g) ?? [];
    expect(referenced).toEqual(['"tool_name":"get_forecast"']);
    for (const index of [1, 2]) {
      const sent = provider.body(index).tools as Sent[];
      for (const reference of referenced) {
        const name = JSON.parse(`{${reference}}`).tool_name as string;
        expect(sent.find((tool) => tool.name === name)?.defer_loading).toBe(true);
      }
      // Tools of the weather group that were never referenced are gone with the group.
      expect(names(sent)).not.toContain('get_weather');
      expect(names(sent)).not.toContain('query_city_weather');
    }
    expect(ran).toEqual([]);
    const refusal = (provider.body(2).messages as MessageParam[]).at(-1)?.content as ToolResultBlockParam[];
    expect(refusal[0]?.is_error).toBe(true);
    expect(refusal[0]?.content as string).toMatch(/^\{"notCalled":"get_forecast"/);
  });
});

describe('item 4: Anthropic’s server-side tool search beside the adapter', () => {
  // What the API returns when its own tool search loaded send_email, then the model called it in the same turn.
  // Typed as the SDK's response blocks, so the mock's shapes are Anthropic's published ones.
  const serverSearch = (query: string, loaded: string[]): [ServerToolUseBlock, ToolSearchToolResultBlock] => [
    {
      type: 'server_tool_use',
      id: 'srvtoolu_1',
      name: 'tool_search_tool_bm25',
      input: { query },
      caller: { type: 'direct' },
    },
    {
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: {
        type: 'tool_search_tool_search_result',
        tool_references: loaded.map((name) => ({ type: 'tool_reference' as const, tool_name: name })),
      },
    },
  ];
  const bm25: ToolUnion = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };

  for (const exposure of ['native', 'tools'] as const) {
    it(`${exposure}: a tool it loaded runs, and counts as discovered from the history`, async () => {
      const script: Script = (_r, index) =>
        index === 0
          ? {
              ...(anthropicReply({ uses: [['send_email', { to: 'a@b.c' }]] }) as object),
              content: [
                ...serverSearch('send email', ['send_email']),
                { type: 'tool_use', id: 'toolu_x', name: 'send_email', input: { to: 'a@b.c' } },
              ],
            }
          : anthropicReply({ text: 'sent' });
      const { client, provider } = await start(script);
      const layer = createToolSearch(quiet());
      const all = [...tools, bm25];
      const options = { sessionId: 'srv', exposure };
      const messages: MessageParam[] = [{ role: 'user', content: 'Mail Ann.' }];
      const body = { model: 'm', max_tokens: 9, messages, tools: all };
      const request = await prepareAnthropicMessages(layer, body, options);
      expect(request.tools.at(-1)).toBe(bm25);
      const reply = await client.messages.create(request);
      const use = reply.content.find((block) => block.type === 'tool_use');
      if (use?.type !== 'tool_use') throw new Error('no tool_use');
      const calls: unknown[] = [];
      const execute = (call: ToolExecution<ToolUnion>) => {
        calls.push(call.arguments);
        return 'sent';
      };
      const answer = await answerAnthropicToolUse(layer, use, { ...options, tools: all, execute, message: reply });
      expect(answer).toEqual({ type: 'tool_result', tool_use_id: 'toolu_x', content: 'sent' });
      expect(calls).toEqual([{ to: 'a@b.c' }]);
      messages.push({ role: 'assistant', content: reply.content }, { role: 'user', content: [answer] });
      await client.messages.create(await prepareAnthropicMessages(layer, { ...body, messages }, options));
      // A fresh layer reads the discovery from the history alone.
      const fresh = createToolSearch(quiet());
      await prepareAnthropicMessages(fresh, { messages, tools: all }, options);
      const check = await fresh.checkCall({ sessionId: 'srv', tools: anthropicToolsToTools(all) }, 'send_email');
      expect(check).toEqual({ ok: true });
      if (exposure === 'tools') expect(names(provider.body(1).tools)).toContain('send_email');
    });
  }

  it('without the message, a tool the server search loaded is refused, as the docs warn', async () => {
    const layer = createToolSearch(quiet());
    const use = { type: 'tool_use' as const, id: 'toolu_y', name: 'send_email', input: {} };
    const answer = await answerAnthropicToolUse(layer, use, { sessionId: 'n', tools, execute: () => 'sent' });
    expect(answer.is_error).toBe(true);
  });
});
