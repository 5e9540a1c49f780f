// The MCP router: the layer over an MCP catalogue; search results carry the servers' annotations, calls reach their server.

import { ToolSearchError } from '../../base/errors.ts';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import type { Message } from '../../base/types.ts';
import { type FoundTool, SEARCH_TOOL_NAME, type SearchErrorResult, type SearchResult } from '../../core/search-tool.ts';
import type { Exposure } from '../../exposure/mode.ts';
import type { PrepareInput, PrepareResult, SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import { createCallMemory, fromLast } from '../common/call-memory.ts';
import type { AdapterOptions } from '../common/options.ts';
import type { McpCatalogue, McpTool } from './catalogue.ts';
import type { McpCallToolResult, McpRequestOptions, McpToolAnnotations } from './types.ts';

/** A found tool with what its MCP server says about it. */
export interface McpFoundTool extends FoundTool {
  /** The server's hints, such as `readOnlyHint` and `destructiveHint`. */
  readonly annotations?: McpToolAnnotations;
  readonly title?: string;
  /** The server the tool is on. */
  readonly server: string;
}

/** A search result whose tools carry their server and annotations. */
export interface McpSearchResult extends Omit<SearchResult, 'tools'> {
  readonly tools: readonly McpFoundTool[];
}

/** The round's context without tools: the router supplies the catalogue's. */
export type McpContext = Omit<SearchContext, 'tools'>;

/** The layer bound to an MCP catalogue. */
export interface McpRouter {
  readonly catalogue: McpCatalogue;
  /**
   * `layer.prepare` over the catalogue's current tools. Without `messages`, the layer reads the session's last search
   * and the calls after it as this router answered them, so the `learn` option works with no history passed.
   */
  prepare(input: Omit<PrepareInput, 'tools'>): Promise<PrepareResult>;
  /** `layer.search` over the catalogue, each found tool with its server and annotations. */
  search(context: McpContext, args: unknown): Promise<McpSearchResult | SearchErrorResult>;
  /**
   * Answers any tool call of the model: `search_tools` is searched; `call_tool` (bridge) is checked by
   * `layer.callTool` and runs the tool it names; a tool the model may call is called on its server with its own
   * name; any other call gets the layer's corrective result and reaches no server.
   */
  call(context: McpContext, name: string, args: unknown, options?: McpRequestOptions): Promise<McpCallToolResult>;
}

/** How the router exposes the catalogue, and answers calls of tools the model was never shown. */
export interface McpRouterOptions extends Pick<AdapterOptions<Exposure>, 'onUndiscoveredCall'> {
  /**
   * 'bridge': the model gets a constant tools block (`search_tools`, `call_tool`) and calls what it found through
   * `call_tool`, so the prompt prefix never changes; 'tools': found tools join the tools block. Default: the layer's
   * own `exposure` option. A context's `exposure` overrides this per call.
   */
  readonly exposure?: Exposure | undefined;
}

const textResult = (value: unknown, isError: boolean): McpCallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  ...(isError && { isError }),
});

/** The model's arguments as an object: an object, or a string holding one; undefined for anything else. */
function argumentsOf(args: unknown): Record<string, unknown> | undefined {
  let value = args ?? {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value || '{}');
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Binds a layer to an MCP catalogue: prepare and search over its tools, and route the model's calls.
 * @example
 * const router = createMcpRouter(createToolSearch(), await createMcpCatalogue({ github, memory }))
 * const { tools } = await router.prepare({ sessionId, messages })
 * const result = await router.call({ sessionId }, call.name, call.arguments)
 */
/* @__NO_SIDE_EFFECTS__ */
export function createMcpRouter(layer: ToolSearch, catalogue: McpCatalogue, options: McpRouterOptions = {}): McpRouter {
  if (typeof layer?.prepare !== 'function' || typeof layer.checkCall !== 'function') {
    throw new ToolSearchError('createMcpRouter: layer must be a layer from createToolSearch()');
  }
  if (!Array.isArray(catalogue?.tools) || typeof catalogue.call !== 'function') {
    throw new ToolSearchError('createMcpRouter: catalogue must come from createMcpCatalogue()');
  }
  const mode = options.onUndiscoveredCall ?? 'hint';
  if (mode !== 'hint' && mode !== 'discover') {
    throw new ToolSearchError('createMcpRouter: options.onUndiscoveredCall must be "hint" or "discover"');
  }
  const exposure = options.exposure;
  if (exposure !== undefined && exposure !== 'tools' && exposure !== 'bridge') {
    throw new ToolSearchError('createMcpRouter: options.exposure must be "tools" or "bridge"');
  }
  // The router's exposure, unless the call's context names its own; and the catalogue's current tools.
  const withTools = <T extends McpContext>(context: T) => ({
    ...(exposure && { exposure }),
    ...context,
    tools: catalogue.tools,
  });

  const search = async (context: McpContext, args: unknown): Promise<McpSearchResult | SearchErrorResult> => {
    const { tools } = catalogue;
    const result = await layer.search(withTools(context), args);
    if (!('tools' in result)) return result;
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    return { ...result, tools: result.tools.map((found) => decorate(found, byName.get(found.name))) };
  };

  // The calls this router answered, per session, from the last search on: what a host that passes no messages to
  // `prepare` would otherwise never hand the learner.
  const answered = createCallMemory();
  let calls = 0;
  const remember = (context: McpContext, name: string, args: unknown, result: McpCallToolResult) => {
    if (typeof context?.sessionId !== 'string') return;
    const id = `mcp_${++calls}`;
    const text = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    const first = result.content?.[0];
    const turn: Message[] = [
      ...answered.get(context.sessionId),
      { role: 'assistant', content: null, toolCalls: [{ id, name, arguments: text }] },
      { role: 'tool', toolCallId: id, content: first?.type === 'text' ? first.text : '' },
    ];
    const searched = (message: Message) => message.toolCalls?.some((call) => call.name === SEARCH_TOOL_NAME) === true;
    answered.set(context.sessionId, fromLast(turn, searched));
  };

  async function answer(
    context: McpContext,
    name: string,
    args: unknown,
    requestOptions: McpRequestOptions | undefined,
  ): Promise<McpCallToolResult> {
    if (name === SEARCH_TOOL_NAME) {
      const result = await search(context, args);
      return textResult(result, 'error' in result);
    }
    if (name === CALL_TOOL_NAME && withTools(context).exposure === 'bridge') {
      const bridged = await layer.callTool(withTools(context), args, { onUndiscoveredCall: mode });
      if (!bridged.ok) return textResult(bridged.result, true);
      return catalogue.call(bridged.name, { ...bridged.arguments }, requestOptions);
    }
    const check = await layer.checkCall(withTools(context), name, { onUndiscoveredCall: mode });
    if (!check.ok) return textResult(check.result, true);
    const parsed = argumentsOf(args);
    if (!parsed) {
      return textResult({ error: `The arguments of "${name}" must be a JSON object; nothing was called.` }, true);
    }
    return catalogue.call(name, parsed, requestOptions);
  }

  return {
    catalogue,
    prepare: (input) =>
      layer.prepare(
        withTools(
          input?.messages === undefined && typeof input?.sessionId === 'string'
            ? { ...input, messages: answered.get(input.sessionId) }
            : input,
        ),
      ),
    search,
    async call(context, name, args, requestOptions) {
      const result = await answer(context, name, args, requestOptions);
      remember(context, name, args, result);
      return result;
    },
  };
}

/** The found tool with its server's annotations, in the layer's key order. */
function decorate(found: FoundTool, tool: McpTool | undefined): McpFoundTool {
  if (!tool) return found as McpFoundTool;
  // A tool marked `shown` was sent whole before, title and annotations with it.
  if (found.shown) return { ...found, server: tool.server };
  return {
    ...found,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(tool.annotations && { annotations: tool.annotations }),
    server: tool.server,
  };
}
