// Responses API shapes: function tools and input items (`function_call`, `function_call_output`, and
// the native `tool_search_call` / `tool_search_output`), converted to and from the layer's shapes.
import type {
  FunctionTool,
  ResponseInput,
  ResponseInputItem,
  Tool as ResponsesTool,
} from 'openai/resources/responses/responses';
import type { Message, Tool } from '../../base/types.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { GroupOf } from '../common/options.ts';
import { definitionCache, layerTool, strictSearchParameters, toolConverter } from '../common/provider-tools.ts';
import { contentText } from './chat-items.ts';

/** Converts a request's tools for the layer, once per tool object. */
export const convertResponsesTools: ReturnType<typeof toolConverter<ResponsesTool>> = toolConverter<ResponsesTool>(
  (tool, groupsOf) => {
    // Every function tool is the layer's, one without a usable name included: the layer skips it, so it is never sent.
    if (tool.type !== 'function') return undefined;
    const name = typeof tool.name === 'string' ? tool.name : '';
    return layerTool(name, tool.description, tool.parameters, groupsOf(name));
  },
);

/** A Responses tool's name where it has one (function, custom, namespace; null when missing), else undefined. */
export function responsesToolName(tool: ResponsesTool): unknown {
  if (tool.type === 'function' || tool.type === 'custom' || tool.type === 'namespace') return tool.name ?? null;
  return undefined;
}

/** The layer's tools for Responses tools; built-in, custom and namespace tools are not the layer's and are left out. */
export function responsesToolsToTools(tools: readonly ResponsesTool[], groupOf?: GroupOf): Tool[] {
  return convertResponsesTools(tools, groupOf).tools;
}

/** A layer tool as a Responses function tool (built once per tool object); `strict` applies to `search_tools` only. */
export const toolToResponsesTool: (tool: Tool, strictSearch?: boolean) => FunctionTool = definitionCache(
  (tool, strict): FunctionTool => ({
    type: 'function',
    name: tool.name,
    ...(tool.description !== undefined && { description: tool.description }),
    parameters: strict ? strictSearchParameters(tool) : (tool.parameters ?? null),
    strict,
  }),
);

/** The tool names a `tool_search_output` loads, namespace members included. */
function loadedNames(tools: unknown): { name: string }[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: { type?: string; name?: unknown; tools?: unknown }) =>
    tool?.type === 'namespace' ? loadedNames(tool.tools) : typeof tool?.name === 'string' ? [{ name: tool.name }] : [],
  );
}

/**
 * Responses input as the layer's messages. A `tool_search_call` reads as a `search_tools` call and its
 * `tool_search_output` as a result naming the loaded tools, so native discoveries count like portable ones.
 */
export function responsesInputToMessages(
  input: string | ResponseInput | undefined,
  instructions?: string | null,
): Message[] {
  const out: Message[] = [];
  if (typeof instructions === 'string') out.push({ role: 'system', content: instructions });
  if (typeof input === 'string') return [...out, { role: 'user', content: input }];
  for (const item of input ?? []) {
    if (typeof item !== 'object' || item === null) continue;
    const any = item as { type?: string; role?: string; content?: unknown };
    if (any.type === undefined || any.type === 'message') {
      const role = any.role === 'developer' ? 'system' : any.role;
      if (role === 'system' || role === 'user' || role === 'assistant') {
        out.push({ role, content: contentText(any.content) });
      }
    } else if (item.type === 'function_call') {
      out.push({ role: 'assistant', toolCalls: [{ id: item.call_id, name: item.name, arguments: item.arguments }] });
    } else if (item.type === 'function_call_output') {
      out.push({ role: 'tool', toolCallId: item.call_id ?? '', content: contentText(item.output) });
    } else if (item.type === 'tool_search_call' && typeof item.call_id === 'string') {
      const args = JSON.stringify(item.arguments ?? {});
      out.push({ role: 'assistant', toolCalls: [{ id: item.call_id, name: SEARCH_TOOL_NAME, arguments: args }] });
    } else if (item.type === 'tool_search_output' && typeof item.call_id === 'string') {
      out.push({ role: 'tool', toolCallId: item.call_id, content: JSON.stringify({ tools: loadedNames(item.tools) }) });
    }
  }
  return out;
}

/** The layer's messages as Responses input items. */
export function messagesToResponsesInput(messages: readonly Message[]): ResponseInputItem[] {
  return messages.flatMap((message): ResponseInputItem[] => {
    if (message.role === 'tool') {
      return [{ type: 'function_call_output', call_id: message.toolCallId ?? '', output: message.content ?? '' }];
    }
    const items: ResponseInputItem[] = [];
    if (message.content) items.push({ role: message.role, content: message.content });
    for (const call of message.toolCalls ?? []) {
      items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments ?? '{}' });
    }
    return items;
  });
}
