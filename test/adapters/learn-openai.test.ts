// Learning through the OpenAI adapter's own loop: the real `openai` client against the loopback provider, Chat
// Completions (bridge, tools) and Responses (bridge, tools, native), the Responses loops both with the whole history
// and with `previous_response_id` (each request carries only the new items). Each session searches, calls the tool
// it found, and must teach the layer (see learn-fixtures.ts).
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { ToolSearch } from 'tool-search-layer';
import {
  answerChatToolCall,
  answerResponseToolCall,
  prepareChatCompletion,
  prepareResponse,
} from 'tool-search-layer/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { expectTaught, expectUntaught, LEARN_ARGS, LEARN_QUERY, LEARN_TOOL, learningLayer } from './learn-fixtures.ts';
import {
  chatReply,
  functionCall,
  type MockProvider,
  responsesReply,
  startMockProvider,
  textMessage,
  toolSearchCall,
} from './mock-provider.ts';
import { chatTools, executor, groupOf, responsesTools } from './openai-fixtures.ts';

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function client(script: (index: number) => unknown): Promise<OpenAI> {
  provider = await startMockProvider((_request, index) => script(index));
  return new OpenAI({ baseURL: `${provider.origin}/v1`, apiKey: 'test', maxRetries: 0 });
}

/** A Chat Completions loop until the model answers with text; the tools it ran. */
async function chatSession(layer: ToolSearch, openai: OpenAI, exposure: 'bridge' | 'tools') {
  const { execute, calls } = executor();
  const options = { sessionId: `chat-${exposure}`, exposure, groupOf };
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Do I need an umbrella in Oslo?' }];
  for (let round = 0; round < 6; round++) {
    const request = await prepareChatCompletion(layer, { model: 'm', messages, tools: chatTools }, options);
    const message = (await openai.chat.completions.create(request)).choices[0]?.message;
    if (!message) throw new Error('no message');
    messages.push(message);
    if (!message.tool_calls?.length) break;
    for (const call of message.tool_calls) {
      messages.push(await answerChatToolCall(layer, call, { ...options, tools: chatTools, execute }));
    }
  }
  return calls.map((call) => call.name);
}

describe('learning through Chat Completions', () => {
  for (const exposure of ['bridge', 'tools'] as const) {
    it(`${exposure}: the search_tools query is credited to the tool that ran`, async () => {
      const layer = learningLayer();
      await expectUntaught(layer);
      const call =
        exposure === 'bridge' ? ['call_tool', { name: LEARN_TOOL, arguments: LEARN_ARGS }] : [LEARN_TOOL, LEARN_ARGS];
      const openai = await client(
        (i) =>
          [
            chatReply({ calls: [['search_tools', { query: LEARN_QUERY }]] }),
            chatReply({ calls: [call as [string, unknown]] }),
          ][i] ?? chatReply({ text: 'Take one.' }),
      );
      expect(await chatSession(layer, openai, exposure)).toEqual([LEARN_TOOL]);
      await expectTaught(layer);
    });
  }
});

type ResponsesExposure = 'bridge' | 'tools' | 'native';

/**
 * A Responses loop until the model answers with text; the tools it ran. With `chained`, each request sends only
 * the new items and `previous_response_id`, as the OpenAI guide allows; otherwise the whole history.
 */
async function responsesSession(layer: ToolSearch, openai: OpenAI, exposure: ResponsesExposure, chained: boolean) {
  const { execute, calls } = executor();
  const options = { sessionId: `responses-${exposure}-${chained}`, exposure, groupOf };
  const all: ResponseInputItem[] = [{ role: 'user', content: 'Do I need an umbrella in Oslo?' }];
  let input: ResponseInputItem[] = [...all];
  let previous: string | undefined;
  for (let round = 0; round < 6; round++) {
    const body = {
      model: 'm',
      input: chained ? input : all,
      tools: responsesTools,
      ...(chained && previous && { previous_response_id: previous }),
    };
    const response = await openai.responses.create(await prepareResponse(layer, body, options));
    previous = response.id;
    input = [];
    for (const item of response.output) {
      all.push(item as ResponseInputItem);
      if (item.type !== 'function_call' && item.type !== 'tool_search_call') continue;
      const items = await answerResponseToolCall(layer, item, { ...options, tools: responsesTools, execute });
      input.push(...items);
      all.push(...items);
    }
    if (input.length === 0) break;
  }
  return calls.map((call) => call.name);
}

/** The model's two calls in each exposure: the search, then the found tool. */
function responsesScript(exposure: ResponsesExposure) {
  const search =
    exposure === 'native'
      ? toolSearchCall({ query: LEARN_QUERY })
      : functionCall('search_tools', { query: LEARN_QUERY });
  const call =
    exposure === 'bridge'
      ? functionCall('call_tool', { name: LEARN_TOOL, arguments: LEARN_ARGS })
      : functionCall(LEARN_TOOL, LEARN_ARGS, exposure === 'native' ? 'weather' : undefined);
  return (i: number) =>
    [responsesReply([search]), responsesReply([call])][i] ?? responsesReply([textMessage('Take one.')]);
}

describe('learning through the Responses API', () => {
  for (const exposure of ['bridge', 'tools', 'native'] as const) {
    for (const chained of [false, true]) {
      const how = chained ? 'with previous_response_id' : 'with the whole history';
      it(`${exposure}, ${how}: the search's query is credited to the tool that ran`, async () => {
        const layer = learningLayer();
        await expectUntaught(layer);
        const openai = await client(responsesScript(exposure));
        expect(await responsesSession(layer, openai, exposure, chained)).toEqual([LEARN_TOOL]);
        if (chained) {
          // Each request after the first carried no call item: only outputs, and the previous response's id.
          for (const request of provider?.requests.slice(1) ?? []) {
            expect(request.body.previous_response_id).toBeDefined();
            const types = (request.body.input as { type?: string }[]).map((item) => item.type);
            expect(types.every((type) => type?.endsWith('_output'))).toBe(true);
          }
        }
        await expectTaught(layer);
      });
    }
  }
});

describe('learning through the Responses API with previous_response_id, over two turns', () => {
  it('a call in the next turn is not credited to the last turn’s search', async () => {
    const layer = learningLayer();
    const { execute, calls } = executor();
    const options = { sessionId: 'two-turns', exposure: 'tools' as const, groupOf };
    const openai = await client(
      (i) =>
        [
          responsesReply([functionCall('search_tools', { query: LEARN_QUERY, limit: 3 })]),
          responsesReply([functionCall(LEARN_TOOL, LEARN_ARGS)]),
          responsesReply([textMessage('Take one.')]),
          // The next turn: a tool the first search found, called without a new search.
          responsesReply([functionCall('get_weather', { city: 'Oslo' })]),
          responsesReply([textMessage('Sunny now.')]),
        ][i],
    );
    let input: ResponseInputItem[] = [{ role: 'user', content: 'Do I need an umbrella in Oslo?' }];
    let previous: string | undefined;
    for (let round = 0; round < 5; round++) {
      const body = { model: 'm', input, tools: responsesTools, ...(previous && { previous_response_id: previous }) };
      const response = await openai.responses.create(await prepareResponse(layer, body, options));
      previous = response.id;
      input = [];
      for (const item of response.output) {
        if (item.type !== 'function_call') continue;
        input.push(...(await answerResponseToolCall(layer, item, { ...options, tools: responsesTools, execute })));
      }
      if (input.length === 0) input = [{ role: 'user', content: 'And right now?' }];
    }
    expect(calls.map((call) => call.name)).toEqual([LEARN_TOOL, 'get_weather']);
    // expectTaught checks get_forecast alone has credit: get_weather, called after the user spoke again, has none.
    await expectTaught(layer);
  });
});
