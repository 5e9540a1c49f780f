// Issue 29 item 3: the core keeps every discovery (maxDiscoveredKeep: 0), so the adapters say when a request
// would carry more tools than the provider takes: one warning and one `tool-limit` event per layer.
import type { Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages/messages';
import type { FunctionDeclaration } from '@google/genai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { createToolSearch, type ToolSearchEvent } from 'tool-search-layer';
import { prepareAnthropicMessages } from 'tool-search-layer/anthropic';
import { answerGeminiFunctionCall, prepareGeminiRequest } from 'tool-search-layer/gemini';
import {
  answerChatToolCall,
  answerResponseToolCall,
  prepareChatCompletion,
  prepareResponse,
} from 'tool-search-layer/openai';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../core/fixtures.ts';

const schema = { type: 'object', properties: { id: { type: 'string' } } } as const;
const widgets = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ name: `widget_${i}`, description: `Turn widget number ${i}` }));
const chatTools: ChatCompletionTool[] = widgets(200).map((w) => ({
  type: 'function',
  function: { ...w, parameters: schema },
}));
const responsesTools: FunctionTool[] = widgets(200).map((w) => ({
  type: 'function',
  ...w,
  parameters: schema,
  strict: false,
}));
const messages = [{ role: 'user' as const, content: 'turn every widget' }];
const findAll = { query: 'widget', limit: 200 };
const execute = () => 'done';

/** A layer that keeps every discovery and returns every match, with what it warned and emitted. */
function watchedLayer() {
  const logger = recordingLogger();
  const events: ToolSearchEvent[] = [];
  const layer = createToolSearch({
    logger,
    maxSearchResults: 0,
    maxDiscoveredKeep: 0,
    onEvent: (event) => events.push(event),
  });
  const warnings = () => logger.lines.filter((line) => line.includes('in one request'));
  const limits = () => events.filter((event) => event.type === 'tool-limit');
  return { layer, warnings, limits };
}

describe("a 'tools' exposure past the provider's limit", () => {
  it('OpenAI Chat Completions: past 128 tools, one warning and one event, however many rounds follow', async () => {
    const { layer, warnings, limits } = watchedLayer();
    const options = { sessionId: 's', exposure: 'tools' as const };
    const call = {
      id: 'c1',
      type: 'function' as const,
      function: { name: 'search_tools', arguments: JSON.stringify(findAll) },
    };
    await answerChatToolCall(layer, call, { ...options, tools: chatTools, execute });
    for (let round = 0; round < 2; round++) {
      const body = await prepareChatCompletion(layer, { model: 'm', messages, tools: chatTools }, options);
      expect(body.tools).toHaveLength(201);
    }
    expect(warnings()).toEqual([
      '[tool-search-layer] openai: 201 function tools in one request; OpenAI takes at most 128 (the bridge sends two, with your direct tools)',
    ]);
    expect(limits()).toEqual([{ type: 'tool-limit', sessionId: 's', provider: 'openai', tools: 201, limit: 128 }]);
    const bridged = await prepareChatCompletion(
      layer,
      { model: 'm', messages, tools: chatTools },
      { sessionId: 's', exposure: 'bridge' },
    );
    expect(bridged.tools).toHaveLength(2);
  });

  it("OpenAI Responses: the same in 'tools' mode; 'native' defers the catalogue and says nothing", async () => {
    const { layer, warnings, limits } = watchedLayer();
    const item = {
      type: 'function_call' as const,
      call_id: 'c1',
      name: 'search_tools',
      arguments: JSON.stringify(findAll),
    };
    const native = await prepareResponse(
      layer,
      { input: 'turn every widget', tools: responsesTools },
      { sessionId: 's', exposure: 'native' },
    );
    expect(native.tools?.length).toBeGreaterThan(128);
    expect(warnings()).toEqual([]);
    await answerResponseToolCall(layer, item, { sessionId: 's', exposure: 'tools', tools: responsesTools, execute });
    const body = await prepareResponse(
      layer,
      { input: 'turn every widget', tools: responsesTools },
      { sessionId: 's', exposure: 'tools' },
    );
    expect(body.tools).toHaveLength(201);
    expect(warnings()).toHaveLength(1);
    expect(limits()).toEqual([{ type: 'tool-limit', sessionId: 's', provider: 'openai', tools: 201, limit: 128 }]);
  });

  it("Anthropic: 'native' past tool search's 10,000-tool catalogue; fewer tools, no word", async () => {
    const { layer, warnings, limits } = watchedLayer();
    const toAnthropic = (w: { name: string; description: string }): AnthropicTool => ({ ...w, input_schema: schema });
    const body = (count: number) => ({ max_tokens: 1, messages, tools: widgets(count).map(toAnthropic) });
    await prepareAnthropicMessages(layer, body(200), { sessionId: 's' });
    expect(warnings()).toEqual([]);
    const large = await prepareAnthropicMessages(layer, body(10_001), { sessionId: 's' });
    expect(large.tools).toHaveLength(10_002);
    expect(warnings()).toEqual([
      "[tool-search-layer] anthropic: 10002 tools in one request; Anthropic's tool search takes at most 10,000 in its catalogue (the bridge sends two, with your direct tools)",
    ]);
    expect(limits()).toEqual([
      { type: 'tool-limit', sessionId: 's', provider: 'anthropic', tools: 10_002, limit: 10_000 },
    ]);
  });

  it('Gemini: past about 100 declarations, through the same helper, with its event', async () => {
    const { layer, limits } = watchedLayer();
    const declarations: FunctionDeclaration[] = widgets(200).map((w) => ({ ...w, parametersJsonSchema: schema }));
    const options = { sessionId: 's', exposure: 'tools' as const };
    const tools = [{ functionDeclarations: declarations }];
    const call = { name: 'search_tools', args: findAll };
    await answerGeminiFunctionCall(layer, call, { ...options, tools, execute });
    await prepareGeminiRequest(layer, { contents: 'turn every widget', config: { tools } }, options);
    expect(limits()).toEqual([{ type: 'tool-limit', sessionId: 's', provider: 'gemini', tools: 201, limit: 100 }]);
  });
});
