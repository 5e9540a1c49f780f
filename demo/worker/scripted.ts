// The example Worker for the tests: everything of src/agents.ts, with the Assistant's model replaced by a scripted
// one (the AI SDK's MockLanguageModelV4) and two routes to look inside the agent. test/node/worker-example.test.ts
// bundles this file with bundleWorker, as wrangler bundles src/agents.ts.
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { createToolSearch } from 'tool-search-layer';
import { createAgentMcpCatalogue } from 'tool-search-layer/mcp';
import { Assistant } from './src/assistant.ts';

export * from './src/agents.ts';
export { default } from './src/agents.ts';

/** What the user message of a turn asks the scripted model to do: search, then call a tool, then answer. */
interface Script {
  search?: string;
  call?: { name: string; input: Record<string, unknown> };
}

const usage = { inputTokens: { total: 10 }, outputTokens: { total: 5 } } as never;

/** Plays the script in the last user message; its answer lists the tools it was offered and the results it saw. */
function scriptedStep(options: LanguageModelV4CallOptions) {
  const prompt = options.prompt;
  const lastUser = prompt.findLastIndex((message) => message.role === 'user');
  const userPart = prompt[lastUser]?.content[0] as { text?: string } | undefined;
  const script = JSON.parse(userPart?.text ?? '{}') as Script;
  const plan = [
    ...(script.search ? [{ name: 'search_tools', input: { query: script.search, limit: 1 } }] : []),
    ...(script.call ? [script.call] : []),
  ];
  const results = prompt
    .slice(lastUser + 1)
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content as { output?: { value?: unknown } }[])
    .map((part) => part.output?.value);
  const step = results.length;
  const next = plan[step];
  const offered = (options.tools ?? []).map((tool) => tool.name);
  if (next) {
    // Through the bridge (the adapter's default), a found tool is called as call_tool { name, arguments }.
    const bridged = next.name !== 'search_tools' && offered.includes('call_tool');
    const [toolName, input] = bridged
      ? ['call_tool', { name: next.name, arguments: next.input }]
      : [next.name, next.input];
    const content = [{ type: 'tool-call', toolCallId: `call-${step}`, toolName, input: JSON.stringify(input) }];
    return { content, finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] } as never;
  }
  const text = JSON.stringify({ offered, results });
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: undefined },
    usage,
    warnings: [],
  } as never;
}

/** The Assistant with a scripted model; GET answers its state, SQL rows and discovered set, DELETE clears the store. */
export class ScriptedAssistant extends Assistant {
  override model() {
    return new MockLanguageModelV4({ doGenerate: async (options) => scriptedStep(options) });
  }

  override async onRequest(request: Request): Promise<Response> {
    if (request.method === 'DELETE') {
      await this.store.clear();
      return Response.json({ cleared: true });
    }
    if (request.method !== 'GET') return super.onRequest(request);
    await this.mcp.waitForConnections();
    const catalogue = await createAgentMcpCatalogue(this.mcp);
    const prepared = await createToolSearch({ store: this.store }).prepare({
      sessionId: this.name,
      tools: catalogue.tools,
    });
    const rows = this.sql<{ words: string }>`SELECT words FROM turns ORDER BY id`;
    return Response.json({ state: this.state, turns: rows.map((row) => row.words), discovered: prepared.discovered });
  }
}
