// Type-checked with `tsc --strict` against the built package (openai-types.test.ts) and run against the loopback
// provider: what a user writes with the adapter, which must compile as written.
import type OpenAI from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool, NamespaceTool, ToolSearchTool } from 'openai/resources/responses/responses';
import type { ToolSearch } from 'tool-search-layer';
import { prepareChatCompletion, prepareResponse } from 'tool-search-layer/openai';

/** `stream: true` keeps its literal type through the helper, so the client returns a stream to iterate. */
export async function streamChat(client: OpenAI, layer: ToolSearch, tools: ChatCompletionTool[]): Promise<string> {
  const messages = [{ role: 'user' as const, content: 'hi' }];
  const request = await prepareChatCompletion(
    layer,
    { model: 'gpt-5.4', messages, tools, stream: true },
    { sessionId: 'st' },
  );
  const stream = await client.chat.completions.create(request);
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

/** The same for the Responses API. */
export async function streamResponse(client: OpenAI, layer: ToolSearch, tools: FunctionTool[]): Promise<string> {
  const request = await prepareResponse(
    layer,
    { model: 'gpt-5.4', input: 'hi', tools, stream: true },
    { sessionId: 'st' },
  );
  const stream = await client.responses.create(request);
  let text = '';
  for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
  return text;
}

/** Native mode adds `tool_search` and namespaces to a list of functions: the result's type admits them. */
export async function nativeTools(
  layer: ToolSearch,
  tools: FunctionTool[],
  groupOf: (name: string) => string | undefined,
): Promise<{ search: ToolSearchTool[]; namespaces: NamespaceTool[] }> {
  const options = { sessionId: 'nt', exposure: 'native', groupOf } as const;
  const request = await prepareResponse(layer, { input: 'hi', tools }, options);
  return {
    search: request.tools.filter((tool): tool is ToolSearchTool => tool.type === 'tool_search'),
    namespaces: request.tools.filter((tool): tool is NamespaceTool => tool.type === 'namespace'),
  };
}
