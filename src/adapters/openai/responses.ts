// OpenAI Responses API: function tools, `function_call` / `function_call_output` items, and the
// native mode where the catalogue is sent with `defer_loading` and the search runs client-side as
// `tool_search` (https://developers.openai.com/api/docs/guides/tools-tool-search#client-executed-tool-search).
import type {
  ResponseFunctionToolCall,
  ResponseInput,
  ResponseInputItem,
  Tool as ResponsesTool,
  ResponseToolSearchCall,
} from 'openai/resources/responses/responses';
import type { UndiscoveredCallMode } from '../../core/calls.ts';
import type { ToolSearch } from '../../core/create-tool-search.ts';
import { type ExecuteTool, type GroupOf, routeCall } from '../provider-tools.ts';
import { type DescribeGroup, nativePlan } from './native.ts';
import { convertResponsesTools, responsesInputToMessages, toolToResponsesTool } from './responses-items.ts';

/** The part of a `responses.create` body the layer reads and rewrites. */
export interface ResponsesBody {
  readonly input?: string | ResponseInput | undefined;
  readonly instructions?: string | null | undefined;
  readonly tools?: readonly ResponsesTool[] | undefined;
  /** With a previous response, the host sends little history: the layer's store is the record of discoveries. */
  readonly previous_response_id?: string | null | undefined;
}

/** Options shared by `prepareResponse` and `answerResponseToolCall`. */
export interface ResponsesOptions {
  readonly sessionId: string;
  readonly enabledGroups?: readonly string[] | undefined;
  /** Groups of the tools, by name; in native mode each group becomes a namespace. */
  readonly groupOf?: GroupOf | undefined;
  /** Native mode: the catalogue is sent with `defer_loading: true` and searched through a client `tool_search`. Default false. */
  readonly native?: boolean | undefined;
  /** Portable mode: send `search_tools` in strict mode. The native `tool_search` is always sent strict-compatible. Default false. */
  readonly strict?: boolean | undefined;
  /** Native mode: a namespace's description; default lists the group's tool names. */
  readonly describeGroup?: DescribeGroup | undefined;
}

/** Options of `answerResponseToolCall`: those of `prepareResponse`, plus the catalogue and the executor. */
export interface AnswerResponseToolCallOptions extends ResponsesOptions {
  /** Every tool of the round, as passed to `prepareResponse` in `body.tools`. */
  readonly tools: readonly ResponsesTool[];
  /** What a call of a tool the model has not been shown gets: a hint to search (default), or the definition. */
  readonly onUndiscoveredCall?: UndiscoveredCallMode | undefined;
  /** Runs a tool the model may call; never called for the search or an undiscovered tool. */
  readonly execute: ExecuteTool<ResponsesTool>;
}

/** The output items `answerResponseToolCall` answers. */
export type ResponsesToolCallItem =
  | ResponseFunctionToolCall
  | ResponseToolSearchCall
  | Extract<ResponseInputItem, { type: 'tool_search_call' }>;

/**
 * Returns the body with its tools replaced for this round. Portable mode: `search_tools`, the direct
 * tools and the tools this session discovered, as the caller's own objects. Native mode: a client
 * `tool_search`, the direct tools, and every other visible tool with `defer_loading: true` (grouped
 * tools in one namespace per group); that list does not change as tools are found, so the cached
 * prefix holds. A round the layer bypasses comes back unchanged.
 */
export async function prepareResponse<B extends ResponsesBody>(
  layer: ToolSearch,
  body: B,
  options: ResponsesOptions,
): Promise<B> {
  const converted = convertResponsesTools(body.tools, options.groupOf);
  const prepared = await layer.prepare({
    sessionId: options.sessionId,
    tools: converted.tools,
    messages: responsesInputToMessages(body.input, body.instructions),
    enabledGroups: options.enabledGroups,
  });
  if (prepared.bypassed) return body;
  if (options.native) {
    const plan = nativePlan(layer, converted, options);
    return { ...body, tools: [...plan.tools, ...converted.passthrough] };
  }
  const tools = prepared.tools.map((tool) => converted.original(tool) ?? toolToResponsesTool(tool, options.strict));
  return { ...body, tools: [...tools, ...converted.passthrough] };
}

/**
 * Answers one tool call item of a response with the input items to append. `search_tools` (portable)
 * and `tool_search_call` (native) get the search result; a call of a tool the model has not been shown
 * gets the corrective result and is not executed (in native mode with `onUndiscoveredCall: 'discover'`,
 * followed by a `tool_search_call` / `tool_search_output` pair that loads its definition); any other
 * call gets what `execute` returns.
 */
export async function answerResponseToolCall(
  layer: ToolSearch,
  item: ResponsesToolCallItem,
  options: AnswerResponseToolCallOptions,
): Promise<ResponseInputItem[]> {
  const converted = convertResponsesTools(options.tools, options.groupOf);
  const context = { sessionId: options.sessionId, tools: converted.tools, enabledGroups: options.enabledGroups };
  if (item.type === 'tool_search_call') {
    const result = await layer.search(context, item.arguments);
    const found = 'tools' in result ? result.tools.map((tool) => tool.name) : [];
    const plan = nativePlan(layer, converted, options);
    return [plan.output(item.call_id ?? item.id ?? '', found)];
  }
  const routed = await routeCall(
    layer,
    context,
    { name: item.name, arguments: item.arguments },
    {
      onUndiscoveredCall: options.onUndiscoveredCall,
      original: converted.original,
      execute: options.execute,
      passthrough: (name) =>
        converted.passthrough.find(
          (tool) => (tool.type === 'custom' || tool.type === 'function') && tool.name === name,
        ),
    },
  );
  const output = routed.kind === 'executed' ? routed.output : JSON.stringify(routed.result);
  const items: ResponseInputItem[] = [{ type: 'function_call_output', call_id: item.call_id, output }];
  if (options.native && routed.kind === 'corrective' && routed.result.tools && routed.result.tools.length > 0) {
    // The tool is deferred, so its schema reaches the model only through a tool search output: this
    // pair loads it the way a search would, and the model can call it again with valid arguments.
    const plan = nativePlan(layer, converted, options);
    const callId = `load_${item.call_id}`;
    const names = routed.result.tools.map((tool) => tool.name);
    items.push(
      {
        type: 'tool_search_call',
        call_id: callId,
        execution: 'client',
        status: 'completed',
        arguments: { query: names.join(' ') },
      },
      plan.output(callId, names),
    );
  }
  return items;
}
