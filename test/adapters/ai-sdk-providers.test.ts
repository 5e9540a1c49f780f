// The AI SDK adapter's append-only exposures through the real provider packages (@ai-sdk/anthropic, @ai-sdk/openai)
// against the loopback server: the request bodies they send stay append-only for a whole session.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type LanguageModel, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createToolSearch, type SearchResult, ToolSearchError } from 'tool-search-layer';
import { withToolSearch } from 'tool-search-layer/ai-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { expectAppendOnly, officeTools, type Run, SESSION, SESSION_RUNS, scriptedModel } from './ai-sdk-fixtures.ts';
import {
  anthropicReply,
  functionCall,
  type MockProvider,
  responsesReply,
  type Script,
  startMockProvider,
  textMessage,
  toolSearchCall,
} from './mock-provider.ts';

let server: MockProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Plays SESSION in two generateText calls of one session (six steps each), as a chat app would. */
async function playSession(
  model: LanguageModel,
  ran: Run[],
  sessionId: string,
  exposure: 'native' | 'bridge' = 'native',
  layer = createToolSearch(),
) {
  const settings = () => withToolSearch(layer, { sessionId, exposure, tools: officeTools(ran) });
  const prompt: ModelMessage[] = [{ role: 'user', content: 'Plan my day' }];
  const first = await generateText({ model, ...settings(), messages: prompt, stopWhen: stepCountIs(6) });
  const history = [...prompt, ...first.responseMessages, { role: 'user', content: 'Go on' } as ModelMessage];
  const second = await generateText({ model, ...settings(), messages: history, stopWhen: stepCountIs(6) });
  return second;
}

const thinking = (i: number) => ({ type: 'thinking', thinking: `Round ${i}: what next?`, signature: `sig-${i}` });

const anthropicScript: Script = (_request, i) => {
  const turn = SESSION[i] ?? { text: 'done' };
  const reply =
    'search' in turn
      ? anthropicReply({ uses: [['search_tools', { query: turn.search, limit: 1 }]] })
      : 'call' in turn
        ? anthropicReply({ uses: [[turn.call, turn.input]] })
        : anthropicReply({ text: turn.text });
  const message = reply as { content: unknown[] };
  return { ...message, content: [thinking(i), ...message.content] };
};

describe('exposure native with @ai-sdk/anthropic', () => {
  it('keeps system, tools and tool_choice byte-identical and only appends, over 12 rounds and 5 discoveries', async () => {
    server = await startMockProvider(anthropicScript);
    const model = createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: 'test' })('claude-sonnet-4-5');
    const ran: Run[] = [];
    const result = await playSession(model, ran, 'native-anthropic');
    expect(result.text).toBe('done');
    const bodies = server.requests.map((request) => request.body);
    expect(bodies).toHaveLength(12);
    expectAppendOnly(bodies, ['system', 'tools', 'tool_choice'], 'messages');
    // Each discovered tool ran the round after its search, with the model's input unchanged.
    expect(ran).toEqual(SESSION_RUNS);

    const tools = bodies[0]?.tools as { name: string; defer_loading?: boolean; cache_control?: unknown }[];
    expect(tools[0]).toMatchObject({ name: 'search_tools' });
    expect(tools[0]?.defer_loading).toBeUndefined();
    expect(tools.slice(1).map((tool) => tool.name)).toEqual(Object.keys(officeTools([])));
    expect(tools.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    // A search loads what it found with tool_reference blocks, and nothing else in that result.
    const results = (server.body(1).messages as { role: string; content: unknown }[]).at(-1)?.content as {
      type: string;
      content: unknown;
    }[];
    expect(results[0]?.content).toEqual([{ type: 'tool_reference', tool_name: 'get_weather' }]);
    // Thinking blocks go back exactly as returned.
    const assistant = (server.body(11).messages as { role: string; content: { type: string }[] }[]).filter(
      (message) => message.role === 'assistant',
    );
    expect(assistant.map((message) => message.content[0])).toEqual(Array.from({ length: 11 }, (_, i) => thinking(i)));
  });

  it('never runs a deferred tool the session has not discovered, and answers with the corrective result', async () => {
    server = await startMockProvider((_request, i) =>
      i === 0 ? anthropicReply({ uses: [['send_email', { to: 'x', body: 'y' }]] }) : anthropicReply({ text: 'ok' }),
    );
    const model = createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: 'test' })('claude-sonnet-4-5');
    const ran: Run[] = [];
    const settings = withToolSearch(createToolSearch(), {
      sessionId: 'blind',
      exposure: 'native',
      tools: officeTools(ran),
    });
    await generateText({ model, ...settings, prompt: 'Mail x', stopWhen: stepCountIs(3) });
    expect(ran).toEqual([]);
    const messages = server.body(1).messages as { content: { type: string; content?: unknown }[] }[];
    const answer = JSON.parse(messages.at(-1)?.content[0]?.content as string);
    expect(answer).toMatchObject({ notCalled: 'send_email', hint: expect.stringContaining('search_tools') });
    expect(JSON.stringify(server.body(1).tools)).toBe(JSON.stringify(server.body(0).tools));
  });

  it('drops a cache breakpoint from a deferred tool, where Anthropic refuses it, and keeps it on a direct one', async () => {
    server = await startMockProvider(() => anthropicReply({ text: 'ok' }));
    const model = createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: 'test' })('claude-sonnet-4-5');
    const cached = { anthropic: { cacheControl: { type: 'ephemeral' } } };
    const base = officeTools([]);
    const tools = {
      ...base,
      get_weather: { ...base.get_weather, providerOptions: cached },
      send_email: { ...base.send_email, providerOptions: cached },
    };
    const layer = createToolSearch({ alwaysDirectTools: ['send_email'] });
    await generateText({
      model,
      ...withToolSearch(layer, { sessionId: 'cache', exposure: 'native', tools }),
      prompt: 'hi',
    });
    const sent = server.body(0).tools as { name: string; defer_loading?: boolean; cache_control?: unknown }[];
    expect(sent.find((tool) => tool.name === 'get_weather')).toMatchObject({ defer_loading: true });
    expect(sent.find((tool) => tool.name === 'get_weather')?.cache_control).toBeUndefined();
    expect(sent.find((tool) => tool.name === 'send_email')).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(sent.find((tool) => tool.name === 'send_email')?.defer_loading).toBeUndefined();
  });
});

describe('exposure native: a definition the model holds is not loaded again', () => {
  // Three searches in one generateText: the weather tool, then the weather and the mail tools, then the weather
  // tool again.
  const searches = [
    { query: 'weather city', limit: 1 },
    { query: 'weather email', limit: 2 },
    { query: 'weather city', limit: 1 },
  ];

  it('with @ai-sdk/anthropic: tool_reference only for tools not loaded yet; a search of loaded tools answers as JSON', async () => {
    const mock = await startMockProvider((_request, i) =>
      i < searches.length
        ? anthropicReply({ uses: [['search_tools', searches[i]]] })
        : anthropicReply({ text: 'done' }),
    );
    server = mock;
    const model = createAnthropic({ baseURL: `${mock.origin}/v1`, apiKey: 'test' })('claude-sonnet-4-5');
    const layer = createToolSearch();
    await generateText({
      model,
      ...withToolSearch(layer, { sessionId: 'held-anthropic', exposure: 'native', tools: officeTools([]) }),
      prompt: 'Weather, then mail',
      stopWhen: stepCountIs(5),
    });
    const answer = (step: number) =>
      (mock.body(step).messages as { content: { content: unknown }[] }[]).at(-1)?.content[0]?.content;
    expect(answer(1)).toEqual([{ type: 'tool_reference', tool_name: 'get_weather' }]);
    expect(answer(2)).toEqual([{ type: 'tool_reference', tool_name: 'send_email' }]);
    const again = JSON.parse(answer(3) as string) as SearchResult;
    expect(again.tools).toEqual([{ name: 'get_weather', description: expect.any(String), shown: true }]);
    expect(again.hint).toContain(layer.options.texts.hintShown);
  });

  it('with @ai-sdk/openai: tool_search_output loads only tools not loaded yet, or all found when none is new', async () => {
    const mock = await startMockProvider((_request, i) =>
      responsesReply([i < searches.length ? toolSearchCall(searches[i]) : textMessage('done')]),
    );
    server = mock;
    const model = createOpenAI({ baseURL: `${mock.origin}/v1`, apiKey: 'test' }).responses('gpt-5.4');
    await generateText({
      model,
      ...withToolSearch(createToolSearch(), { sessionId: 'held-openai', exposure: 'native', tools: officeTools([]) }),
      prompt: 'Weather, then mail',
      stopWhen: stepCountIs(5),
    });
    const loaded = (step: number) =>
      (mock.body(step).input as { type: string; tools?: { name: string }[] }[]).at(-1)?.tools?.map((tool) => tool.name);
    expect(loaded(1)).toEqual(['get_weather']);
    expect(loaded(2)).toEqual(['send_email']);
    // Nothing new: an empty output would read as "nothing found", so it loads what it found again.
    expect(loaded(3)).toEqual(['get_weather']);
  });
});

describe('exposure bridge with @ai-sdk/anthropic', () => {
  it('keeps the request bodies append-only too, with thinking blocks sent back as returned', async () => {
    server = await startMockProvider((request, i) => {
      const turn = SESSION[i] ?? { text: 'done' };
      if (!('call' in turn) || i === 10) return anthropicScript(request, i);
      const reply = anthropicReply({ uses: [['call_tool', { name: turn.call, arguments: turn.input }]] }) as {
        content: unknown[];
      };
      return { ...reply, content: [thinking(i), ...reply.content] };
    });
    const model = createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: 'test' })('claude-sonnet-4-5');
    const ran: Run[] = [];
    await playSession(model, ran, 'bridge-anthropic', 'bridge');
    const bodies = server.requests.map((request) => request.body);
    expect(bodies).toHaveLength(12);
    expectAppendOnly(bodies, ['system', 'tools', 'tool_choice'], 'messages');
    expect((server.body(0).tools as { name: string }[]).map((tool) => tool.name)).toEqual([
      'search_tools',
      'call_tool',
    ]);
    expect(ran).toEqual(SESSION_RUNS);
  });
});

const openAiScript: Script = (_request, i) => {
  const turn = SESSION[i] ?? { text: 'done' };
  if ('search' in turn) return responsesReply([toolSearchCall({ query: turn.search, limit: 1, offset: null })]);
  if ('call' in turn) return responsesReply([functionCall(turn.call, turn.input)]);
  return responsesReply([textMessage(turn.text)]);
};

describe('exposure native with @ai-sdk/openai (Responses)', () => {
  it('keeps instructions, tools and tool_choice byte-identical and only appends, over 12 rounds and 5 discoveries', async () => {
    server = await startMockProvider(openAiScript);
    const model = createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test' }).responses('gpt-5.4');
    const ran: Run[] = [];
    const result = await playSession(model, ran, 'native-openai');
    expect(result.text).toBe('done');
    const bodies = server.requests.map((request) => request.body);
    expect(bodies).toHaveLength(12);
    expectAppendOnly(bodies, ['instructions', 'tools', 'tool_choice'], 'input');
    expect(ran).toEqual(SESSION_RUNS);

    const tools = bodies[0]?.tools as { type: string; name?: string; defer_loading?: boolean }[];
    expect(tools[0]).toMatchObject({ type: 'tool_search', execution: 'client' });
    expect(tools.slice(1).map((tool) => tool.name)).toEqual(Object.keys(officeTools([])));
    expect(tools.slice(1).every((tool) => tool.type === 'function' && tool.defer_loading === true)).toBe(true);
    // The search's output loads the definition it found, at the end of the input.
    const output = (server.body(1).input as { type: string; tools?: { name: string }[] }[]).at(-1);
    expect(output).toMatchObject({ type: 'tool_search_output', execution: 'client' });
    expect(output?.tools?.map((tool) => tool.name)).toEqual(['get_weather']);
  });
});

describe('exposure native with @ai-sdk/openai and a layer that answers searches compactly', () => {
  it('still loads the full definitions through tool_search_output', async () => {
    server = await startMockProvider(openAiScript);
    const model = createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test' }).responses('gpt-5.4');
    const layer = createToolSearch({ searchResults: 'compact' });
    await generateText({
      model,
      ...withToolSearch(layer, { sessionId: 'compact', exposure: 'native', tools: officeTools([]) }),
      stopWhen: stepCountIs(2),
      prompt: 'Weather',
    });
    const output = (server.body(1).input as { type: string; tools?: { parameters: unknown }[] }[]).at(-1);
    expect(output?.tools?.[0]?.parameters).toMatchObject({ type: 'object', required: ['city'] });
  });
});

describe('exposure native in generateText with the SDK mock model', () => {
  it('sends the same tools, deferred, at every step of 12 rounds over two generateText calls', async () => {
    const ran: Run[] = [];
    const model = scriptedModel(
      SESSION.map((turn) =>
        'search' in turn
          ? { calls: [['search_tools', { query: turn.search, limit: 1 }]] }
          : 'call' in turn
            ? { calls: [[turn.call, turn.input]] }
            : { text: turn.text },
      ),
      'anthropic.messages',
    );
    await playSession(model, ran, 'native-mock');
    const calls = model.doGenerateCalls;
    expect(calls).toHaveLength(12);
    for (const [i, call] of calls.entries()) {
      expect(JSON.stringify(call.tools), `step ${i}`).toBe(JSON.stringify(calls[0]?.tools));
    }
    const sent = (calls[0]?.tools ?? []) as {
      name: string;
      providerOptions?: { anthropic?: { deferLoading?: boolean } };
    }[];
    expect(sent.map((tool) => tool.name)).toEqual(['search_tools', ...Object.keys(officeTools([]))]);
    expect(sent.filter((tool) => tool.providerOptions?.anthropic?.deferLoading).length).toBe(12);
    expect(ran).toEqual(SESSION_RUNS);
  });
});

describe('exposure native with other models', () => {
  it('throws ToolSearchError naming the provider, instead of sending every tool in full', async () => {
    const model = new MockLanguageModelV4({ provider: 'google.generative-ai' } as never);
    await expect(
      generateText({
        model,
        ...withToolSearch(createToolSearch(), { sessionId: 'x', exposure: 'native', tools: officeTools([]) }),
        prompt: 'hi',
      }),
    ).rejects.toThrow(ToolSearchError);
  });
});
