// The Vercel AI SDK 7 toolSearch() default keyword ranking, run for real through generateText.
// It has no standalone search function, so each query is one generation of a mock model:
// step one calls the search tool with the query, step two ends; we read the names it returned.
import { generateText, isStepCount, jsonSchema, type ToolSet, tool, toolSearch } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { Peer } from './peer.ts';

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};
const emptySchema = { type: 'object', properties: {} } as const;

function mockModel(searchName: string, query: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) =>
      prompt.some((m) => m.role === 'tool')
        ? {
            content: [{ type: 'text', text: '' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'tool-call', toolCallId: 'q', toolName: searchName, input: JSON.stringify({ query }) }],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
  });
}

export const aiSdkPeer: Peer = {
  name: 'AI SDK toolSearch',
  settings:
    'ai@7 toolSearch({ maxResults: limit }) default keyword search; catalogue tools registered with deferLoading: true and jsonSchema parameters; one mock-model generation per query',
  createRanker(tools, { limit }) {
    // The SDK keys tools by name: the search tool takes a name no catalogue tool has (bfcl has a "search").
    let searchName = 'tool_search';
    while (tools.some((t) => t.name === searchName)) searchName = `_${searchName}`;
    const set: ToolSet = { [searchName]: toolSearch({ maxResults: limit }) };
    for (const t of tools) {
      if (Object.hasOwn(set, t.name)) throw new Error(`[bench] [ai-sdk] duplicate tool name ${t.name}`);
      set[t.name] = tool({
        deferLoading: true,
        description: t.description ?? '',
        inputSchema: jsonSchema((t.parameters ?? emptySchema) as Parameters<typeof jsonSchema>[0]),
      });
    }
    return async (query) => {
      const result = await generateText({
        model: mockModel(searchName, query),
        tools: set,
        stopWhen: isStepCount(2),
        prompt: query,
      });
      const output = result.steps[0]?.toolResults[0]?.output as { tools: { name: string }[] } | undefined;
      return output?.tools.map((t) => t.name) ?? [];
    };
  },
};
