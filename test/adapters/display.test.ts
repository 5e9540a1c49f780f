// displayToolCall on the shapes the real SDKs and the layer's own answers produce: the bridge's call_tool reads back
// as the tool it names, with its arguments and its result (or the layer's refusal), for a chat UI or a log.
import type { ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { readUIMessageStream, stepCountIs, streamText, type UIMessage } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import type { ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import type { ResponseFunctionToolCall } from 'openai/resources/responses/responses';
import { CALL_TOOL_NAME, createToolSearch } from 'tool-search-layer';
import { displayToolCall, withToolSearch } from 'tool-search-layer/ai-sdk';
import { answerAnthropicToolUse, displayToolCall as fromAnthropic } from 'tool-search-layer/anthropic';
import { answerChatToolCall, answerResponseToolCall, displayToolCall as fromOpenAi } from 'tool-search-layer/openai';
import { describe, expect, it } from 'vitest';
import { catalogue, recordingLogger } from '../core/fixtures.ts';
import { officeTools, type Run } from './ai-sdk-fixtures.ts';
import { chatTools, executor, responsesTools } from './openai-fixtures.ts';

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const quiet = () => ({ logger: recordingLogger() });

/** A streaming mock model that makes the given calls, one step each, then says 'done'. */
function streamingModel(steps: readonly (readonly [string, unknown])[]) {
  let step = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const call = steps[step];
      const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
      if (call)
        parts.push({ type: 'tool-call', toolCallId: `c${step}`, toolName: call[0], input: JSON.stringify(call[1]) });
      else
        parts.push(
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'done' },
          { type: 'text-end', id: 't' },
        );
      parts.push({ type: 'finish', finishReason: { unified: call ? 'tool-calls' : 'stop', raw: undefined }, usage });
      step++;
      return { stream: convertArrayToReadableStream(parts) } as never;
    },
  });
}

const BRIDGED_STEPS = [
  ['call_tool', { name: 'send_email', arguments: { to: 'bob', subject: 'hi', body: 'x' } }],
  ['search_tools', { query: 'weather', limit: 1 }],
  ['call_tool', { name: 'get_weather', arguments: { city: 'Oslo' } }],
] as const;

describe('displayToolCall: the AI SDK', () => {
  it('reads the UI message parts useChat renders (tool-call_tool) as the tools the model meant', async () => {
    const ran: Run[] = [];
    const result = streamText({
      model: streamingModel(BRIDGED_STEPS),
      ...withToolSearch(createToolSearch(quiet()), { sessionId: 'ui', tools: officeTools(ran) }),
      stopWhen: stepCountIs(5),
      prompt: 'Weather in Oslo?',
    });
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream: result.toUIMessageStream() })) last = message;
    const parts = (last?.parts ?? []).filter((part) => part.type.startsWith('tool-'));
    expect(parts.map((part) => part.type)).toEqual(['tool-call_tool', 'tool-search_tools', 'tool-call_tool']);
    const shown = parts.map((part) => displayToolCall(part));
    expect(shown[0]).toMatchObject({ name: 'send_email', bridged: true, status: 'refused' });
    expect(shown[0]?.error).toMatch(/send_email/);
    expect(shown[1]).toMatchObject({
      name: 'search_tools',
      bridged: false,
      status: 'done',
      arguments: { query: 'weather', limit: 1 },
    });
    expect(shown[2]).toEqual({
      name: 'get_weather',
      arguments: { city: 'Oslo' },
      bridged: true,
      status: 'done',
      result: { ok: 'get_weather' },
    });
    expect(ran).toEqual([{ name: 'get_weather', input: { city: 'Oslo' } }]);

    // The same turn as model messages (what a server stores): each tool-call part with its tool-result part.
    const messages = await result.responseMessages;
    type Part = { type: string; toolCallId?: string };
    const contents = messages.flatMap((m): Part[] => (Array.isArray(m.content) ? (m.content as Part[]) : []));
    const results = contents.filter((part) => part.type === 'tool-result');
    const fromMessages = contents
      .filter((part) => part.type === 'tool-call')
      .map((call) =>
        displayToolCall(
          call,
          results.find((r) => r.toolCallId === call.toolCallId),
        ),
      );
    expect(fromMessages.map(({ name, status }) => [name, status])).toEqual([
      ['send_email', 'refused'],
      ['search_tools', 'done'],
      ['get_weather', 'done'],
    ]);
  });

  it('shows a call still streaming in as call_tool until its name arrives, and a failed one as an error', () => {
    expect(displayToolCall({ type: 'tool-call_tool', toolCallId: 'a', state: 'input-streaming', input: {} })).toEqual({
      name: 'call_tool',
      arguments: {},
      bridged: true,
      status: 'pending',
    });
    const partial = {
      type: 'tool-call_tool',
      toolCallId: 'a',
      state: 'input-streaming',
      input: { name: 'get_weather', arguments: { ci: 1 } },
    };
    expect(displayToolCall(partial)).toMatchObject({ name: 'get_weather', status: 'pending' });
    const failed = {
      type: 'tool-call_tool',
      toolCallId: 'a',
      state: 'output-error',
      input: { name: 'x' },
      errorText: 'boom',
    };
    expect(displayToolCall(failed)).toMatchObject({ name: 'x', status: 'error', error: 'boom' });
    const dynamic = {
      type: 'dynamic-tool',
      toolName: 'call_tool',
      toolCallId: 'a',
      state: 'input-available',
      input: '{"name":"y"}',
    };
    expect(displayToolCall(dynamic)).toMatchObject({ name: 'y', bridged: true, status: 'pending' });
    expect(displayToolCall({ name: CALL_TOOL_NAME, arguments: '{"name":"z"}' })).toMatchObject({
      name: 'z',
      bridged: true,
    });
    for (const junk of [undefined, null, 7, 'x', [], { type: 'text', text: 'hi' }]) {
      expect(displayToolCall(junk)).toMatchObject({ name: '', arguments: {}, bridged: false, status: 'pending' });
    }
  });
});

describe('displayToolCall: OpenAI', () => {
  it('reads Chat tool calls with the tool messages the layer answered them with', async () => {
    const layer = createToolSearch(quiet());
    const { execute } = executor();
    const options = { sessionId: 'chat', tools: chatTools, execute };
    const call = (id: string, name: string, args: unknown): ChatCompletionMessageToolCall => ({
      id,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    });
    const early = call('1', 'call_tool', { name: 'get_weather', arguments: { city: 'Oslo' } });
    const refused = await answerChatToolCall(layer, early, options);
    await answerChatToolCall(layer, call('2', 'search_tools', { query: 'weather now' }), options);
    const late = call('3', 'call_tool', { name: 'get_weather', arguments: JSON.stringify({ city: 'Oslo' }) });
    const done = await answerChatToolCall(layer, late, options);
    expect(fromOpenAi(early, refused)).toMatchObject({ name: 'get_weather', status: 'refused', bridged: true });
    expect(fromOpenAi(late, done)).toEqual({
      name: 'get_weather',
      arguments: { city: 'Oslo' },
      bridged: true,
      status: 'done',
      result: { ok: true, tool: 'get_weather' },
    });
    expect(fromOpenAi(late)).toMatchObject({ name: 'get_weather', status: 'pending' });
  });

  it('reads Responses function_call items with their function_call_output items', async () => {
    const layer = createToolSearch(quiet());
    const { execute } = executor();
    const options = { sessionId: 'responses', tools: responsesTools, execute };
    const item = (id: string, name: string, args: unknown): ResponseFunctionToolCall => ({
      type: 'function_call',
      call_id: id,
      name,
      arguments: JSON.stringify(args),
    });
    await answerResponseToolCall(layer, item('1', 'search_tools', { query: 'weather now' }), options);
    const call = item('2', 'call_tool', { name: 'get_weather', arguments: { city: 'Oslo' } });
    const [output] = await answerResponseToolCall(layer, call, options);
    expect(fromOpenAi(call, output)).toMatchObject({
      name: 'get_weather',
      arguments: { city: 'Oslo' },
      status: 'done',
      result: { ok: true, tool: 'get_weather' },
    });
  });
});

describe('displayToolCall: Anthropic', () => {
  it('reads tool_use blocks with the tool_result blocks the layer answered them with', async () => {
    const layer = createToolSearch(quiet());
    const tools = catalogue.map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      input_schema: { type: 'object' as const, ...(tool.parameters as object) },
    }));
    const { execute } = executor();
    const options = { sessionId: 'anthropic', tools, execute };
    const use = (id: string, name: string, input: unknown): ToolUseBlock =>
      ({ type: 'tool_use', id, name, input, caller: { type: 'direct' } }) as ToolUseBlock;
    const early = use('1', 'call_tool', { name: 'get_weather', arguments: { city: 'Oslo' } });
    const refused: ToolResultBlockParam = await answerAnthropicToolUse(layer, early, options);
    await answerAnthropicToolUse(layer, use('2', 'search_tools', { query: 'weather now' }), options);
    const late = use('3', 'call_tool', { name: 'get_weather', arguments: { city: 'Oslo' } });
    const done = await answerAnthropicToolUse(layer, late, options);
    expect(fromAnthropic(early, refused)).toMatchObject({ name: 'get_weather', status: 'refused' });
    expect(fromAnthropic(late, done)).toMatchObject({
      name: 'get_weather',
      arguments: { city: 'Oslo' },
      status: 'done',
      result: { ok: true, tool: 'get_weather' },
    });
    const failed = { type: 'tool_result', tool_use_id: '3', is_error: true, content: [{ type: 'text', text: 'down' }] };
    expect(fromAnthropic(late, failed)).toMatchObject({ status: 'error', error: 'down' });
  });
});
