// Issue 13: the append-only exposures, 12 scripted rounds through the real `openai` client (7 and 6) against the
// loopback provider. Each request's tools, tool_choice, system/instructions and earlier messages/input items are
// byte-identical to the previous request's; each discovered tool is called in the next round, and runs with the
// model's arguments unchanged.
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
  type RecordedRequest,
  responsesReply,
  startMockProvider,
  textMessage,
  toolSearchCall,
} from './mock-provider.ts';
import { chatTools, executor, groupOf, quiet, responsesTools } from './openai-fixtures.ts';
import { expectValidRequest } from './openai-schemas.ts';

type Client = typeof OpenAI;
const majors: [string, Client][] = [
  ['openai 7', OpenAI],
  ['openai 6', OpenAI6 as unknown as Client],
];

/** The model's plan: five searches, each followed by a call of a tool it found, then one refused call, then text. */
const plan: { query: string; name: string; namespace: string | undefined; args: Record<string, unknown> }[] = [
  { query: 'weather forecast', name: 'get_forecast', namespace: 'weather', args: { city: 'Oslo', days: '3' } },
  { query: 'send email message', name: 'send_email', namespace: 'mail', args: { to: 'a@b.c', body: 'Hi ✓' } },
  { query: 'calendar event', name: 'create_event', namespace: 'calendar', args: { title: 'Tea', start: '15:00' } },
  { query: 'read a file', name: 'read_file', namespace: 'files', args: { path: '/tmp/a b.txt' } },
  { query: 'translate text', name: 'translate_text', namespace: undefined, args: { text: 'hei', target: 'en' } },
];
const ROUNDS = 12;

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** Asserts the append-only rule between each request and the one before it. */
function expectAppendOnly(requests: readonly RecordedRequest[], history: 'messages' | 'input', fixed: string[]) {
  expect(requests).toHaveLength(ROUNDS);
  for (let i = 1; i < requests.length; i++) {
    const [before, now] = [requests[i - 1]?.body ?? {}, requests[i]?.body ?? {}];
    const raw = requests[i]?.raw ?? '';
    for (const key of fixed) {
      expect(JSON.stringify(now[key]), `${key} of request ${i}`).toBe(JSON.stringify(before[key]));
      // The same bytes in the raw body the client sent, not only an equal value.
      if (before[key] !== undefined) expect(raw).toContain(`"${key}":${JSON.stringify(before[key])}`);
    }
    const earlier = before[history] as unknown[];
    const sent = now[history] as unknown[];
    expect(sent.length).toBeGreaterThan(earlier.length);
    expect(JSON.stringify(sent.slice(0, earlier.length)), `earlier ${history} of request ${i}`).toBe(
      JSON.stringify(earlier),
    );
    expect(raw).toContain(`"${history}":${JSON.stringify(earlier).slice(0, -1)},`);
  }
}

/** Each planned tool ran once, in order, with the model's arguments unchanged (same keys, order and values). */
function expectUnchanged(calls: readonly { name: string; arguments: unknown }[]) {
  expect(calls.map((call) => `${call.name} ${JSON.stringify(call.arguments)}`)).toEqual(
    plan.map((step) => `${step.name} ${JSON.stringify(step.args)}`),
  );
}

/** The tool result the model read last, parsed (the script checks its search found what it calls next). */
const lastResult = (messages: { role?: string; content?: unknown }[]) => JSON.parse(String(messages.at(-1)?.content));

describe.each(majors)('Chat Completions, bridge (%s)', (_major, Client) => {
  it('twelve rounds, five discoveries, every request only appends', async () => {
    provider = await startMockProvider(({ body }, index) => {
      const step = plan[Math.floor(index / 2)];
      if (index === 10) return chatReply({ calls: [['call_tool', { name: 'wipe_disk', arguments: {} }]] });
      if (index === 11 || !step) return chatReply({ text: 'Done.' });
      if (index % 2 === 0) return chatReply({ calls: [['search_tools', { query: step.query }]] });
      const found = lastResult(body.messages as ChatCompletionMessageParam[]).tools as { name: string }[];
      if (!found.some((tool) => tool.name === step.name)) throw new Error(`${step.name} was not found`);
      return chatReply({ calls: [['call_tool', { name: step.name, arguments: step.args }]] });
    });
    const client = new Client({ baseURL: `${provider.origin}/v1`, apiKey: 'test', maxRetries: 0 });
    const layer = createToolSearch(quiet());
    const { calls, execute } = executor();
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You plan my day.' },
      { role: 'user', content: 'Plan my day.' },
    ];
    const options = { sessionId: 'chat-bridge', groupOf };
    for (let round = 0; round < ROUNDS; round++) {
      const body = { model: 'gpt-5.4', messages, tools: chatTools, tool_choice: 'auto' as const };
      const completion = await client.chat.completions.create(await prepareChatCompletion(layer, body, options));
      const message = completion.choices[0]?.message;
      if (!message) throw new Error('no message');
      messages.push(message);
      for (const call of message.tool_calls ?? []) {
        messages.push(await answerChatToolCall(layer, call, { ...options, tools: chatTools, execute }));
      }
    }
    expectAppendOnly(provider.requests, 'messages', ['tools', 'tool_choice', 'model']);
    const names = (provider.body(0).tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names).toEqual(['search_tools', 'call_tool']);
    expectUnchanged(calls);
    for (const call of calls)
      expect(call.tool).toBe(chatTools.find((t) => 'function' in t && t.function.name === call.name));
    expect(lastResult(messages.slice(0, -1))).toMatchObject({ notCalled: 'wipe_disk' });
    for (const request of provider.requests) expectValidRequest('CreateChatCompletionRequest', request.body);
  });
});

/** Runs a Responses session sending the whole input each round, so earlier items can be compared. */
async function responsesSession(
  Client: Client,
  exposure: 'bridge' | 'native',
  script: Parameters<typeof startMockProvider>[0],
) {
  provider = await startMockProvider(script);
  const client = new Client({ baseURL: `${provider.origin}/v1`, apiKey: 'test', maxRetries: 0 });
  const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['calculator'] });
  const { calls, execute } = executor();
  const input: ResponseInputItem[] = [{ role: 'user', content: 'Plan my day.' }];
  const options = { sessionId: `responses-${exposure}`, groupOf, exposure };
  for (let round = 0; round < ROUNDS; round++) {
    const body = {
      model: 'gpt-5.4',
      instructions: 'You plan my day.',
      input,
      tools: responsesTools,
      tool_choice: 'auto' as const,
    };
    const response = await client.responses.create(await prepareResponse(layer, body, options));
    for (const item of response.output) {
      input.push(item as ResponseInputItem);
      if (item.type !== 'function_call' && item.type !== 'tool_search_call') continue;
      input.push(...(await answerResponseToolCall(layer, item, { ...options, tools: responsesTools, execute })));
    }
  }
  return { requests: provider.requests, calls, input };
}

const fixedResponses = ['tools', 'tool_choice', 'instructions', 'model'];

/** A reply of a reasoning model: an encrypted reasoning item first, which the host must send back as returned. */
const encrypted = (index: number) => `enc_${index}_${'x'.repeat(40)}`;
const thinking = (index: number, output: Record<string, unknown>[]) =>
  responsesReply([{ type: 'reasoning', summary: [], encrypted_content: encrypted(index) }, ...output]);

/** Every reasoning item a reply carried is in the next request's input, as it was returned. */
function expectReasoningSentBack(requests: readonly RecordedRequest[]) {
  const input = (requests.at(-1)?.body.input ?? []) as { type?: string; encrypted_content?: string }[];
  const sent = input.filter((item) => item.type === 'reasoning');
  expect(sent.map((item) => item.encrypted_content)).toEqual(
    Array.from({ length: ROUNDS - 1 }, (_, i) => encrypted(i)),
  );
}

describe.each(majors)('Responses API, bridge (%s)', (_major, Client) => {
  it('twelve rounds, five discoveries, every request only appends', async () => {
    const { requests, calls } = await responsesSession(Client, 'bridge', ({ body }, index) => {
      const step = plan[Math.floor(index / 2)];
      if (index === 10) return thinking(index, [functionCall('call_tool', { name: 'get_weather', arguments: '{' })]);
      if (index === 11 || !step) return thinking(index, [textMessage('Done.')]);
      if (index % 2 === 0) return thinking(index, [functionCall('search_tools', { query: step.query })]);
      const output = (body.input as { output?: string }[]).at(-1)?.output;
      if (!JSON.parse(String(output)).tools.some((t: { name: string }) => t.name === step.name))
        throw new Error(step.name);
      return thinking(index, [functionCall('call_tool', { name: step.name, arguments: step.args })]);
    });
    expectAppendOnly(requests, 'input', fixedResponses);
    expectReasoningSentBack(requests);
    expect(((requests[0] as RecordedRequest).body.tools as { name: string }[]).map((t) => t.name)).toEqual([
      'search_tools',
      'call_tool',
      'calculator',
    ]);
    expectUnchanged(calls);
    const refused = ((requests[11] as RecordedRequest).body.input as { output?: string }[]).at(-1)?.output ?? '';
    expect(refused.startsWith('{"notCalled":')).toBe(true);
    for (const request of requests) expectValidRequest('CreateResponse', request.body);
  });
});

describe.each(majors)('Responses API, native (%s)', (_major, Client) => {
  it('twelve rounds, five discoveries, every request only appends', async () => {
    const { requests, calls, input } = await responsesSession(Client, 'native', ({ body }, index) => {
      const step = plan[Math.floor(index / 2)];
      if (index === 10) return thinking(index, [toolSearchCall({ limit: 3 })]);
      if (index === 11 || !step) return thinking(index, [textMessage('Done.')]);
      if (index % 2 === 0) return thinking(index, [toolSearchCall({ query: step.query, limit: 3 })]);
      const loaded = JSON.stringify((body.input as unknown[]).at(-1));
      if (!loaded.includes(`"name":"${step.name}"`)) throw new Error(`${step.name} was not loaded`);
      return thinking(index, [functionCall(step.name, step.args, step.namespace)]);
    });
    expectAppendOnly(requests, 'input', fixedResponses);
    expectReasoningSentBack(requests);
    const kinds = ((requests[0] as RecordedRequest).body.tools as { type: string; name?: string }[]).map(
      (t) => t.name ?? t.type,
    );
    expect(kinds.slice(0, 2)).toEqual(['tool_search', 'calculator']);
    expectUnchanged(calls);
    // The search without a query got an output and a note saying what was wrong.
    const note = input.findIndex((item) => 'role' in item && item.role === 'developer');
    expect(input[note - 1]).toMatchObject({ type: 'tool_search_output', tools: [] });
    expect(JSON.stringify(input[note])).toMatch(/query/);
    for (const request of requests) expectValidRequest('CreateResponse', request.body);
  });
});
