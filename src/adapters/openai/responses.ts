// OpenAI Responses API: the two helpers a host loop needs, `prepareResponse` before each round and
// `answerResponseToolCall` for each tool call item, in the three exposures ('bridge', 'native', 'tools').
import type {
  ResponseFunctionToolCall,
  ResponseInput,
  ResponseInputItem,
  Tool as ResponsesTool,
  ResponseToolSearchCall,
} from 'openai/resources/responses/responses';
import { ToolSearchError } from '../../base/errors.ts';
import type { SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import { type AdapterOptions, type ProviderOptions, sessionContext } from '../common/options.ts';
import { type ExecuteTool, routeCall, uniqueTools } from '../common/provider-tools.ts';
import { checkToolLimit, OPENAI_TOOL_LIMIT } from '../common/tool-limit.ts';
import { rememberCalls, roundHistory } from './chain.ts';
import { type DescribeGroup, nativePlan } from './native.ts';
import { answerToolSearch, loadItems } from './native-answer.ts';
import type { PreparedBody } from './prepared.ts';
import {
  convertResponsesTools,
  responsesInputToMessages,
  responsesToolName,
  toolToResponsesTool,
} from './responses-items.ts';

/** How the Responses API sees the catalogue: 'bridge' (default), 'native' or 'tools' (see docs/openai.md). */
export type ResponsesExposure = 'tools' | 'bridge' | 'native';

/** The part of a `responses.create` body the layer reads and rewrites. */
export interface ResponsesBody {
  readonly input?: string | ResponseInput | undefined;
  readonly instructions?: string | null | undefined;
  readonly tools?: readonly ResponsesTool[] | undefined;
  /** With a previous response, the host sends little history: the layer's store is the record of discoveries. */
  readonly previous_response_id?: string | null | undefined;
  /** Read by no one here; declared so that `stream: true` keeps its literal type through the helper. */
  readonly stream?: boolean | null | undefined;
}

/**
 * Options shared by `prepareResponse` and `answerResponseToolCall`. `exposure`: 'bridge' (default): `search_tools`,
 * `call_tool` and the direct tools, byte-identical all session, on any model; 'native': OpenAI's own tool search
 * (models with `tool_search`), the whole catalogue deferred, also byte-identical; 'tools': `search_tools`, the direct
 * tools and the tools found so far, which grows. `searchResults` 'compact' is for 'tools' mode ('native' loads
 * definitions either way). In native mode a group's tools (`groupOf`) go in namespaces of at most 9.
 */
export interface ResponsesOptions extends ProviderOptions<ResponsesExposure> {
  /** @deprecated `native: true` is `exposure: 'native'`, which wins when both are given. */
  readonly native?: boolean | undefined;
  /** Send `search_tools` in strict mode ('tools', 'bridge'). The native `tool_search` is always strict-compatible. Default false. */
  readonly strict?: boolean | undefined;
  /** Native mode: a namespace's description from the group and its names; the default is one short line. */
  readonly describeGroup?: DescribeGroup | undefined;
}

/** Options of `answerResponseToolCall`: those of `prepareResponse`, plus the catalogue and the executor. */
export interface AnswerResponseToolCallOptions extends ResponsesOptions, AdapterOptions<ResponsesExposure> {
  /** Every tool of the round, as passed to `prepareResponse` in `body.tools`. */
  readonly tools: readonly ResponsesTool[];
  /** Runs a tool the model may call; never called for the search or an undiscovered tool. */
  readonly execute: ExecuteTool<ResponsesTool>;
}

/** The output items `answerResponseToolCall` answers. */
export type ResponsesToolCallItem =
  | ResponseFunctionToolCall
  | ResponseToolSearchCall
  | Extract<ResponseInputItem, { type: 'tool_search_call' }>;

const EXPOSURES: readonly string[] = ['tools', 'bridge', 'native'];

/** The exposure in force: `exposure`, else the deprecated `native: true`, else 'bridge'. Throws for a bad value. */
function exposureOf(options: ResponsesOptions): ResponsesExposure {
  const exposure = options.exposure ?? (options.native ? 'native' : 'bridge');
  if (!EXPOSURES.includes(exposure)) {
    throw new ToolSearchError(
      `options.exposure must be "tools", "bridge" or "native", not ${JSON.stringify(exposure)}`,
    );
  }
  return exposure;
}

/** The core's context: native mode runs the core's 'tools' mode, whose store and history reading it shares. */
function coreContext(options: ResponsesOptions, tools: SearchContext['tools']): SearchContext {
  const exposure = exposureOf(options);
  if (exposure !== 'native') return sessionContext(options, tools, exposure, options.searchResults);
  return sessionContext(options, tools, 'tools', undefined);
}

/**
 * Returns the body with its tools replaced for this round. 'bridge': `search_tools`, `call_tool` and the
 * direct tools. 'native': a client `tool_search`, the direct tools, and every other visible tool with
 * `defer_loading: true` (a group's tools in namespaces). Both stay byte-identical as tools are found, so the
 * cached prefix holds. 'tools': `search_tools`, the direct tools and the tools this session found. The caller's
 * own objects are sent wherever the model sees a caller's tool; a name is never sent twice.
 */
export async function prepareResponse<B extends ResponsesBody>(
  layer: ToolSearch,
  body: B,
  options: ResponsesOptions,
): Promise<PreparedBody<B, ResponsesTool>> {
  const converted = convertResponsesTools(body.tools, options.groupOf);
  // With previous_response_id the input holds only new items: the calls they answer come from the adapter's memory.
  const chained = typeof body.previous_response_id === 'string' && body.previous_response_id !== '';
  const messages = roundHistory(
    layer,
    options.sessionId,
    chained,
    responsesInputToMessages(body.input, body.instructions),
  );
  const prepared = await layer.prepare({ ...coreContext(options, converted.tools), messages });
  const native = !prepared.bypassed && exposureOf(options) === 'native';
  const tools = native
    ? nativePlan(layer, converted, options).tools
    : prepared.tools.map((tool) => converted.original(tool) ?? toolToResponsesTool(tool, options.strict));
  if (body.tools === undefined && tools.length === 0) return body as PreparedBody<B, ResponsesTool>;
  const sent = uniqueTools([...tools, ...converted.passthrough], responsesToolName);
  // Deferred tools in native mode are loaded by tool search, not sent as the request's functions.
  if (!native) checkToolLimit(layer, options.sessionId, OPENAI_TOOL_LIMIT, sent.length);
  return { ...body, tools: sent } as PreparedBody<B, ResponsesTool>;
}

/**
 * Answers one tool call item of a response with the input items to append. `search_tools` and
 * `tool_search_call` (native) get the search result; `call_tool` (bridge) runs the tool it names with its
 * arguments unchanged, or answers why not; a call of a tool the model has not been shown gets the corrective
 * result and is not executed (in native mode with `onUndiscoveredCall: 'discover'`, followed by a
 * `tool_search_call` / `tool_search_output` pair that loads its definition); any other call gets what `execute` returns.
 */
export async function answerResponseToolCall(
  layer: ToolSearch,
  item: ResponsesToolCallItem,
  options: AnswerResponseToolCallOptions,
): Promise<ResponseInputItem[]> {
  const converted = convertResponsesTools(options.tools, options.groupOf);
  const context = coreContext(options, converted.tools);
  // A round sent with previous_response_id will carry this call's output but not the call: learning needs both.
  rememberCalls(layer, options.sessionId, responsesInputToMessages([item as ResponseInputItem]));
  if (item.type === 'tool_search_call') {
    return answerToolSearch(layer, context, item, nativePlan(layer, converted, options).placed);
  }
  const routed = await routeCall(
    layer,
    context,
    { name: item.name, arguments: item.arguments },
    { ...options, converted, nameOf: responsesToolName },
  );
  const output = routed.kind === 'executed' ? routed.output : JSON.stringify(routed.result);
  const items: ResponseInputItem[] = [{ type: 'function_call_output', call_id: item.call_id, output }];
  const loaded = routed.kind === 'corrective' ? (routed.result.tools ?? []) : [];
  if (exposureOf(options) === 'native' && loaded.length > 0) {
    // The tool is deferred, so its schema reaches the model only through a tool search output: this pair
    // loads it the way a search would, and the model can call it again with valid arguments.
    const names = loaded.map((tool) => tool.name);
    items.push(...loadItems(item.call_id, names, nativePlan(layer, converted, options).placed));
  }
  return items;
}
