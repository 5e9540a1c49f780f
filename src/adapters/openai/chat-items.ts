// Chat Completions shapes: `{ type: 'function', function }` tools, `tool_calls` and `tool` messages,
// converted to and from the layer's shapes.
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Message, Tool, ToolCall } from '../../base/types.ts';
import type { GroupOf } from '../common/options.ts';
import { definitionCache, layerTool, strictSearchParameters, toolConverter } from '../common/provider-tools.ts';

/** Converts a request's tools for the layer, once per tool object. Every function tool is the layer's, one
 * without a usable name included: the layer skips it, so it is never sent. */
export const convertChatTools: ReturnType<typeof toolConverter<ChatCompletionTool>> = toolConverter<ChatCompletionTool>(
  (tool, groupsOf) => {
    if (tool.type !== 'function') return undefined;
    const name = typeof tool.function?.name === 'string' ? tool.function.name : '';
    return layerTool(name, tool.function?.description, tool.function?.parameters, groupsOf(name));
  },
);

/** A Chat Completions tool's name: a function's or a custom tool's (null when it has none). */
export function chatToolName(tool: ChatCompletionTool): unknown {
  if (tool.type === 'function') return tool.function?.name ?? null;
  if (tool.type === 'custom') return tool.custom?.name ?? null;
  return undefined;
}

/** The layer's tools for Chat Completions tools; custom tools are not the layer's and are left out. */
export function chatToolsToTools(tools: readonly ChatCompletionTool[], groupOf?: GroupOf): Tool[] {
  return convertChatTools(tools, groupOf).tools;
}

/** A layer tool as a Chat Completions function tool (built once per tool object); `strict` applies to `search_tools` only. */
export const toolToChatTool: (tool: Tool, strictSearch?: boolean) => ChatCompletionTool = definitionCache(
  (tool, strict): ChatCompletionTool => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      ...(strict
        ? { parameters: strictSearchParameters(tool), strict: true }
        : tool.parameters && { parameters: tool.parameters }),
    },
  }),
);

/** The text of a message content: a string, or the text parts joined. */
export function contentText(content: unknown): string | null {
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
