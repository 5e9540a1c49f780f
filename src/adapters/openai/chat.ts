// OpenAI Chat Completions: the two helpers a host loop needs, `prepareChatCompletion` before each round and
// `answerChatToolCall` for each tool call of the model's reply.
import type {
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { Tool } from '../../base/types.ts';
import type { SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import { type AdapterOptions, type ProviderOptions, sessionContext } from '../common/options.ts';
import { type ExecuteTool, routeCall, uniqueTools } from '../common/provider-tools.ts';
import { checkToolLimit, OPENAI_TOOL_LIMIT } from '../common/tool-limit.ts';
import { chatMessagesToMessages, chatToolName, convertChatTools, toolToChatTool } from './chat-items.ts';
import type { PreparedBody } from './prepared.ts';

/** How Chat Completions sees the catalogue: 'bridge' (default, append-only) or 'tools' (see docs/openai.md). */
export type ChatExposure = 'tools' | 'bridge';

/** The part of a `chat.completions.create` body the layer reads and rewrites. */
export interface ChatCompletionBody {
  readonly messages: readonly ChatCompletionMessageParam[];
  readonly tools?: readonly ChatCompletionTool[] | undefined;
  /** Read by no one here; declared so that `stream: true` keeps its literal type through the helper. */
  readonly stream?: boolean | null | undefined;
}

/**
 * Options of `prepareChatCompletion`. `exposure`: 'bridge' (default): `search_tools`, `call_tool` and the direct
 * tools, byte-identical all session, so the prompt cache holds; 'tools': `search_tools`, the direct tools and the
 * tools found so far, which grows. `searchResults` 'compact' is for 'tools' mode only.
 */
export interface PrepareChatCompletionOptions extends ProviderOptions<ChatExposure> {
  /** Send `search_tools` in strict mode: every property required, `limit` and `offset` nullable. Default false. */
  readonly strict?: boolean | undefined;
}

/** Options of `answerChatToolCall`: the same session and catalogue as `prepareChatCompletion` got. */
export interface AnswerChatToolCallOptions extends AdapterOptions<ChatExposure> {
  /** Every tool of the round, as passed to `prepareChatCompletion` in `body.tools`. */
  readonly tools: readonly ChatCompletionTool[];
  /** Runs a tool the model may call; never called for `search_tools` or an undiscovered tool. */
  readonly execute: ExecuteTool<ChatCompletionTool>;
}

/**
 * Returns the body with its tools replaced by what the model should see this round, the caller's own objects
 * wherever it sees one of the caller's tools ('bridge', the default: `search_tools`, `call_tool` and the direct
 * tools, the same every round; 'tools': `search_tools`, the direct tools and the tools this session found).
 * Custom tools are kept, after the layer's; a name is never sent twice, and an entry the layer skips never.
 * @example
 * const request = await prepareChatCompletion(layer, { model, messages, tools }, { sessionId })
 * const completion = await client.chat.completions.create(request)
 */
export async function prepareChatCompletion<B extends ChatCompletionBody>(
  layer: ToolSearch,
  body: B,
  options: PrepareChatCompletionOptions,
): Promise<PreparedBody<B, ChatCompletionTool>> {
  const converted = convertChatTools(body.tools, options.groupOf);
  const prepared = await layer.prepare({
    ...coreContext(options, converted.tools),
    messages: chatMessagesToMessages(body.messages),
  });
  const tools = prepared.tools.map((tool) => converted.original(tool) ?? toolToChatTool(tool, options.strict));
  if (body.tools === undefined && tools.length === 0) return body as PreparedBody<B, ChatCompletionTool>;
  const sent = uniqueTools([...tools, ...converted.passthrough], chatToolName);
  checkToolLimit(layer, options.sessionId, OPENAI_TOOL_LIMIT, sent.length);
  return { ...body, tools: sent } as PreparedBody<B, ChatCompletionTool>;
}

/**
 * Answers one tool call of the model's reply with the `tool` message to append: a `search_tools` call with the
 * search result; a `call_tool` call (bridge) by running the tool it names with the model's arguments unchanged, or
 * with the corrective result saying why it may not run; a call of a tool the model has not been shown with the
 * corrective result (nothing is executed); any other call with what `execute` returns.
 */
export async function answerChatToolCall(
  layer: ToolSearch,
  call: ChatCompletionMessageToolCall,
  options: AnswerChatToolCallOptions,
): Promise<ChatCompletionToolMessageParam> {
  const converted = convertChatTools(options.tools, options.groupOf);
  const name = call.type === 'custom' ? call.custom.name : call.function.name;
  const args = call.type === 'custom' ? call.custom.input : call.function.arguments;
  const routed = await routeCall(
    layer,
    coreContext(options, converted.tools),
    { name, arguments: args },
    { ...options, converted, nameOf: chatToolName },
  );
  const content = routed.kind === 'executed' ? routed.output : JSON.stringify(routed.result);
  return { role: 'tool', tool_call_id: call.id, content };
}

/** The core's context for a round: the adapter's exposure (default 'bridge') passed per call, so any layer works. */
const coreContext = (options: ProviderOptions<ChatExposure>, tools: readonly Tool[]): SearchContext =>
  sessionContext(options, tools, options.exposure ?? 'bridge', options.searchResults);
