// OpenAI Chat Completions: `{ type: 'function', function }` tools, `tool_calls` and `tool` messages,
// converted to and from the layer's shapes, and the two helpers a host loop needs.
import type {
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { UndiscoveredCallMode } from '../../core/calls.ts';
import type { ToolSearch } from '../../core/create-tool-search.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { Message, Tool, ToolCall } from '../../core/types.ts';
import {
  type ExecuteTool,
  type GroupOf,
  layerTool,
  routeCall,
  strictSearchParameters,
  toolConverter,
} from '../provider-tools.ts';

/** The part of a `chat.completions.create` body the layer reads and rewrites. */
export interface ChatCompletionBody {
  readonly messages: readonly ChatCompletionMessageParam[];
  readonly tools?: readonly ChatCompletionTool[] | undefined;
}

/** Options of `prepareChatCompletion`. */
export interface PrepareChatCompletionOptions {
  readonly sessionId: string;
  readonly enabledGroups?: readonly string[] | undefined;
  /** Groups of the tools, by name. */
  readonly groupOf?: GroupOf | undefined;
  /** Send `search_tools` in strict mode: every property required, `limit` and `offset` nullable. Default false. */
  readonly strict?: boolean | undefined;
}

/** Options of `answerChatToolCall`: the same session and catalogue as `prepareChatCompletion` got. */
export interface AnswerChatToolCallOptions {
  readonly sessionId: string;
  /** Every tool of the round, as passed to `prepareChatCompletion` in `body.tools`. */
  readonly tools: readonly ChatCompletionTool[];
  readonly enabledGroups?: readonly string[] | undefined;
  readonly groupOf?: GroupOf | undefined;
  /** What a call of a tool the model has not been shown gets: a hint to search (default), or the definition. */
  readonly onUndiscoveredCall?: UndiscoveredCallMode | undefined;
  /** Runs a tool the model may call; never called for `search_tools` or an undiscovered tool. */
  readonly execute: ExecuteTool<ChatCompletionTool>;
}

const convert = toolConverter<ChatCompletionTool>((tool, groupsOf) =>
  tool.type === 'function' && typeof tool.function?.name === 'string'
    ? layerTool(tool.function.name, tool.function.description, tool.function.parameters, groupsOf(tool.function.name))
    : undefined,
);

/** The layer's tools for Chat Completions tools; custom tools are not the layer's and are left out. */
export function chatToolsToTools(tools: readonly ChatCompletionTool[], groupOf?: GroupOf): Tool[] {
  return convert(tools, groupOf).tools;
}

const chatDefinitions = new WeakMap<Tool, ChatCompletionTool>();
const strictDefinitions = new WeakMap<Tool, ChatCompletionTool>();

/** A layer tool as a Chat Completions function tool (built once per tool object); `strict` applies to `search_tools` only. */
export function toolToChatTool(tool: Tool, strictSearch = false): ChatCompletionTool {
  const strict = strictSearch && tool.name === SEARCH_TOOL_NAME;
  const cache = strict ? strictDefinitions : chatDefinitions;
  let definition = cache.get(tool);
  if (!definition) {
    definition = {
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        ...(strict
          ? { parameters: strictSearchParameters(tool), strict: true }
          : tool.parameters && { parameters: tool.parameters }),
      },
    };
    cache.set(tool, definition);
  }
  return definition;
}

/** The text of a message content: a string, or the text parts joined. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  return content
    .map((part: { type?: string; text?: unknown }) => (typeof part?.text === 'string' ? part.text : ''))
    .join('');
}

/** Chat Completions messages as the layer's messages (developer messages count as system). */
export function chatMessagesToMessages(messages: readonly ChatCompletionMessageParam[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const content = contentText(message.content);
    if (message.role === 'system' || message.role === 'developer') out.push({ role: 'system', content });
    else if (message.role === 'user') out.push({ role: 'user', content });
    else if (message.role === 'tool') out.push({ role: 'tool', content, toolCallId: message.tool_call_id });
    else if (message.role === 'assistant') {
      const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call) =>
        call.type === 'custom'
          ? { id: call.id, name: call.custom.name, arguments: call.custom.input }
          : { id: call.id, name: call.function.name, arguments: call.function.arguments },
      );
      out.push({ role: 'assistant', content, ...(toolCalls.length > 0 && { toolCalls }) });
    }
  }
  return out;
}

/** The layer's messages as Chat Completions messages. */
export function messagesToChatMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    const content = message.content ?? '';
    if (message.role === 'system') return { role: 'system', content };
    if (message.role === 'user') return { role: 'user', content };
    if (message.role === 'tool') return { role: 'tool', content, tool_call_id: message.toolCallId ?? '' };
    const calls = message.toolCalls ?? [];
    return {
      role: 'assistant',
      content: message.content ?? null,
      ...(calls.length > 0 && {
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments ?? '{}' },
        })),
      }),
    };
  });
}

/**
 * Returns the body with its tools replaced by what the model should see this round: `search_tools`,
 * the direct tools and the tools this session discovered, as the caller's own objects. A round the
 * layer bypasses comes back unchanged. Custom (non-function) tools are kept, after the layer's.
 * @example
 * const request = await prepareChatCompletion(layer, { model, messages, tools }, { sessionId })
 * const completion = await client.chat.completions.create(request)
 */
export async function prepareChatCompletion<B extends ChatCompletionBody>(
  layer: ToolSearch,
  body: B,
  options: PrepareChatCompletionOptions,
): Promise<B> {
  const converted = convert(body.tools, options.groupOf);
  const prepared = await layer.prepare({
    sessionId: options.sessionId,
    tools: converted.tools,
    messages: chatMessagesToMessages(body.messages),
    enabledGroups: options.enabledGroups,
  });
  if (prepared.bypassed) return body;
  const tools = prepared.tools.map((tool) => converted.original(tool) ?? toolToChatTool(tool, options.strict));
  return { ...body, tools: [...tools, ...converted.passthrough] };
}

/**
 * Answers one tool call of the model's reply with the `tool` message to append: a `search_tools` call
 * with the search result, a call of a tool the model has not been shown with the corrective result
 * (nothing is executed), and any other call with what `execute` returns.
 */
export async function answerChatToolCall(
  layer: ToolSearch,
  call: ChatCompletionMessageToolCall,
  options: AnswerChatToolCallOptions,
): Promise<ChatCompletionToolMessageParam> {
  const converted = convert(options.tools, options.groupOf);
  const name = call.type === 'custom' ? call.custom.name : call.function.name;
  const args = call.type === 'custom' ? call.custom.input : call.function.arguments;
  const routed = await routeCall(
    layer,
    { sessionId: options.sessionId, tools: converted.tools, enabledGroups: options.enabledGroups },
    { name, arguments: args },
    {
      onUndiscoveredCall: options.onUndiscoveredCall,
      original: converted.original,
      execute: options.execute,
      passthrough: (name) => converted.passthrough.find((tool) => tool.type === 'custom' && tool.custom.name === name),
    },
  );
  const content = routed.kind === 'executed' ? routed.output : JSON.stringify(routed.result);
  return { role: 'tool', tool_call_id: call.id, content };
}
