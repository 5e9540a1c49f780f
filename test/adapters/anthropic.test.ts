// tool-search-layer/anthropic against the real `@anthropic-ai/sdk` client, talking to a scripted provider on loopback.
import Anthropic from '@anthropic-ai/sdk';
import type {
  Tool as AnthropicTool,
  MessageParam,
  ToolResultBlockParam,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { createToolSearch, type SearchResult, type ToolSearch } from 'tool-search-layer';
import {
  answerAnthropicToolUse,
  anthropicMessagesToMessages,
  anthropicToolsToTools,
  messagesToAnthropicMessages,
  prepareAnthropicMessages,
  type ToolExecution,
  toolToAnthropicTool,
} from 'tool-search-layer/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue, recordingLogger } from '../core/fixtures.ts';
import { anthropicReply, type MockProvider, type Script, startMockProvider } from './mock-provider.ts';

const tools: AnthropicTool[] = catalogue.map((tool) => ({
  name: tool.name,
  description: tool.description ?? '',
  input_schema: (tool.parameters ?? { type: 'object' }) as AnthropicTool['input_schema'],
}));
const webSearch: ToolUnion = { type: 'web_search_20250305', name: 'web_search' };
const groupOf = (name: string) => catalogue.find((tool) => tool.name === name)?.groups;
const quiet = () => ({ logger: recordingLogger() });
const names = (list: unknown) => (list as { name: string }[]).map((tool) => tool.name);

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function start(script: Script) {
  provider = await startMockProvider(script);
  return { provider, client: new Anthropic({ baseURL: provider.origin, apiKey: 'test', maxRetries: 0 }) };
}

/** Runs a Messages session until the model answers with text; returns the history and what ran. */
async function session(
  layer: ToolSearch,
  client: Anthropic,
  options: { native?: boolean; rounds?: number; onUndiscoveredCall?: 'hint' | 'discover' } = {},
) {
  const calls: ToolExecution<ToolUnion>[] = [];
  const execute = (call: ToolExecution<ToolUnion>) => {
    calls.push(call);
    return `ran ${call.name}`;
  };
  const messages: MessageParam[] = [{ role: 'user', content: 'Plan my week.' }];
  const common = { sessionId: 'a1', groupOf, exposure: options.native ? ('native' as const) : ('tools' as const) };
  for (let round = 0; round < (options.rounds ?? 12); round++) {
    const body = { model: 'mock-model', max_tokens: 512, system: 'You help.', messages, tools };
    const reply = await client.messages.create(await prepareAnthropicMessages(layer, body, common));
    messages.push({ role: 'assistant', content: reply.content });
    const results: ToolResultBlockParam[] = [];
    for (const block of reply.content) {
      if (block.type !== 'tool_use') continue;
      const answer = { ...common, tools, execute, onUndiscoveredCall: options.onUndiscoveredCall };
      results.push(await answerAnthropicToolUse(layer, block, answer));
    }
    if (results.length === 0) break;
    messages.push({ role: 'user', content: results });
  }
  return { messages, calls };
}

const toolResults = (messages: readonly MessageParam[]) =>
  messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result');

describe("Anthropic Messages, exposure 'tools' (the tools array replaced at each discovery)", () => {
  const script: Script = (_r, index) =>
    [
      anthropicReply({ text: 'Let me look.', uses: [['search_tools', { query: 'weather forecast', limit: 3 }]] }),
      anthropicReply({ uses: [['get_forecast', { city: 'Oslo', days: '2' }]] }),
      anthropicReply({ text: 'Rain all week.' }),
    ][index];

  it('sends exactly the exposed tools, as the caller’s own objects, and Anthropic’s own tools as they are', async () => {
    const { client, provider } = await start(script);
    const layer = createToolSearch(quiet());
    const body = (messages: MessageParam[]) => ({ model: 'm', max_tokens: 9, messages, tools: [...tools, webSearch] });
    const first = await prepareAnthropicMessages(layer, body([]), { sessionId: 'p', exposure: 'tools' });
    expect(names(first.tools)).toEqual(['search_tools', 'web_search']);
    expect(first.tools.at(-1)).toBe(webSearch);
    const { messages, calls } = await session(layer, client);
    expect(provider.requests.map((r) => names(r.body.tools))).toEqual([
      ['search_tools'],
      ['search_tools', 'get_forecast', 'get_weather', 'query_city_weather'],
      ['search_tools', 'get_forecast', 'get_weather', 'query_city_weather'],
    ]);
    expect((provider.body(1).tools as unknown[])[1]).toEqual(tools[4]);
    expect(calls).toEqual([{ name: 'get_forecast', arguments: { city: 'Oslo', days: '2' }, tool: tools[4] }]);
    const [search, forecast] = toolResults(messages) as ToolResultBlockParam[];
    expect(JSON.parse(search?.content as string).tools[0].name).toBe('get_forecast');
    expect(forecast?.content).toBe('ran get_forecast');
  });

  it('reads discoveries back from the tool results of a provider round trip', async () => {
    const { client, provider } = await start(script);
    await session(createToolSearch(quiet()), client);
    const fresh = createToolSearch(quiet());
    const history = provider.body(2).messages as MessageParam[];
    const request = await prepareAnthropicMessages(
      fresh,
      { messages: history, tools },
      { sessionId: 'x', exposure: 'tools' },
    );
    expect(names(request.tools)).toEqual(['search_tools', 'get_forecast', 'get_weather', 'query_city_weather']);
  });

  it('converts messages and tools in both directions', () => {
    const history: MessageParam[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Computing.' },
          { type: 'tool_use', id: 't1', name: 'calculator', input: { expression: '1+1' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: '2' }] }] },
    ];
    const messages = anthropicMessagesToMessages(history, 'Be brief.');
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: 'Computing.',
        toolCalls: [{ id: 't1', name: 'calculator', arguments: '{"expression":"1+1"}' }],
      },
      { role: 'tool', toolCallId: 't1', content: '2' },
    ]);
    const back = messagesToAnthropicMessages(messages);
    expect(back.system).toBe('Be brief.');
    expect(anthropicMessagesToMessages(back.messages, back.system)).toEqual(messages);
    const layerTools = anthropicToolsToTools([...tools, webSearch], groupOf);
    expect(layerTools).toHaveLength(tools.length);
    expect(layerTools[0]).toEqual({ ...catalogue[0] });
    expect(anthropicToolsToTools(tools, groupOf)[0]).toBe(layerTools[0]);
    expect(toolToAnthropicTool(layerTools[0] as never)).toEqual(tools[0]);
  });
});

describe('Anthropic Messages, native mode (defer_loading and tool_reference)', () => {
  const queries = ['weather forecast', 'send email', 'calendar event', 'read file', 'stock price'];
  const targets = ['get_forecast', 'send_email', 'create_event', 'read_file', 'getStockPrice'];
  const tenRounds: Script = (_r, index) => {
    if (index >= 10) return anthropicReply({ text: 'All done.' });
    const step = Math.floor(index / 2);
    return index % 2 === 0
      ? anthropicReply({ uses: [['search_tools', { query: queries[step], limit: 3 }]] })
      : anthropicReply({ uses: [[targets[step] as string, {}]] });
  };

  it('keeps the tools array byte-identical for ten rounds: every catalogue tool deferred but search_tools and the direct tools', async () => {
    const { client, provider } = await start(tenRounds);
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['calculator'] });
    const { messages, calls } = await session(layer, client, { native: true });
    expect(provider.requests).toHaveLength(11);
    expect(new Set(provider.requests.map((r) => JSON.stringify(r.body.tools))).size).toBe(1);
    const sent = provider.body(0).tools as Record<string, unknown>[];
    expect(names(sent)).toEqual([
      'search_tools',
      'calculator',
      ...catalogue.map((t) => t.name).filter((n) => n !== 'calculator'),
    ]);
    expect(sent[0]?.defer_loading).toBeUndefined();
    expect(sent[1]).toEqual(tools.find((t) => t.name === 'calculator'));
    for (const tool of sent.slice(2)) {
      expect(tool).toEqual({ ...tools.find((t) => t.name === tool.name), defer_loading: true });
    }
    // The system prompt and the earlier messages are sent again unchanged: each request extends the last.
    for (let i = 1; i < provider.requests.length; i++) {
      const before = provider.body(i - 1).messages as unknown[];
      expect((provider.body(i).messages as unknown[]).slice(0, before.length)).toEqual(before);
      expect(provider.body(i).system).toBe('You help.');
    }
    expect(calls.map((c) => c.name)).toEqual(targets);
    // Searches are answered with tool_reference blocks, which the API expands in place.
    const first = toolResults(messages)[0] as ToolResultBlockParam;
    expect(first.content).toEqual(expect.arrayContaining([{ type: 'tool_reference', tool_name: 'get_forecast' }]));
    expect((first.content as { type: string }[]).every((b) => b.type === 'tool_reference')).toBe(true);
  });

  it('reads discoveries back from tool_reference results, so the discovered set and the store work as in portable mode', async () => {
    const { client } = await start(tenRounds);
    const { messages } = await session(createToolSearch(quiet()), client, { native: true, rounds: 4 });
    const read = anthropicMessagesToMessages(messages);
    const searchResult = read.find((m) => m.role === 'tool');
    expect(JSON.parse(searchResult?.content ?? '').tools).toEqual(expect.arrayContaining([{ name: 'get_forecast' }]));
    const fresh = createToolSearch(quiet());
    const request = await prepareAnthropicMessages(fresh, { messages, tools }, { sessionId: 'n', exposure: 'tools' });
    expect(names(request.tools)).toEqual(expect.arrayContaining(['get_forecast', 'send_email']));
  });

  it('never sends or loads a tool outside the enabled groups', async () => {
    const layer = createToolSearch(quiet());
    const options = { sessionId: 'g', groupOf, native: true, enabledGroups: ['mail'] };
    const request = await prepareAnthropicMessages(layer, { messages: [], tools }, options);
    const sent = names(request.tools);
    expect(sent).toContain('send_email');
    expect(sent).not.toContain('get_weather');
    expect(sent).toContain('calculator');
    const use = { type: 'tool_use' as const, id: 'u2', name: 'search_tools', input: { query: 'weather forecast' } };
    const answer = await answerAnthropicToolUse(layer, use, { ...options, tools, execute: () => '' });
    expect(JSON.stringify(answer)).not.toMatch(/get_weather|get_forecast|query_city_weather/);
  });

  it('references only tools the history has not loaded yet; a search of loaded tools alone answers as text', async () => {
    const layer = createToolSearch(quiet());
    const options = { sessionId: 'again', tools, native: true, execute: () => '' };
    const messages: MessageParam[] = [{ role: 'user', content: 'Forecast, please.' }];
    const ask = async (id: string, query: string) => {
      await prepareAnthropicMessages(layer, { messages, tools }, options);
      const use = { type: 'tool_use' as const, id, name: 'search_tools', input: { query, limit: 3 } };
      const answer = await answerAnthropicToolUse(layer, use, options);
      messages.push({ role: 'assistant', content: [use] }, { role: 'user', content: [answer] });
      return answer;
    };
    const first = await ask('u1', 'weather forecast');
    const loaded = (first.content as { tool_name: string }[]).map((block) => block.tool_name);
    expect(loaded).toContain('get_forecast');
    const second = await ask('u2', 'weather forecast');
    // Every tool it found is loaded already: the result as text names them, marked shown, with the hint.
    const text = JSON.parse(second.content as string) as SearchResult;
    expect(text.tools.map((tool) => tool.name)).toEqual(loaded);
    expect(text.tools.every((tool) => tool.shown && tool.parameters === undefined)).toBe(true);
    expect(text.hint).toContain(layer.options.texts.hintShown);
  });

  it('answers a search that found nothing with the result as text, so the model reads the hint', async () => {
    const layer = createToolSearch(quiet());
    const use = { type: 'tool_use' as const, id: 'u1', name: 'search_tools', input: { query: 'zzzz' } };
    const answer = await answerAnthropicToolUse(layer, use, { sessionId: 'z', tools, native: true, execute: () => '' });
    expect(JSON.parse(answer.content as string)).toMatchObject({ found: 0, tools: [] });
  });
});

describe('Anthropic: calls of tools the model has not discovered', () => {
  const script: Script = (_r, index) =>
    index === 0 ? anthropicReply({ uses: [['send_email', { to: 'x' }]] }) : anthropicReply({ text: 'ok' });

  for (const native of [false, true]) {
    const mode = native ? 'native' : 'portable';

    it(`${mode} 'hint': an error result naming the tool, nothing runs, nothing discovered`, async () => {
      const { client, provider } = await start(script);
      const { messages, calls } = await session(createToolSearch(quiet()), client, {
        native,
        onUndiscoveredCall: 'hint',
      });
      expect(calls).toEqual([]);
      const result = toolResults(messages)[0] as ToolResultBlockParam;
      expect(result.is_error).toBe(true);
      expect((result.content as string).startsWith('{"notCalled":"send_email"')).toBe(true);
      expect(JSON.stringify(provider.body(1).tools)).toBe(JSON.stringify(provider.body(0).tools));
      if (!native) expect(names(provider.body(1).tools)).toEqual(['search_tools']);
    });

    it(`${mode} 'discover': the definition reaches the model and the tool is discovered`, async () => {
      const { client, provider } = await start(script);
      const layer = createToolSearch(quiet());
      const { messages, calls } = await session(layer, client, { native, onUndiscoveredCall: 'discover' });
      expect(calls).toEqual([]);
      const result = toolResults(messages)[0] as ToolResultBlockParam;
      expect(result.is_error).toBe(true);
      if (native) {
        // Loaded the documented way; the history still never counts it as a use.
        expect(result.content).toEqual([{ type: 'tool_reference', tool_name: 'send_email' }]);
        expect(anthropicMessagesToMessages(messages).find((m) => m.role === 'tool')?.content).toMatch(
          /^\{"notCalled":/,
        );
        expect(JSON.stringify(provider.body(1).tools)).toBe(JSON.stringify(provider.body(0).tools));
      } else {
        expect(JSON.parse(result.content as string).tools[0].name).toBe('send_email');
        expect(names(provider.body(1).tools)).toEqual(['search_tools', 'send_email']);
      }
      const check = await layer.checkCall({ sessionId: 'a1', tools: anthropicToolsToTools(tools) }, 'send_email');
      expect(check.ok).toBe(true);
    });
  }
});
