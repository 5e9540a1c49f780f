// The 'tools' mode's main flows through both majors of the `openai` client (7, and 6 through the `openai6`
// alias); the append-only modes run through both in openai-append-only.test.ts.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import OpenAI6 from 'openai6';
import { createToolSearch } from 'tool-search-layer';
import {
  answerChatToolCall,
  answerResponseToolCall,
  prepareChatCompletion,
  prepareResponse,
} from 'tool-search-layer/openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chatReply,
  functionCall,
  type MockProvider,
  responsesReply,
  type Script,
  startMockProvider,
  textMessage,
} from './mock-provider.ts';
import { chatName, chatTools, executor, groupOf, quiet, responsesTools } from './openai-fixtures.ts';
import { expectValidRequest } from './openai-schemas.ts';

type Client = typeof OpenAI;
const majors: [string, Client][] = [
  ['openai 7', OpenAI],
  ['openai 6', OpenAI6 as unknown as Client],
];

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function start(Client: Client, script: Script) {
  provider = await startMockProvider(script);
  return { provider, client: new Client({ baseURL: `${provider.origin}/v1`, apiKey: 'test', maxRetries: 0 }) };
}

describe.each(majors)("'tools' mode (%s)", (_major, Client) => {
  it('Chat Completions: search, the found tool offered and run, then the answer', async () => {
    const replies = [
      chatReply({ calls: [['search_tools', { query: 'weather forecast' }]] }),
      chatReply({ calls: [['get_forecast', { city: 'Oslo', days: '3' }]] }),
      chatReply({ text: 'Sunny.' }),
    ];
    const { client, provider } = await start(Client, (_r, index) => replies[index]);
    const layer = createToolSearch(quiet());
    const { calls, execute } = executor();
    const options = { sessionId: 'm', exposure: 'tools' as const, groupOf };
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Forecast for Oslo?' }];
    for (let round = 0; round < 3; round++) {
      const request = await prepareChatCompletion(layer, { model: 'm', messages, tools: chatTools }, options);
      const message = (await client.chat.completions.create(request)).choices[0]?.message;
      if (!message) throw new Error('no message');
      messages.push(message);
      for (const call of message.tool_calls ?? []) {
        messages.push(await answerChatToolCall(layer, call, { ...options, tools: chatTools, execute }));
      }
    }
    const sent = provider.requests.map((r) => (r.body.tools as typeof chatTools).map(chatName));
    expect(sent[0]).toEqual(['search_tools']);
    expect(sent[1]).toContain('get_forecast');
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([['get_forecast', { city: 'Oslo', days: '3' }]]);
    for (const request of provider.requests) expectValidRequest('CreateChatCompletionRequest', request.body);
  });

  it('Responses API with previous_response_id: the store carries the discovery', async () => {
    const replies = [
      responsesReply([functionCall('search_tools', { query: 'send email' })]),
      responsesReply([functionCall('send_email', { to: 'a@b.c', body: 'hi' })]),
      responsesReply([textMessage('Sent.')]),
    ];
    const { client, provider } = await start(Client, (_r, index) => replies[index]);
    const layer = createToolSearch(quiet());
    const { calls, execute } = executor();
    const options = { sessionId: 'm', exposure: 'tools' as const, groupOf };
    let input: ResponseInputItem[] = [{ role: 'user', content: 'Mail a@b.c' }];
    let previous: string | undefined;
    for (let round = 0; round < 3; round++) {
      const body = { model: 'm', input, tools: responsesTools, ...(previous && { previous_response_id: previous }) };
      const response = await client.responses.create(await prepareResponse(layer, body, options));
      previous = response.id;
      input = [];
      for (const item of response.output) {
        if (item.type !== 'function_call') continue;
        input.push(...(await answerResponseToolCall(layer, item, { ...options, tools: responsesTools, execute })));
      }
    }
    expect((provider.body(1).tools as { name: string }[]).map((t) => t.name)).toContain('send_email');
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([['send_email', { to: 'a@b.c', body: 'hi' }]]);
    for (const request of provider.requests) expectValidRequest('CreateResponse', request.body);
  });
});
