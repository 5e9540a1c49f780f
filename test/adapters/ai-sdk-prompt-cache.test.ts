// Anthropic caches a prompt only when asked (SPEC 14): withToolSearch asks at every step it shapes for an Anthropic
// model, through the real `ai` loop and @ai-sdk/anthropic against the loopback server, and leaves it to the caller
// who places breakpoints of their own or says promptCache: false.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type ModelMessage, stepCountIs, type ToolSet } from 'ai';
import { createToolSearch, ToolSearchError } from 'tool-search-layer';
import { withToolSearch } from 'tool-search-layer/ai-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { officeTools } from './ai-sdk-fixtures.ts';
import { anthropicReply, type MockProvider, responsesReply, startMockProvider, textMessage } from './mock-provider.ts';

let server: MockProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A search, a call of what it found, then an answer: three requests. */
const searchThenCall = (_request: unknown, i: number) =>
  i === 0
    ? anthropicReply({ uses: [['search_tools', { query: 'weather city' }]] })
    : i === 1
      ? anthropicReply({ uses: [['call_tool', { name: 'get_weather', arguments: { city: 'Paris' } }]] })
      : anthropicReply({ text: 'done' });

async function run(
  settings: { exposure?: 'bridge' | 'native' | 'tools'; promptCache?: boolean; tools?: ToolSet } = {},
  call: { messages?: ModelMessage[]; providerOptions?: Record<string, Record<string, unknown>> } = {},
  layer = createToolSearch(),
) {
  server = await startMockProvider(searchThenCall);
  const model = createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: 'test' })('claude-sonnet-4-5');
  const { tools = officeTools([]), ...rest } = settings;
  await generateText({
    model,
    ...withToolSearch(layer, { sessionId: 'cache', tools, ...rest }),
    messages: call.messages ?? [{ role: 'user', content: 'Weather in Paris?' }],
    ...(call.providerOptions && { providerOptions: call.providerOptions as never }),
    stopWhen: stepCountIs(3),
  });
  return server.requests.map((request) => request.body);
}

describe('Anthropic prompt cache through withToolSearch', () => {
  it('asks for it at every step, in every exposure, by default', async () => {
    for (const exposure of ['bridge', 'tools', 'native'] as const) {
      const bodies = await run({ exposure });
      expect(bodies.length, exposure).toBeGreaterThanOrEqual(2);
      for (const body of bodies) expect(body.cache_control, exposure).toEqual({ type: 'ephemeral' });
      await server?.close();
      server = undefined;
    }
  });

  it('leaves it off with promptCache: false, and to the caller who marks a message or a tool', async () => {
    for (const body of await run({ promptCache: false })) expect(body.cache_control).toBeUndefined();
    await server?.close();
    const marked: ModelMessage = {
      role: 'user',
      content: 'Weather in Paris?',
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    };
    const own = await run({}, { messages: [marked] });
    for (const body of own) expect(body.cache_control).toBeUndefined();
    // The caller's own breakpoint is sent as they placed it.
    expect(JSON.stringify(own[0]?.messages)).toContain('"cache_control":{"type":"ephemeral"}');
    await server?.close();
    const base = officeTools([]);
    const cached = { anthropic: { cacheControl: { type: 'ephemeral' } } };
    const tools = { ...base, send_email: { ...base.send_email, providerOptions: cached } };
    const layer = createToolSearch({ alwaysDirectTools: ['send_email'] });
    for (const body of await run({ tools }, {}, layer)) expect(body.cache_control).toBeUndefined();
  });

  it("keeps the caller's own top-level cacheControl, merged over the layer's", async () => {
    const bodies = await run(
      {},
      { providerOptions: { anthropic: { cacheControl: { type: 'ephemeral', ttl: '1h' } } } },
    );
    for (const body of bodies) expect(body.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
  });

  it('asks nothing in a step the layer steps aside from, nor of another provider', async () => {
    const few = createToolSearch({ maxDirectTools: 50 });
    for (const body of await run({}, {}, few)) expect(body.cache_control).toBeUndefined();
    await server?.close();
    server = await startMockProvider(() => responsesReply([textMessage('done')]));
    const model = createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test' }).responses('gpt-5.4');
    await generateText({
      model,
      ...withToolSearch(createToolSearch(), { sessionId: 'openai', tools: officeTools([]) }),
      prompt: 'Weather in Paris?',
    });
    expect(server.body(0)).not.toHaveProperty('cache_control');
  });

  it('names a promptCache that is not a boolean', () => {
    expect(() =>
      withToolSearch(createToolSearch(), { sessionId: 's', tools: officeTools([]), promptCache: 'yes' as never }),
    ).toThrow(new ToolSearchError('withToolSearch: options.promptCache must be true or false, or omitted'));
  });
});
