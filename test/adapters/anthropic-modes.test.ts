// tool-search-layer/anthropic: choosing the exposure, and the 'inline' mode's placement of `tool_addition` messages.
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { Tool as AnthropicTool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import { createToolSearch, ToolSearchError } from 'tool-search-layer';
import {
  type AnthropicMessage,
  type AnthropicOptions,
  answerAnthropicToolUse,
  prepareAnthropicMessages,
} from 'tool-search-layer/anthropic';
import { describe, expect, it } from 'vitest';
import { catalogue, recordingLogger } from '../core/fixtures.ts';

const tools: AnthropicTool[] = catalogue.map((tool) => ({
  name: tool.name,
  description: tool.description ?? '',
  input_schema: (tool.parameters ?? { type: 'object' }) as AnthropicTool['input_schema'],
}));
const groupOf = (name: string) => catalogue.find((tool) => tool.name === name)?.groups;
const quiet = () => createToolSearch({ logger: recordingLogger() });
const deferredCount = (list: readonly unknown[]) =>
  list.filter((tool) => (tool as { defer_loading?: boolean }).defer_loading === true).length;

describe('the exposure option', () => {
  const body = { messages: [{ role: 'user' as const, content: 'hi' }], tools };

  it("defaults to 'native', which keeps the tools array fixed; `native: true` and `native: false` still work", async () => {
    const fallback = await prepareAnthropicMessages(quiet(), body, { sessionId: 'd' });
    expect(deferredCount(fallback.tools)).toBe(tools.length);
    const alias = await prepareAnthropicMessages(quiet(), body, { sessionId: 'd', native: true });
    expect(alias.tools).toEqual(fallback.tools);
    const portable = await prepareAnthropicMessages(quiet(), body, { sessionId: 'd', native: false });
    expect(portable.tools.map((tool) => tool.name)).toEqual(['search_tools']);
  });

  it('throws a ToolSearchError naming the option for an unknown mode, in both helpers', async () => {
    const options = { sessionId: 'd', exposure: 'deferred' } as unknown as AnthropicOptions;
    await expect(prepareAnthropicMessages(quiet(), body, options)).rejects.toThrow(ToolSearchError);
    await expect(prepareAnthropicMessages(quiet(), body, options)).rejects.toThrow(/options\.exposure must be one of/);
    const block = { type: 'tool_use' as const, id: 't', name: 'search_tools', input: { query: 'x' } };
    await expect(answerAnthropicToolUse(quiet(), block, { ...options, tools, execute: () => '' })).rejects.toThrow(
      /options\.exposure/,
    );
  });
});

describe("'inline': where the tool_addition messages go", () => {
  const options = { sessionId: 'i', groupOf, exposure: 'inline' as const };

  /** A search round: the model's search_tools use and the layer's answer. */
  async function searchRound(layer: ReturnType<typeof quiet>, id: string, query: string): Promise<AnthropicMessage[]> {
    const use = { type: 'tool_use' as const, id, name: 'search_tools', input: { query, limit: 1 } };
    const result: ToolResultBlockParam = await answerAnthropicToolUse(layer, use, {
      ...options,
      tools,
      execute: () => '',
    });
    return [
      { role: 'assistant', content: [use] },
      { role: 'user', content: [result] },
    ];
  }
  const additions = (messages: readonly BetaMessageParam[]) =>
    messages.flatMap((message, index) =>
      message.role === 'system' && Array.isArray(message.content)
        ? message.content.map((block) => [
            index,
            block.type === 'tool_addition' && 'definition' in block.tool
              ? (block.tool.definition as { name: string }).name
              : '',
          ])
        : [],
    );

  it('puts each after the tool results that found the tools, the same whether the caller keeps them or not', async () => {
    const layer = quiet();
    const history: AnthropicMessage[] = [{ role: 'user', content: 'Weather, then mail.' }];
    history.push(...(await searchRound(layer, 'u1', 'weather forecast')));
    const first = await prepareAnthropicMessages(layer, { messages: history, tools }, options);
    expect(additions(first.messages)).toEqual([[3, 'get_forecast']]);
    history.push(...(await searchRound(layer, 'u2', 'send email')));
    // An app that keeps its own history, without the added messages…
    const own = await prepareAnthropicMessages(layer, { messages: history, tools }, options);
    expect(additions(own.messages)).toEqual([
      [3, 'get_forecast'],
      [6, 'send_email'],
    ]);
    expect(JSON.stringify(own.messages.slice(0, first.messages.length))).toBe(JSON.stringify(first.messages));
    // …and one that sends back the request's messages get the same bytes: nothing is added twice.
    const kept = [...(first.messages as AnthropicMessage[]), ...history.slice(3)];
    const again = await prepareAnthropicMessages(layer, { messages: kept, tools }, options);
    expect(JSON.stringify(again.messages)).toBe(JSON.stringify(own.messages));
  });

  it('adds a tool found in an earlier conversation of the session at the end, never after an assistant turn', async () => {
    const layer = quiet();
    await answerAnthropicToolUse(
      layer,
      { type: 'tool_use', id: 'u0', name: 'search_tools', input: { query: 'read file', limit: 1 } },
      {
        ...options,
        tools,
        execute: () => '',
      },
    );
    const waiting: AnthropicMessage[] = [
      { role: 'user', content: 'Open my notes.' },
      { role: 'assistant', content: 'Let me think.' },
    ];
    const early = await prepareAnthropicMessages(layer, { messages: waiting, tools }, options);
    expect(additions(early.messages)).toEqual([]);
    const asked = [...waiting, { role: 'user' as const, content: 'Go on.' }];
    const request = await prepareAnthropicMessages(layer, { messages: asked, tools }, options);
    expect(additions(request.messages)).toEqual([[3, 'read_file']]);
    expect(request.tools.map((tool) => tool.name)).toEqual(['search_tools']);
  });

  it('keeps an addition where it is when enabledGroups narrow later, and refuses calls of the tool', async () => {
    const layer = quiet();
    const history: AnthropicMessage[] = [
      { role: 'user', content: 'Weather?' },
      ...(await searchRound(layer, 'w', 'weather forecast')),
    ];
    const before = await prepareAnthropicMessages(layer, { messages: history, tools }, options);
    const narrowed = { ...options, enabledGroups: ['mail'] };
    const after = await prepareAnthropicMessages(layer, { messages: history, tools }, narrowed);
    expect(JSON.stringify(after.messages)).toBe(JSON.stringify(before.messages));
    const call = { type: 'tool_use' as const, id: 'c', name: 'get_forecast', input: { city: 'Oslo', days: '1' } };
    const answer = await answerAnthropicToolUse(layer, call, { ...narrowed, tools, execute: () => 'ran' });
    expect(answer.is_error).toBe(true);
  });

  it('sends its betas once, beside the caller’s own', async () => {
    const body = {
      messages: [{ role: 'user' as const, content: 'hi' }],
      tools,
      betas: ['context-1m-2025-08-07', 'inline-tools-2026-09-15'],
    };
    const request = await prepareAnthropicMessages(quiet(), body, options);
    expect(request.betas).toEqual([
      'context-1m-2025-08-07',
      'inline-tools-2026-09-15',
      'mid-conversation-tool-changes-2026-07-01',
    ]);
  });
});
