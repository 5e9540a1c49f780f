// Learning through the Anthropic adapter's own loop: the real `@anthropic-ai/sdk` client against the loopback
// provider, in every exposure ('native' with its tool_reference search results, 'inline' on the beta API, 'bridge',
// 'tools'). Each session searches, calls the tool it found, and must teach the layer (see learn-fixtures.ts).
import Anthropic from '@anthropic-ai/sdk';
import type { Tool as AnthropicTool, MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ToolSearch } from 'tool-search-layer';
import {
  type AnthropicExposure,
  type AnthropicMessage,
  answerAnthropicToolUse,
  prepareAnthropicMessages,
} from 'tool-search-layer/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../core/fixtures.ts';
import { expectTaught, expectUntaught, LEARN_ARGS, LEARN_QUERY, LEARN_TOOL, learningLayer } from './learn-fixtures.ts';
import { anthropicReply, type MockProvider, startMockProvider } from './mock-provider.ts';

const tools: AnthropicTool[] = catalogue.map((tool) => ({
  name: tool.name,
  description: tool.description ?? '',
  input_schema: (tool.parameters ?? { type: 'object' }) as AnthropicTool['input_schema'],
}));
const groupOf = (name: string) => catalogue.find((tool) => tool.name === name)?.groups;

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** An app's loop: keep the history, prepare each round, answer each tool_use; the tools it ran. */
async function session(layer: ToolSearch, exposure: AnthropicExposure) {
  const call =
    exposure === 'bridge' ? ['call_tool', { name: LEARN_TOOL, arguments: LEARN_ARGS }] : [LEARN_TOOL, LEARN_ARGS];
  provider = await startMockProvider(
    (_request, i) =>
      [
        anthropicReply({ uses: [['search_tools', { query: LEARN_QUERY }]] }),
        anthropicReply({ text: 'Checking.', uses: [call as [string, unknown]] }),
      ][i] ?? anthropicReply({ text: 'Take one.' }),
  );
  const client = new Anthropic({ baseURL: provider.origin, apiKey: 'test', maxRetries: 0 });
  const ran: string[] = [];
  const execute = ({ name }: { name: string }) => {
    ran.push(name);
    return `ran ${name}`;
  };
  const options = { sessionId: `learn-${exposure}`, groupOf, exposure };
  const messages: AnthropicMessage[] = [{ role: 'user', content: 'Do I need an umbrella in Oslo?' }];
  for (let round = 0; round < 6; round++) {
    const body = { model: 'mock-model', max_tokens: 1024, messages, tools };
    const reply =
      exposure === 'inline'
        ? await client.beta.messages.create(await prepareAnthropicMessages(layer, body, { ...options, exposure }))
        : await client.messages.create(
            (await prepareAnthropicMessages(layer, body, options)) as Anthropic.MessageCreateParamsNonStreaming,
          );
    messages.push({ role: 'assistant', content: reply.content } as MessageParam);
    const results = [];
    for (const block of reply.content) {
      if (block.type === 'tool_use')
        results.push(await answerAnthropicToolUse(layer, block, { ...options, tools, execute }));
    }
    if (results.length === 0) break;
    messages.push({ role: 'user', content: results });
  }
  return ran;
}

describe('learning through the Anthropic adapter', () => {
  for (const exposure of ['native', 'inline', 'bridge', 'tools'] as const) {
    it(`${exposure}: the search_tools query is credited to the tool that ran`, async () => {
      const layer = learningLayer();
      await expectUntaught(layer);
      expect(await session(layer, exposure)).toEqual([LEARN_TOOL]);
      if (exposure === 'native') {
        // The search was answered with tool_reference blocks, which the layer reads as what it found.
        expect(JSON.stringify(provider?.body(1).messages)).toContain('"tool_reference"');
      }
      await expectTaught(layer);
    });
  }
});
