// One round of an agent loop, as posted to the Worker: record the model's search_tools call (if any),
// then prepare the tools for the next model call. Shared by the KV route and the Durable Object.

import type { JsonSchema, Message, Tool, ToolSearch } from 'tool-search-layer';
import catalogue from '../../catalogues/mcp-github.json';

/** What a client posts: its session, the conversation so far, and the model's search_tools arguments. */
export interface RoundInput {
  sessionId: string;
  messages?: Message[];
  call?: { query: string; limit?: number; offset?: number };
  enabledGroups?: string[];
}

let tools: Tool[] | undefined;

/** The demo catalogue (GitHub's MCP server, 117 tools), each tool's `group` as its groups. */
function catalogueTools(): Tool[] {
  tools ??= (catalogue as { name: string; description: string; parameters: JsonSchema | null; group?: string }[]).map(
    (tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters ?? { type: 'object', properties: {} },
      ...(tool.group ? { groups: [tool.group] } : {}),
    }),
  );
  return tools as Tool[];
}

/** Reads a posted round, or answers why it cannot. */
export async function readRound(request: Request): Promise<RoundInput | Response> {
  if (request.method !== 'POST') return Response.json({ error: 'POST a JSON round' }, { status: 405 });
  const body = (await request.json().catch(() => undefined)) as RoundInput | undefined;
  if (typeof body?.sessionId !== 'string') {
    return Response.json({ error: 'the body needs a string sessionId' }, { status: 400 });
  }
  return body;
}

/** Runs the round through the layer; answers the exposed tool names, the search result and timings (ms). */
export async function answerRound(layer: ToolSearch, input: RoundInput): Promise<Response> {
  const { sessionId, messages, call, enabledGroups } = input;
  const context = { sessionId, tools: catalogueTools(), ...(enabledGroups ? { enabledGroups } : {}) };
  const started = Date.now();
  const result = call ? await layer.search(context, call) : undefined;
  const searched = Date.now();
  const prepared = await layer.prepare({ ...context, ...(messages ? { messages } : {}) });
  return Response.json({
    tools: prepared.tools.map((tool) => tool.name),
    discovered: prepared.discovered,
    warnings: prepared.warnings,
    result,
    ms: { search: searched - started, prepare: Date.now() - searched },
  });
}
