// Anthropic Messages API shapes: tools with `input_schema`, `tool_use` and `tool_result` blocks,
// converted to and from the layer's shapes.
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type {
  Tool as AnthropicTool,
  MessageParam,
  TextBlockParam,
  ToolUnion,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Message, Tool, ToolCall } from '../../base/types.ts';
import { NOT_CALLED } from '../../core/discovered.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { GroupOf } from '../common/options.ts';
import { layerTool, toolConverter } from '../common/provider-tools.ts';

/** Custom tools are the layer's; Anthropic's own tools (bash, web search, …) carry another `type`. */
export const isCustomTool = (tool: ToolUnion): tool is AnthropicTool =>
  (tool.type === undefined || tool.type === null || tool.type === 'custom') && typeof tool.name === 'string';

/** Converts a request's tools for the layer, once per tool object. */
export const convertAnthropicTools: ReturnType<typeof toolConverter<ToolUnion>> = toolConverter<ToolUnion>(
  (tool, groupsOf) =>
    isCustomTool(tool) ? layerTool(tool.name, tool.description, tool.input_schema, groupsOf(tool.name)) : undefined,
);

/** The layer's tools for Anthropic tools; Anthropic's own tools are not the layer's and are left out. */
export function anthropicToolsToTools(tools: readonly ToolUnion[], groupOf?: GroupOf): Tool[] {
  return convertAnthropicTools(tools, groupOf).tools;
}

const definitions = new WeakMap<Tool, AnthropicTool>();

/** A layer tool as an Anthropic custom tool (built once per tool object). */
export function toolToAnthropicTool(tool: Tool): AnthropicTool {
  let definition = definitions.get(tool);
  if (!definition) {
    definition = {
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      input_schema: (tool.parameters ?? { type: 'object' }) as AnthropicTool['input_schema'],
    };
    definitions.set(tool, definition);
  }
  return definition;
}

type Block = { readonly type?: string; readonly [key: string]: unknown };

/** A message of a Messages request: the stable shapes, or the beta ones (mid-conversation `role: 'system'`). */
export type AnthropicMessage = MessageParam | BetaMessageParam;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: Block) => (block?.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('');
}

/**
 * A `tool_result`'s content as the layer reads it. `tool_reference` blocks (native mode) become a
 * result naming those tools: `{ tools: [{ name }] }` for a search, so its discoveries count; for any
 * other tool they are the definition sent back with a corrective answer, which must never count as a use.
 */
function toolResultContent(content: unknown, calledName: string | undefined): string {
  if (!Array.isArray(content)) return textOf(content);
  const references = content
    .filter((block: Block) => block?.type === 'tool_reference' && typeof block.tool_name === 'string')
    .map((block: Block) => ({ name: block.tool_name as string }));
  if (references.length === 0) return textOf(content);
  if (calledName === SEARCH_TOOL_NAME) return JSON.stringify({ tools: references });
  const text = textOf(content);
  return text.startsWith(NOT_CALLED) ? text : JSON.stringify({ notCalled: calledName ?? '', tools: references });
}

const isToolSearch = (name: unknown): boolean => typeof name === 'string' && name.startsWith('tool_search_tool_');

/** The tools each of Anthropic's server-side tool searches in a turn loaded (`tool_search_tool_result` blocks). */
export function serverSearchResults(blocks: readonly unknown[]): { id: string; names: string[] }[] {
  const results: { id: string; names: string[] }[] = [];
  for (const block of blocks as readonly Block[]) {
    if (block?.type !== 'tool_search_tool_result' || typeof block.tool_use_id !== 'string') continue;
    const references = (block.content as { tool_references?: unknown } | null)?.tool_references;
    if (!Array.isArray(references)) continue;
    const names = references
      .map((reference: Block) => reference?.tool_name)
      .filter((name): name is string => typeof name === 'string');
    results.push({ id: block.tool_use_id, names });
  }
  return results;
}

/** Anthropic messages (and the `system` parameter) as the layer's messages. */
export function anthropicMessagesToMessages(
  messages: readonly AnthropicMessage[],
  system?: string | readonly TextBlockParam[] | undefined,
): Message[] {
  const out: Message[] = [];
  if (system !== undefined) out.push({ role: 'system', content: textOf(system) });
  const called = new Map<string, string>();
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { role, content } = message;
    if (role === 'system') {
      out.push({ role: 'system', content: textOf(content) });
      continue;
    }
    const blocks = (Array.isArray(content) ? content : []) as unknown as readonly Block[];
    if (role === 'assistant') {
      const toolCalls: ToolCall[] = [];
      for (const block of blocks) {
        if (block?.type === 'server_tool_use' && typeof block.id === 'string' && isToolSearch(block.name)) {
          // Anthropic's own tool search ran inside this turn; read as a search_tools call, its loads count as discoveries.
          toolCalls.push({ id: block.id, name: SEARCH_TOOL_NAME, arguments: JSON.stringify(block.input ?? {}) });
        }
        if (block?.type !== 'tool_use' || typeof block.id !== 'string' || typeof block.name !== 'string') continue;
        called.set(block.id, block.name);
        toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
      }
      out.push({ role: 'assistant', content: textOf(content), ...(toolCalls.length > 0 && { toolCalls }) });
      for (const { id, names } of serverSearchResults(blocks)) {
        out.push({ role: 'tool', toolCallId: id, content: JSON.stringify({ tools: names.map((name) => ({ name })) }) });
      }
      continue;
    }
    // A user turn: its tool results answer the previous assistant turn, then comes the user's text.
    for (const block of blocks) {
      if (block?.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
      const name = called.get(block.tool_use_id);
      out.push({ role: 'tool', toolCallId: block.tool_use_id, content: toolResultContent(block.content, name) });
    }
    const text = textOf(content);
    if (text !== '' || typeof content === 'string') out.push({ role: 'user', content: text });
  }
  return out;
}

/** The layer's messages as Anthropic messages (system messages go to the `system` parameter). */
export function messagesToAnthropicMessages(messages: readonly Message[]): {
  system?: string;
  messages: MessageParam[];
} {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content ?? '');
  const out: MessageParam[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      const block = {
        type: 'tool_result' as const,
        tool_use_id: message.toolCallId ?? '',
        content: message.content ?? '',
      };
      const last = out[out.length - 1];
      // Tool results of one assistant turn travel together in the next user turn.
      if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(block);
      else out.push({ role: 'user', content: [block] });
    } else if (message.role === 'user') {
      out.push({ role: 'user', content: message.content ?? '' });
    } else {
      const blocks: (TextBlockParam | ToolUseBlockParam)[] = [];
      if (message.content) blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) });
      }
      out.push({ role: 'assistant', content: blocks });
    }
  }
  return { ...(system.length > 0 && { system: system.join('\n\n') }), messages: out };
}

function parseInput(args: string | undefined): unknown {
  try {
    return JSON.parse(args ?? '{}');
  } catch {
    return {};
  }
}
