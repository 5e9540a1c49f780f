// tool-search-layer/openai against the real `openai` client, talking to a scripted provider on loopback.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ResponseInputItem, Tool as ResponsesTool } from 'openai/resources/responses/responses';
import { createToolSearch, type SearchResult, type ToolSearch } from 'tool-search-layer';
import {
  answerChatToolCall,
  answerResponseToolCall,
  chatMessagesToMessages,
  chatToolsToTools,
  messagesToChatMessages,
  messagesToResponsesInput,
  prepareChatCompletion,
  prepareResponse,
  responsesInputToMessages,
  responsesToolsToTools,
  toolToChatTool,
} from 'tool-search-layer/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../core/fixtures.ts';
import {
  chatReply,
  functionCall,
  type MockProvider,
  responsesReply,
  type Script,
  startMockProvider,
  textMessage,
  toolSearchCall,
} from './mock-provider.ts';
import { chatName, chatTools, executor, groupOf, quiet, responsesTools } from './openai-fixtures.ts';

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function start(script: Script) {
  provider = await startMockProvider(script);
  return { provider, client: new OpenAI({ baseURL: `${provider.origin}/v1`, apiKey: 'test', maxRetries: 0 }) };
}

/** Options of the portable mode, which these tests are about (the default is 'bridge'). */
const toolsMode = (sessionId: string) => ({ sessionId, exposure: 'tools' as const });

/** Runs a Chat Completions session until the model answers with text; returns the history. */
async function chatSession(layer: ToolSearch, client: OpenAI, options: { strict?: boolean; rounds?: number } = {}) {
  const { execute, calls } = executor();
  const tools = toolsMode('s1');
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the forecast for Oslo?' }];
  for (let round = 0; round < (options.rounds ?? 10); round++) {
    const body = { model: 'mock-model', messages, tools: chatTools };
    const request = await prepareChatCompletion(layer, body, { ...tools, groupOf, strict: options.strict });
    const completion = await client.chat.completions.create(request);
    const message = completion.choices[0]?.message;
    if (!message) throw new Error('no message');
    messages.push(message);
    if (!message.tool_calls?.length) break;
    for (const call of message.tool_calls) {
      messages.push(await answerChatToolCall(layer, call, { ...tools, tools: chatTools, groupOf, execute }));
    }
  }
  return { messages, calls };
}

const searchThenCall: Script = (_request, index) =>
  index === 0
    ? chatReply({ calls: [['search_tools', { query: 'weather forecast', limit: 3 }]] })
    : index === 1
      ? chatReply({ calls: [['get_forecast', { city: 'Oslo', days: '3' }]] })
      : chatReply({ text: 'Sunny for three days.' });

describe('Chat Completions', () => {
  it('sends exactly the exposed tools: search_tools first, then what the session found, as the caller’s own objects', async () => {
    const { client, provider } = await start(searchThenCall);
    const layer = createToolSearch(quiet());
    const { messages, calls } = await chatSession(layer, client);
    const sent = provider.requests.map((r) => r.body.tools as ChatCompletionTool[]);
    expect(sent.map((tools) => tools.map(chatName))).toEqual([
      ['search_tools'],
      ['search_tools', 'get_forecast', 'get_weather', 'query_city_weather'],
      ['search_tools', 'get_forecast', 'get_weather', 'query_city_weather'],
    ]);
    // The found tools travel byte for byte as the caller defined them.
    for (const tool of sent[1]?.slice(1) ?? []) {
      expect(tool).toEqual(chatTools.find((t) => chatName(t) === chatName(tool)));
    }
    expect(calls).toEqual([{ name: 'get_forecast', arguments: { city: 'Oslo', days: '3' }, tool: chatTools[4] }]);
    const searchAnswer = messages[2] as { role: string; content: string };
    expect(searchAnswer.role).toBe('tool');
    expect(JSON.parse(searchAnswer.content).tools.map((t: { name: string }) => t.name)).toContain('get_forecast');
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Sunny for three days.' });
  });

  it('keeps the caller’s objects in the request helper and passes custom tools through', async () => {
    const layer = createToolSearch(quiet());
    const custom: ChatCompletionTool = { type: 'custom', custom: { name: 'raw_sql' } };
    const body = { model: 'm', messages: [], tools: [...chatTools, custom] };
    await layer.search({ sessionId: 'c', tools: chatToolsToTools(chatTools) }, { query: 'calculator', limit: 1 });
    const request = await prepareChatCompletion(layer, body, { sessionId: 'c', exposure: 'tools' });
    expect(request.tools.map(chatName)).toEqual(['search_tools', 'calculator', 'raw_sql']);
    expect(request.tools[1]).toBe(chatTools.find((t) => chatName(t) === 'calculator'));
    expect(request.tools[2]).toBe(custom);
    expect(body.tools).toHaveLength(chatTools.length + 1);
    // A round the layer bypasses sends the caller's tools as they are.
    const few = { model: 'm', messages: [], tools: chatTools.slice(0, 3) };
    const bypassed = await prepareChatCompletion(layer, few, { sessionId: 'c' });
    expect(bypassed).toEqual(few);
    expect(bypassed.tools.every((tool, i) => tool === few.tools[i])).toBe(true);
  });

  it('reads discoveries back from the tool messages a provider round trip produced', async () => {
    const { client, provider } = await start(searchThenCall);
    await chatSession(createToolSearch(quiet()), client);
    // A new layer, with an empty store, sees the same history: the search result and the call are events.
    const history = provider.body(2).messages as ChatCompletionMessageParam[];
    const fresh = createToolSearch(quiet());
    const request = await prepareChatCompletion(fresh, { messages: history, tools: chatTools }, toolsMode('x'));
    expect(request.tools?.map(chatName)).toEqual(['search_tools', 'get_forecast', 'get_weather', 'query_city_weather']);
  });

  it('sends a strict-mode search_tools and answers the nulls the model sends for limit and offset', async () => {
    const script: Script = (_r, index) =>
      index === 0
        ? chatReply({ calls: [['search_tools', { query: 'weather forecast', limit: null, offset: null }]] })
        : index === 1
          ? chatReply({ calls: [['get_forecast', { city: 'Oslo', days: '3' }]] })
          : chatReply({ text: 'done' });
    const { client, provider } = await start(script);
    const { messages } = await chatSession(createToolSearch(quiet()), client, { strict: true });
    const search = (provider.body(0).tools as ChatCompletionTool[])[0];
    expect(search).toMatchObject({
      type: 'function',
      function: {
        name: 'search_tools',
        strict: true,
        parameters: {
          type: 'object',
          required: ['query', 'limit', 'offset'],
          additionalProperties: false,
          properties: {
            query: { type: 'string' },
            limit: { type: ['integer', 'null'] },
            offset: { type: ['integer', 'null'] },
          },
        },
      },
    });
    expect(JSON.parse((messages[2] as { content: string }).content).found).toBeGreaterThan(0);
  });

  it('converts messages and tools in both directions', () => {
    const history: ChatCompletionMessageParam[] = [
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'calculator', arguments: '{"expression":"1+1"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: '2' }] },
    ];
    const messages = chatMessagesToMessages(history);
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"1+1"}' }],
      },
      { role: 'tool', toolCallId: 'c1', content: '2' },
    ]);
    expect(chatMessagesToMessages(messagesToChatMessages(messages))).toEqual(messages);
    const tools = chatToolsToTools(chatTools, groupOf);
    expect(chatToolsToTools(chatTools, groupOf)).toEqual(tools);
    expect(chatToolsToTools(chatTools, groupOf)[0]).toBe(tools[0]);
    expect(tools[0]).toEqual({ ...catalogue[0] });
    expect(toolToChatTool(tools[0] as never)).toEqual(chatTools[0]);
  });
});

describe('Chat Completions: calls of tools the model has not discovered', () => {
  const undiscovered =
    (name: string): Script =>
    (_r, index) =>
      index === 0 ? chatReply({ calls: [[name, { to: 'a@b.c', body: 'hi' }]] }) : chatReply({ text: 'ok' });

  it("'hint': the model gets the corrective result, nothing runs, and nothing is discovered", async () => {
    const { client, provider } = await start(undiscovered('send_email'));
    const layer = createToolSearch(quiet());
    const { messages, calls } = await chatSession(layer, client);
    expect(calls).toEqual([]);
    const answer = messages[2] as { content: string };
    expect(answer.content.startsWith('{"notCalled":"send_email"')).toBe(true);
    expect(JSON.parse(answer.content).hint).toMatch(/search_tools/);
    // The corrective result in the history never counts as a use.
    expect((provider.body(1).tools as ChatCompletionTool[]).map(chatName)).toEqual(['search_tools']);
  });

  it("'discover': the result carries the definition and the next round exposes the tool", async () => {
    const { client } = await start(undiscovered('send_email'));
    const layer = createToolSearch(quiet());
    const { execute, calls } = executor();
    const completion = await client.chat.completions.create(
      await prepareChatCompletion(layer, { model: 'm', messages: [], tools: chatTools }, toolsMode('d')),
    );
    const call = completion.choices[0]?.message.tool_calls?.[0];
    if (!call) throw new Error('no call');
    const options = { ...toolsMode('d'), tools: chatTools, execute, onUndiscoveredCall: 'discover' as const };
    const answer = await answerChatToolCall(layer, call, options);
    expect(calls).toEqual([]);
    expect(JSON.parse(answer.content as string).tools[0].name).toBe('send_email');
    const next = await prepareChatCompletion(layer, { messages: [], tools: chatTools }, toolsMode('d'));
    expect(next.tools?.map(chatName)).toEqual(['search_tools', 'send_email']);
  });

  it('an unknown name gets the closest names, and runs nothing', async () => {
    const { client } = await start(undiscovered('get_wether'));
    const { messages, calls } = await chatSession(createToolSearch(quiet()), client);
    expect(calls).toEqual([]);
    expect(JSON.parse((messages[2] as { content: string }).content).closest).toContain('get_weather');
  });
});

/** Runs a Responses session with `previous_response_id`: each request carries only the new items. */
async function responsesSession(
  layer: ToolSearch,
  client: OpenAI,
  options: { native?: boolean; rounds: number; onUndiscoveredCall?: 'hint' | 'discover' },
) {
  const { execute, calls } = executor();
  const all: ResponseInputItem[] = [{ role: 'user', content: 'Plan my week.' }];
  let input: ResponseInputItem[] = [...all];
  let previous: string | undefined;
  // Native sessions go through the deprecated `native: true`, which must keep working.
  const common = { sessionId: 'r1', groupOf, ...(options.native ? { native: true } : toolsMode('r1')) };
  for (let round = 0; round < options.rounds; round++) {
    const body = {
      model: 'mock-model',
      input,
      tools: responsesTools,
      ...(previous && { previous_response_id: previous }),
    };
    const response = await client.responses.create(await prepareResponse(layer, body, common));
    previous = response.id;
    input = [];
    for (const item of response.output) {
      all.push(item as ResponseInputItem);
      if (item.type !== 'function_call' && item.type !== 'tool_search_call') continue;
      const answer = { ...common, tools: responsesTools, execute, onUndiscoveredCall: options.onUndiscoveredCall };
      const items = await answerResponseToolCall(layer, item, answer);
      input.push(...items);
      all.push(...items);
    }
    if (input.length === 0) break;
  }
  return { all, calls };
}

const fnName = (tool: ResponsesTool) => ('name' in tool ? tool.name : tool.type);

describe('Responses API, portable mode', () => {
  it('with previous_response_id the store is the record: found tools are exposed though the host sends almost no history', async () => {
    const script: Script = (_r, index) =>
      [
        responsesReply([functionCall('search_tools', { query: 'weather forecast', limit: 3 })]),
        responsesReply([functionCall('get_forecast', { city: 'Oslo', days: '2' })]),
        responsesReply([textMessage('Rain.')]),
      ][index];
    const { client, provider } = await start(script);
    const { calls } = await responsesSession(createToolSearch(quiet()), client, { rounds: 5 });
    const sent = provider.requests.map((r) => (r.body.tools as ResponsesTool[]).map(fnName));
    expect(sent).toEqual([
      ['search_tools'],
      ['search_tools', 'get_forecast', 'get_weather', 'query_city_weather'],
      ['search_tools', 'get_forecast', 'get_weather', 'query_city_weather'],
    ]);
    // Round 2 sent only the function_call_output: the pairing call lives in the previous response.
    expect((provider.body(1).input as { type: string }[]).map((i) => i.type)).toEqual(['function_call_output']);
    expect(provider.body(1).previous_response_id).toBeDefined();
    expect((provider.body(1).tools as ResponsesTool[])[1]).toEqual(responsesTools[4]);
    expect(calls.map((c) => c.name)).toEqual(['get_forecast']);
  });

  it("corrective path: 'hint' leaves the tools as they were, 'discover' offers the tool next round; nothing runs", async () => {
    const script: Script = (_r, index) =>
      index === 0 ? responsesReply([functionCall('send_email', { to: 'x' })]) : responsesReply([textMessage('ok')]);
    for (const mode of ['hint', 'discover'] as const) {
      const { client, provider } = await start(script);
      const { all, calls } = await responsesSession(createToolSearch(quiet()), client, {
        rounds: 3,
        onUndiscoveredCall: mode,
      });
      expect(calls).toEqual([]);
      expect((provider.body(1).input as Record<string, unknown>[]).map((i) => i.type)).toEqual([
        'function_call_output',
      ]);
      const output = all.find((i) => i.type === 'function_call_output') as { output: string };
      expect(JSON.parse(output.output)).toMatchObject({ notCalled: 'send_email' });
      expect((provider.body(1).tools as ResponsesTool[]).map(fnName)).toEqual(
        mode === 'hint' ? ['search_tools'] : ['search_tools', 'send_email'],
      );
      await provider.close();
    }
  });

  it('converts input items and tools in both directions', () => {
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'c1', name: 'calculator', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: '2' },
    ];
    const messages = responsesInputToMessages(input, 'Be brief.');
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: '2' },
    ]);
    expect(responsesInputToMessages(messagesToResponsesInput(messages.slice(1)))).toEqual(messages.slice(1));
    const tools = responsesToolsToTools(responsesTools, groupOf);
    expect(tools[0]).toEqual({ ...catalogue[0] });
    expect(responsesToolsToTools(responsesTools, groupOf)[0]).toBe(tools[0]);
  });
});

describe('Responses API, native mode (client tool_search, defer_loading)', () => {
  // Five searches, each followed by a call of a tool it found, then text: ten rounds.
  const queries = ['weather forecast', 'send email', 'calendar event', 'read file', 'stock price'];
  const targets: [string, string][] = [
    ['get_forecast', 'weather'],
    ['send_email', 'mail'],
    ['create_event', 'calendar'],
    ['read_file', 'files'],
    ['getStockPrice', 'finance'],
  ];
  const tenRounds: Script = (_r, index) => {
    if (index >= 10) return responsesReply([textMessage('All done.')]);
    const step = Math.floor(index / 2);
    if (index % 2 === 0) return responsesReply([toolSearchCall({ query: queries[step], limit: 3 })]);
    const [name, namespace] = targets[step] as [string, string];
    return responsesReply([functionCall(name, {}, namespace)]);
  };

  it('keeps the tools array byte-identical for ten rounds and changes nothing else but the input', async () => {
    const { client, provider } = await start(tenRounds);
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['calculator'] });
    const { all, calls } = await responsesSession(layer, client, { native: true, rounds: 12 });
    expect(provider.requests).toHaveLength(11);
    const raws = provider.requests.map((r) => JSON.stringify(r.body.tools));
    expect(new Set(raws).size).toBe(1);
    const rest = provider.requests.map(({ body }) =>
      JSON.stringify({ ...body, input: undefined, previous_response_id: undefined }),
    );
    expect(new Set(rest).size).toBe(1);
    expect(calls.map((c) => c.name)).toEqual(targets.map(([name]) => name));

    const tools = provider.body(0).tools as Record<string, unknown>[];
    expect(tools[0]).toMatchObject({ type: 'tool_search', execution: 'client' });
    expect(tools[1]).toEqual(responsesTools.find((t) => t.name === 'calculator'));
    const namespaces = tools.filter((t) => t.type === 'namespace');
    expect(namespaces.map((n) => n.name)).toEqual(['mail', 'weather', 'calendar', 'files', 'finance']);
    for (const namespace of namespaces) {
      expect(namespace.defer_loading).toBeUndefined();
      for (const fn of namespace.tools as Record<string, unknown>[]) expect(fn.defer_loading).toBe(true);
    }
    const loose = tools.filter((t) => t.type === 'function' && t.name !== 'calculator');
    expect(loose.map((t) => t.name)).toEqual(['translate_text', 'web_search']);
    for (const fn of loose) expect(fn.defer_loading).toBe(true);

    // Each search was answered with a tool_search_output carrying the found definitions in their namespaces.
    const outputs = all.filter((i) => i.type === 'tool_search_output') as unknown as {
      tools: Record<string, unknown>[];
    }[];
    expect(outputs).toHaveLength(5);
    expect(outputs[0]?.tools[0]).toMatchObject({ type: 'namespace', name: 'weather' });
    const weather = outputs[0]?.tools[0]?.tools as Record<string, unknown>[];
    expect(weather.map((t) => t.name)).toContain('get_forecast');
    expect(weather.find((t) => t.name === 'get_forecast')).toEqual({ ...responsesTools[4], defer_loading: true });
  });

  it('never sends or loads a tool outside the enabled groups', async () => {
    const layer = createToolSearch(quiet());
    const options = { sessionId: 'g', groupOf, native: true, enabledGroups: ['mail'] };
    const request = await prepareResponse(layer, { input: 'hi', tools: responsesTools }, options);
    const sent = JSON.stringify(request.tools);
    expect(sent).toContain('send_email');
    expect(sent).not.toMatch(/get_weather|get_forecast|query_city_weather/);
    const search = { type: 'tool_search_call' as const, call_id: 's', arguments: { query: 'weather forecast email' } };
    const items = await answerResponseToolCall(layer, search, { ...options, tools: responsesTools, execute: () => '' });
    expect(JSON.stringify(items)).not.toMatch(/get_weather|get_forecast|query_city_weather/);
    expect(JSON.stringify(items)).toContain('send_email');
  });

  it('loads again only what the input has not loaded; a search of loaded tools alone loads them again', async () => {
    const layer = createToolSearch(quiet());
    const options = { sessionId: 'again', groupOf, native: true, tools: responsesTools, execute: () => '' };
    const input: ResponseInputItem[] = [{ role: 'user', content: 'Forecast, then mail.' }];
    const ask = async (callId: string, query: string) => {
      await prepareResponse(layer, { input, tools: responsesTools }, options);
      const search = { type: 'tool_search_call' as const, call_id: callId, arguments: { query, limit: 2 } };
      const items = await answerResponseToolCall(layer, search, options);
      input.push(search as ResponseInputItem, ...items);
      const output = items[0] as unknown as { tools: { name?: string; tools?: { name: string }[] }[] };
      return output.tools.flatMap((tool) => (tool.tools ? tool.tools.map((member) => member.name) : [tool.name]));
    };
    const first = await ask('s1', 'weather forecast');
    expect(first).toContain('get_forecast');
    // Loaded already, so the output is not empty: the same tools load again.
    expect(await ask('s2', 'weather forecast')).toEqual(first);
    // A search that finds a loaded tool and a new one loads the new one only.
    const fresh = (await createToolSearch(quiet()).search(
      { sessionId: 'f', tools: catalogue },
      { query: 'forecast email', limit: 2 },
    )) as SearchResult;
    expect(fresh.tools.map((tool) => tool.name)).toContain('get_forecast');
    const both = await ask('s3', 'forecast email');
    expect(both).not.toContain('get_forecast');
    expect(both.length).toBeGreaterThan(0);
  });

  it('names namespaces as the API accepts, never after a top-level tool or another namespace', async () => {
    const layer = createToolSearch(quiet());
    const groupNames: Record<string, string> = {
      send_email: 'Mail & Calendar',
      read_inbox: 'Mail / Calendar',
      get_weather: 'calculator',
    };
    const request = await prepareResponse(
      layer,
      { input: 'hi', tools: responsesTools },
      { sessionId: 'ns', native: true, groupOf: (name) => groupNames[name] },
    );
    const tools = request.tools as unknown as Record<string, unknown>[];
    const namespaces = tools.filter((t) => t.type === 'namespace').map((t) => t.name);
    expect(namespaces).toEqual(['Mail_Calendar', 'Mail_Calendar_2', 'calculator_2']);
    expect(tools.filter((t) => t.type === 'function').map((t) => t.name)).toContain('calculator');
  });

  it('reads discoveries back from tool_search_output items', async () => {
    const { client } = await start(tenRounds);
    const { all } = await responsesSession(createToolSearch(quiet()), client, { native: true, rounds: 4 });
    // A fresh layer reading the full history in portable mode exposes what the native searches loaded.
    const fresh = createToolSearch(quiet());
    const request = await prepareResponse(fresh, { input: all, tools: responsesTools }, { ...toolsMode('n'), groupOf });
    const names = (request.tools ?? []).map(fnName);
    expect(names).toEqual(expect.arrayContaining(['get_forecast', 'send_email']));
  });

  it("corrective path: 'hint' answers with a function_call_output only; 'discover' loads the definition with a tool_search_output", async () => {
    const script: Script = (_r, index) =>
      index === 0
        ? responsesReply([functionCall('send_email', { to: 'x' }, 'mail')])
        : responsesReply([textMessage('ok')]);
    for (const mode of ['hint', 'discover'] as const) {
      const { client, provider } = await start(script);
      const layer = createToolSearch(quiet());
      const { all, calls } = await responsesSession(layer, client, {
        native: true,
        rounds: 3,
        onUndiscoveredCall: mode,
      });
      expect(calls).toEqual([]);
      const sent = (provider.body(1).input as Record<string, unknown>[]).map((i) => i.type);
      const output = all.find((i) => i.type === 'function_call_output') as { output: string };
      expect(output.output.startsWith('{"notCalled":"send_email"')).toBe(true);
      if (mode === 'hint') expect(sent).toEqual(['function_call_output']);
      else {
        expect(sent).toEqual(['function_call_output', 'tool_search_call', 'tool_search_output']);
        const loaded = all.find((i) => i.type === 'tool_search_output') as unknown as {
          tools: Record<string, unknown>[];
        };
        expect(loaded.tools).toEqual([
          expect.objectContaining({
            type: 'namespace',
            name: 'mail',
            tools: [{ ...responsesTools[0], defer_loading: true }],
          }),
        ]);
      }
      expect(JSON.stringify(provider.body(0).tools)).toBe(JSON.stringify(provider.body(1).tools));
      await provider.close();
    }
  });
});
