// The request shapes OpenAI rejects or misreads, sent through the real client (issue 15, items 1 and 5):
// repeated or nameless tools in a bypassed round, load ids over 64 characters, namespaces past OpenAI's
// advice, and a bad tool search answered with nothing the model can learn from.
import OpenAI from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseInputItem, Tool as ResponsesTool } from 'openai/resources/responses/responses';
import { createToolSearch, ToolSearchError } from 'tool-search-layer';
import {
  answerChatToolCall,
  answerResponseToolCall,
  prepareChatCompletion,
  prepareResponse,
} from 'tool-search-layer/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../core/fixtures.ts';
import { chatReply, type MockProvider, responsesReply, startMockProvider, textMessage } from './mock-provider.ts';
import { chatName, chatTools, executor, groupOf, quiet, responsesTools } from './openai-fixtures.ts';
import { expectValidRequest } from './openai-schemas.ts';

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function client(reply: unknown) {
  provider = await startMockProvider(() => reply);
  return new OpenAI({ baseURL: `${provider.origin}/v1`, apiKey: 'test', maxRetries: 0 });
}

describe('a bypassed round (few tools) sends each name once and no skipped entry', () => {
  it('Chat Completions', async () => {
    const openai = await client(chatReply({ text: 'ok' }));
    const nameless = { type: 'function', function: { name: '', description: 'no name' } } as ChatCompletionTool;
    const custom: ChatCompletionTool = { type: 'custom', custom: { name: 'get_weather' } };
    const tools = [chatTools[3], chatTools[3], nameless, chatTools[4], custom] as ChatCompletionTool[];
    for (const exposure of ['tools', 'bridge'] as const) {
      const body = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }], tools };
      await openai.chat.completions.create(
        await prepareChatCompletion(createToolSearch(quiet()), body, { sessionId: 'b', exposure }),
      );
      const sent = (provider?.requests.at(-1)?.body.tools ?? []) as ChatCompletionTool[];
      expect(sent.map(chatName)).toEqual(['get_weather', 'get_forecast']);
      expect(sent[0]).toEqual(chatTools[3]);
    }
  });

  it('Responses API, in every exposure', async () => {
    const openai = await client(responsesReply([textMessage('ok')]));
    const nameless = { type: 'function', name: '', parameters: null, strict: false } as FunctionTool;
    const tools: ResponsesTool[] = [
      responsesTools[3] as FunctionTool,
      nameless,
      responsesTools[3] as FunctionTool,
      { type: 'web_search' },
      { type: 'custom', name: 'get_forecast' },
    ];
    for (const exposure of ['tools', 'bridge', 'native'] as const) {
      const request = await prepareResponse(
        createToolSearch(quiet()),
        { model: 'm', input: 'hi', tools },
        {
          sessionId: 'b',
          exposure,
        },
      );
      await openai.responses.create(request);
      const sent = (provider?.requests.at(-1)?.body.tools ?? []) as { type: string; name?: string }[];
      expect(sent.map((t) => t.name ?? t.type)).toEqual(['get_weather', 'web_search', 'get_forecast']);
    }
  });
});

/** A group of `count` tools, `crm_0` … in group 'crm', for namespace sizes. */
const crm = (count: number): FunctionTool[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'function',
    name: `crm_action_${i}`,
    description: `CRM action number ${i}`,
    parameters: { type: 'object', properties: { id: { type: 'string' } } },
    strict: false,
  }));
const crmGroup = (name: string) => (name.startsWith('crm_') ? 'crm' : groupOf(name));

describe('native mode follows OpenAI’s limits and advice', () => {
  it('puts fewer than 10 functions in a namespace, with a one-line description', async () => {
    const tools = [...responsesTools, ...crm(23)];
    const options = { sessionId: 'ns', exposure: 'native' as const, groupOf: crmGroup };
    const request = await prepareResponse(createToolSearch(quiet()), { input: 'hi', tools }, options);
    const namespaces = request.tools.filter((t) => t.type === 'namespace');
    const crmSpaces = namespaces.filter((n) => n.name.startsWith('crm'));
    expect(crmSpaces.map((n) => [n.name, n.tools.length])).toEqual([
      ['crm', 8],
      ['crm_2', 8],
      ['crm_3', 7],
    ]);
    for (const namespace of namespaces) {
      expect(namespace.tools.length).toBeLessThan(10);
      expect(namespace.description.length).toBeLessThanOrEqual(120);
    }
    expect(crmSpaces[0]?.description).toMatch(/^Tools of the "crm" group: crm_action_0, .* and \d+ more\.$/);
    // A search loads a member in the namespace it was sent in.
    const search = { type: 'tool_search_call' as const, call_id: 's', arguments: { query: 'CRM action number 12' } };
    const [output] = await answerResponseToolCall(createToolSearch(quiet()), search, {
      ...options,
      tools,
      execute: () => '',
    });
    const loaded = (output as { tools: { name: string; tools: { name: string }[] }[] }).tools;
    const home = loaded.find((n) => n.tools.some((t) => t.name === 'crm_action_12'));
    expect(home?.name).toBe('crm_2');
  });

  it('never names a namespace after a namespace or custom tool of the caller’s, which is sent as it is', async () => {
    const own: ResponsesTool[] = [
      { type: 'namespace', name: 'crm', description: 'My CRM', tools: [{ type: 'function', name: 'crm_lookup' }] },
      { type: 'custom', name: 'crm_2' },
    ];
    const tools = [...responsesTools, ...crm(12), ...own];
    const options = { sessionId: 'own', exposure: 'native' as const, groupOf: crmGroup };
    const request = await prepareResponse(createToolSearch(quiet()), { input: 'hi', tools }, options);
    const names = request.tools.flatMap((t) => ('name' in t ? [t.name] : []));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['crm_3', 'crm_4', 'crm', 'crm_2']));
    expect(request.tools.slice(-2)).toEqual(own);
  });

  it('keeps the id of a load pair within 64 characters, the same for the same call', async () => {
    const layer = createToolSearch(quiet());
    const callId = `fc_${'x'.repeat(61)}`;
    expect(callId).toHaveLength(64);
    const call = { type: 'function_call' as const, call_id: callId, name: 'send_email', arguments: '{}' };
    const options = {
      sessionId: 'long',
      exposure: 'native' as const,
      groupOf,
      tools: responsesTools,
      execute: executor().execute,
      onUndiscoveredCall: 'discover' as const,
    };
    const items = await answerResponseToolCall(layer, call, options);
    const again = await answerResponseToolCall(createToolSearch(quiet()), call, { ...options, sessionId: 'other' });
    const [, load, loaded] = items as { type: string; call_id: string }[];
    expect(load?.type).toBe('tool_search_call');
    expect(load?.call_id.length).toBeLessThanOrEqual(64);
    expect(loaded?.call_id).toBe(load?.call_id);
    expect((again[1] as { call_id: string }).call_id).toBe(load?.call_id);
    // A short id keeps its readable form.
    const short = await answerResponseToolCall(layer, { ...call, call_id: 'fc_1' }, { ...options, sessionId: 's' });
    expect((short[1] as { call_id: string }).call_id).toBe('load_fc_1');
  });

  it('answers a bad tool search with an output and a note that says what was wrong', async () => {
    const openai = await client(responsesReply([textMessage('ok')]));
    const layer = createToolSearch(quiet());
    const options = { sessionId: 'bad', exposure: 'native' as const, groupOf, tools: responsesTools };
    const bad = { type: 'tool_search_call' as const, call_id: 'ts_bad', arguments: { limit: 3 } };
    const items = await answerResponseToolCall(layer, bad, { ...options, execute: () => '' });
    expect(items[0]).toMatchObject({ type: 'tool_search_output', call_id: 'ts_bad', tools: [] });
    const note = items[1] as { type: string; role: string; content: string };
    expect(note).toMatchObject({ type: 'message', role: 'developer' });
    expect(note.content).toMatch(/query/);
    // The items go to the API as they are.
    const input: ResponseInputItem[] = [{ role: 'user', content: 'hi' }, bad, ...items];
    await openai.responses.create(await prepareResponse(layer, { model: 'm', input, tools: responsesTools }, options));
    expect(provider?.body(0).input).toEqual(JSON.parse(JSON.stringify(input)));
  });
});

describe('search results and the exposure given per call', () => {
  const search = {
    id: 'c1',
    type: 'function' as const,
    function: { name: 'search_tools', arguments: '{"query":"weather"}' },
  };
  const answer = (layer: ReturnType<typeof createToolSearch>, options: object) =>
    answerChatToolCall(layer, search, { sessionId: 'sr', tools: chatTools, execute: () => '', ...options });

  it("'compact' gives a one-line parameter summary in 'tools' mode; 'bridge' results always carry the schema", async () => {
    const layer = createToolSearch(quiet());
    const compact = JSON.parse(
      (await answer(layer, { exposure: 'tools', searchResults: 'compact' })).content as string,
    );
    expect(compact.tools[0].name).toBe('get_weather');
    expect(compact.tools[0].parameters).toBe('city: string');
    const bridged = JSON.parse((await answer(layer, { exposure: 'bridge' })).content as string);
    expect(bridged.tools[0].parameters).toEqual(catalogue.find((t) => t.name === 'get_weather')?.parameters);
  });

  it("'compact' with 'bridge' is refused: the search result is the model's only copy of the schemas", async () => {
    const layer = createToolSearch(quiet());
    const body = { messages: [], tools: chatTools };
    await expect(
      prepareChatCompletion(layer, body, { sessionId: 'x', exposure: 'bridge', searchResults: 'compact' }),
    ).rejects.toThrow(ToolSearchError);
  });

  it('an exposure an API does not have throws ToolSearchError naming it', async () => {
    const layer = createToolSearch(quiet());
    const chat = { sessionId: 'x', exposure: 'native' } as unknown as { sessionId: string };
    await expect(prepareChatCompletion(layer, { messages: [], tools: chatTools }, chat)).rejects.toThrow(
      /exposure must be "tools" or "bridge"/,
    );
    const responses = { sessionId: 'x', exposure: 'nativ' } as unknown as { sessionId: string };
    await expect(prepareResponse(layer, { input: 'hi', tools: responsesTools }, responses)).rejects.toThrow(
      /options\.exposure must be "tools", "bridge" or "native", not "nativ"/,
    );
  });

  it('the adapter’s exposure wins over the layer’s own option, in both directions', async () => {
    const body = { messages: [], tools: chatTools };
    const bridgeLayer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const asTools = await prepareChatCompletion(bridgeLayer, body, { sessionId: 'e', exposure: 'tools' });
    expect(asTools.tools.map(chatName)).toEqual(['search_tools']);
    const asBridge = await prepareChatCompletion(createToolSearch(quiet()), body, { sessionId: 'e' });
    expect(asBridge.tools.map(chatName)).toEqual(['search_tools', 'call_tool']);
  });
});

describe('OpenAI’s published request schemas', () => {
  it('accept the bodies the adapters send in every exposure', async () => {
    const openai = await client(responsesReply([textMessage('ok')]));
    for (const exposure of ['tools', 'bridge', 'native'] as const) {
      const layer = createToolSearch(quiet());
      const options = { sessionId: 'v', exposure, groupOf: crmGroup, strict: true };
      await openai.responses.create(
        await prepareResponse(layer, { model: 'm', input: 'hi', tools: [...responsesTools, ...crm(12)] }, options),
      );
    }
    for (const request of provider?.requests ?? []) expectValidRequest('CreateResponse', request.body);
    expect(provider?.requests).toHaveLength(3);
  });

  it('reject what the API rejects: a call id over 64 characters, an empty namespace', () => {
    const long = { type: 'tool_search_output', call_id: 'x'.repeat(65), tools: [] };
    expect(() => expectValidRequest('CreateResponse', { model: 'm', input: [long] })).toThrow(/maxLength|call_id/);
    const empty = { type: 'namespace', name: 'crm', description: 'CRM', tools: [] };
    expect(() => expectValidRequest('CreateResponse', { model: 'm', input: 'hi', tools: [empty] })).toThrow();
  });
});
