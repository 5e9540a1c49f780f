// toolSearchMiddleware: createAgent keeps the whole catalogue registered; each model call is offered what the layer
// exposes, and each tool call is answered or gated here, since what a model is offered does not limit what
// createAgent runs.
import { ToolMessage } from '@langchain/core/messages';
import { type AgentMiddleware, createMiddleware } from 'langchain';
import { ToolSearchError } from '../../base/errors.ts';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import type { Tool } from '../../base/types.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import type { AdapterOptions } from '../common/options.ts';
import { outputText } from '../common/provider-tools.ts';
import { type LangChainMessageLike, layerMessages } from './messages.ts';
import { convertTools, type LangChainToolLike, metaTool } from './tools.ts';

/** What a run carries that names its session: LangGraph's `configurable`. */
export interface RunInfo {
  readonly configurable?: Readonly<Record<string, unknown>> | undefined;
}

/** The options of `toolSearchMiddleware`. */
export interface ToolSearchMiddlewareOptions extends Pick<AdapterOptions<'bridge' | 'tools'>, 'groupOf'> {
  /**
   * 'bridge' (default): `search_tools` and `call_tool` (and the direct tools), the same tools every model call, so
   * a provider's prompt cache holds. 'tools': `search_tools`, the direct tools and the tools this thread found.
   */
  readonly exposure?: 'bridge' | 'tools';
  /** The session of a run. Default: its `configurable.thread_id`; a run without one is a host mistake and throws. */
  readonly sessionId?: (run: RunInfo) => string | undefined;
  /** The groups enabled for a run (a tool with groups is visible only when one is enabled). Default: all visible. */
  readonly enabledGroups?: readonly string[] | ((run: RunInfo) => readonly string[] | undefined);
}

interface Round {
  readonly context: SearchContext;
  readonly original: (tool: Tool) => LangChainToolLike | undefined;
}

/**
 * A `createAgent` middleware that narrows every model call to what the layer exposes and answers `search_tools` and
 * `call_tool` itself; found tools run through the host's own tool objects, with the model's arguments unchanged.
 * @example
 * const agent = createAgent({ model, tools: allTools, middleware: [toolSearchMiddleware(layer)] })
 * await agent.invoke({ messages }, { configurable: { thread_id: chatId } })
 */
export function toolSearchMiddleware(layer: ToolSearch, options: ToolSearchMiddlewareOptions = {}): AgentMiddleware {
  const exposure = options.exposure ?? 'bridge';
  if (exposure !== 'bridge' && exposure !== 'tools') {
    throw new ToolSearchError('toolSearchMiddleware: exposure must be "bridge" or "tools"');
  }
  // The catalogue as the last model call saw it: createAgent's tools are fixed per agent.
  let catalogue: readonly LangChainToolLike[] = [];

  function round(run: RunInfo | undefined): Round {
    const sessionId = options.sessionId ? options.sessionId(run ?? {}) : run?.configurable?.thread_id;
    if (typeof sessionId !== 'string') {
      throw new ToolSearchError(
        'toolSearchMiddleware: no session for this run: pass configurable.thread_id to invoke, or the sessionId option',
      );
    }
    const groups =
      typeof options.enabledGroups === 'function' ? options.enabledGroups(run ?? {}) : options.enabledGroups;
    const { tools, original } = convertTools(catalogue, options.groupOf);
    return { context: { sessionId, tools, exposure, ...(groups && { enabledGroups: groups }) }, original };
  }

  const reply = (content: unknown, call: { id?: string | undefined; name: string }) =>
    new ToolMessage({ content: outputText(content), tool_call_id: call.id ?? '', name: call.name });

  return createMiddleware({
    name: 'ToolSearchMiddleware',
    wrapModelCall: async (request, handler) => {
      const own = new Set([SEARCH_TOOL_NAME, CALL_TOOL_NAME]);
      catalogue = (request.tools as unknown as LangChainToolLike[]).filter((tool) => !own.has(tool?.name));
      const { context, original } = round(request.runtime as RunInfo);
      const prepared = await layer.prepare({
        ...context,
        messages: layerMessages(request.messages as unknown as LangChainMessageLike[]),
      });
      const offered = prepared.tools.map((tool) => original(tool) ?? metaTool(tool));
      return handler({ ...request, tools: offered as unknown as typeof request.tools });
    },
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const { context } = round(request.runtime as RunInfo);
      if (call.name === SEARCH_TOOL_NAME) return reply(await layer.search(context, call.args), call);
      const bridged = call.name === CALL_TOOL_NAME && !context.tools.some((tool) => tool.name === CALL_TOOL_NAME);
      // A direct call is checked and validated as call_tool would be: LangChain's own schema errors carry a stack.
      const args = bridged ? call.args : { name: call.name, arguments: call.args };
      const checked = await layer.callTool(context, args);
      if (!checked.ok) return reply(checked.result, call);
      const tool = catalogue.find((candidate) => candidate.name === checked.name);
      return handler({
        ...request,
        toolCall: { ...call, name: checked.name, args: checked.arguments as Record<string, unknown> },
        tool: tool as typeof request.tool,
      });
    },
  }) as unknown as AgentMiddleware;
}
