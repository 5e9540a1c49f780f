// The append-only modes of tool-search-layer/anthropic (SPEC 11), each in a 12-round scripted session with five
// discoveries, through the real `@anthropic-ai/sdk` client against the loopback server, which records the bodies.
// The replies carry thinking blocks with signatures, as a model with preserved thinking returns them.
import Anthropic from '@anthropic-ai/sdk';
import type {
  Tool as AnthropicTool,
  MessageParam,
  TextBlock,
  ThinkingBlock,
  ToolUnion,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { createToolSearch, type ToolSearch } from 'tool-search-layer';
import {
  type AnthropicExposure,
  type AnthropicMessage,
  answerAnthropicToolUse,
  INLINE_BETAS,
  prepareAnthropicMessages,
  type ToolExecution,
} from 'tool-search-layer/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue, recordingLogger } from '../core/fixtures.ts';
import { type MockProvider, type Script, startMockProvider } from './mock-provider.ts';

const tools: AnthropicTool[] = catalogue.map((tool) => ({
  name: tool.name,
  description: tool.description ?? '',
  input_schema: (tool.parameters ?? { type: 'object' }) as AnthropicTool['input_schema'],
}));
const groupOf = (name: string) => catalogue.find((tool) => tool.name === name)?.groups;

/** Five searches, each followed by a call of the tool it found, then a repeat call and the answer: 12 rounds. */
const plan: readonly { query: string; name: string; input: Record<string, string> }[] = [
  { query: 'weather forecast', name: 'get_forecast', input: { city: 'Oslo', days: '3' } },
  { query: 'send email message', name: 'send_email', input: { to: 'ann@example.com', body: 'Rain all week.' } },
  {
    query: 'calendar event create',
    name: 'create_event',
    input: { title: 'Umbrella shop', start: '2026-12-04T10:00' },
  },
  { query: 'read file disk', name: 'read_file', input: { path: '/tmp/notes.txt' } },
  { query: 'stock price ticker', name: 'getStockPrice', input: { symbol: 'ACME' } },
];

let counter = 0;
/** A reply whose content starts with a thinking block with its signature, as Claude returns it. */
function thinkingReply(round: number, rest: readonly (TextBlock | ToolUseBlock)[]): Record<string, unknown> {
  const thinking: ThinkingBlock = {
    type: 'thinking',
    thinking: `Round ${round}: what next?`,
    signature: `sig-${round}-${++counter}`,
  };
  return {
    id: `msg_${++counter}`,
    type: 'message',
    role: 'assistant',
    model: 'mock-model',
    content: [thinking, ...rest],
    stop_reason: rest.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

// Typed as the SDK's response blocks, so the scripted replies have Anthropic's published shapes.
const use = (name: string, input: unknown): ToolUseBlock => ({
  type: 'tool_use',
  id: `toolu_${++counter}`,
  name,
  input,
  caller: { type: 'direct' },
});
const text = (words: string): TextBlock => ({ type: 'text', text: words, citations: null });

/** The scripted model: search, call what was found, and so on; in the bridge, calls go through call_tool. */
function script(exposure: AnthropicExposure): Script {
  return (_request, round) => {
    const step = plan[Math.floor(round / 2)];
    if (round === 10) return thinkingReply(round, [callOf(exposure, plan[0] as (typeof plan)[0])]);
    if (!step || round > 10) return thinkingReply(round, [text('All done.')]);
    if (round % 2 === 0) return thinkingReply(round, [use('search_tools', { query: step.query, limit: 2 })]);
    return thinkingReply(round, [text(`Calling ${step.name}.`), callOf(exposure, step)]);
  };
}

const callOf = (exposure: AnthropicExposure, step: (typeof plan)[0]) =>
  exposure === 'bridge' ? use('call_tool', { name: step.name, arguments: step.input }) : use(step.name, step.input);

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** Runs the session as an app would: keep its own history, prepare each round, answer each tool_use. */
async function runSession(exposure: AnthropicExposure, layer: ToolSearch, extra: { promptCache?: boolean } = {}) {
  const replies: { content: unknown }[] = [];
  const scripted = script(exposure);
  provider = await startMockProvider((request, round) => {
    const reply = scripted(request, round) as { content: unknown };
    replies.push(reply);
    return reply;
  });
  const client = new Anthropic({ baseURL: provider.origin, apiKey: 'test', maxRetries: 0 });
  const ran: ToolExecution<ToolUnion>[] = [];
  const execute = (call: ToolExecution<ToolUnion>) => {
    ran.push(call);
    return `ran ${call.name}`;
  };
  const options = { sessionId: `session-${exposure}`, groupOf, exposure, ...extra };
  const messages: AnthropicMessage[] = [{ role: 'user', content: 'Plan my rainy week.' }];
  for (let round = 0; round < 12; round++) {
    const body = {
      model: 'mock-model',
      max_tokens: 1024,
      system: 'You help with errands.',
      tool_choice: { type: 'auto' as const },
      thinking: { type: 'adaptive' as const },
      messages,
      tools,
    };
    const reply =
      exposure === 'inline'
        ? await client.beta.messages.create(await prepareAnthropicMessages(layer, body, { ...options, exposure }))
        : await client.messages.create(
            (await prepareAnthropicMessages(layer, body, options)) as Anthropic.MessageCreateParamsNonStreaming,
          );
    messages.push({ role: 'assistant', content: reply.content } as MessageParam);
    const results = [];
    for (const block of reply.content) {
      if (block.type !== 'tool_use') continue;
      results.push(await answerAnthropicToolUse(layer, block, { ...options, tools, execute }));
    }
    if (results.length === 0) break;
    messages.push({ role: 'user', content: results });
  }
  return { provider, ran, replies };
}

const part = (body: Record<string, unknown>, key: string) => JSON.stringify(body[key]);

for (const exposure of ['native', 'bridge', 'inline'] as const) {
  describe(`Anthropic exposure '${exposure}': a 12-round session with five discoveries`, () => {
    it('sends system, tools and tool_choice byte-identical every round, and only appends messages', async () => {
      const { provider } = await runSession(exposure, createToolSearch({ logger: recordingLogger() }));
      expect(provider.requests).toHaveLength(12);
      for (let i = 1; i < provider.requests.length; i++) {
        const [before, after] = [provider.body(i - 1), provider.body(i)];
        for (const key of ['system', 'tools', 'tool_choice', 'thinking', 'cache_control'])
          expect(part(after, key)).toBe(part(before, key));
        const earlier = before.messages as unknown[];
        const now = after.messages as unknown[];
        expect(now.length).toBeGreaterThan(earlier.length);
        for (let m = 0; m < earlier.length; m++) expect(JSON.stringify(now[m])).toBe(JSON.stringify(earlier[m]));
      }
    });

    it('turns on the prompt cache every round (a top-level breakpoint on the last block), unless told not to', async () => {
      const { provider } = await runSession(exposure, createToolSearch({ logger: recordingLogger() }));
      for (let i = 0; i < provider.requests.length; i++)
        expect(provider.body(i).cache_control).toEqual({ type: 'ephemeral' });
      const off = await runSession(exposure, createToolSearch({ logger: recordingLogger() }), { promptCache: false });
      for (let i = 0; i < off.provider.requests.length; i++)
        expect(off.provider.body(i)).not.toHaveProperty('cache_control');
    });

    it('sends each assistant turn back exactly as returned, thinking blocks and signatures included', async () => {
      const { provider, replies } = await runSession(exposure, createToolSearch({ logger: recordingLogger() }));
      const last = provider.body(11).messages as { role: string; content: unknown }[];
      const assistants = last.filter((message) => message.role === 'assistant');
      expect(assistants).toHaveLength(11);
      assistants.forEach((message, i) => {
        expect(JSON.stringify(message.content)).toBe(JSON.stringify(replies[i]?.content));
        const [first] = message.content as { type: string; signature?: string }[];
        expect(first?.type).toBe('thinking');
        expect(first?.signature).toMatch(/^sig-/);
      });
    });

    it('makes every found tool callable from the next round, and runs its call with the input unchanged', async () => {
      const { provider, ran } = await runSession(exposure, createToolSearch({ logger: recordingLogger() }));
      expect(ran.map((call) => [call.name, call.arguments])).toEqual([
        ...plan.map((step) => [step.name, step.input]),
        [plan[0]?.name, plan[0]?.input],
      ]);
      expect(ran.map((call) => call.tool)).toEqual(
        [...plan, plan[0]].map((s) => tools.find((t) => t.name === s?.name)),
      );
      const sent = JSON.stringify(provider.body(11).messages);
      expect(sent).not.toContain('"is_error":true');
      plan.forEach((step, k) => {
        // The round after the search k already carries the tool's definition, the mode's way.
        const next = JSON.stringify(provider.body(2 * k + 1).messages);
        const tool = tools.find((t) => t.name === step.name) as AnthropicTool;
        if (exposure === 'native') expect(next).toContain(`{"type":"tool_reference","tool_name":"${step.name}"}`);
        else if (exposure === 'inline') expect(next).toContain(`"definition":${JSON.stringify(tool)}`);
        // The bridge's search results are the model's only schemas: they carry them in full.
        else expect(next).toContain(JSON.stringify(JSON.stringify(tool.input_schema)).slice(1, -1));
      });
      if (exposure === 'bridge') {
        const sent = (provider.body(0).tools as { name: string }[]).map((t) => t.name);
        expect(sent).toEqual(['search_tools', 'call_tool']);
      }
      if (exposure === 'inline') {
        expect(provider.requests[0]?.headers['anthropic-beta']).toBe(INLINE_BETAS.join(','));
        expect((provider.body(0).tools as { name: string }[]).map((t) => t.name)).toEqual(['search_tools']);
      }
    });
  });
}
