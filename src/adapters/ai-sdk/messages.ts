// The AI SDK's ModelMessage history, read as the layer's provider-neutral messages.
import type { ModelMessage } from 'ai';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import type { Message, ToolCall } from '../../base/types.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';

type Part = { readonly type?: unknown; readonly [key: string]: unknown };

const isObject = (value: unknown): value is Part => typeof value === 'object' && value !== null;

// Every step re-sends the whole history: a JSON output is serialised once per output object.
const serialised = new WeakMap<object, string>();

function json(value: unknown): string {
  if (!isObject(value)) return JSON.stringify(value) ?? 'null';
  let text = serialised.get(value);
  if (text === undefined) {
    text = JSON.stringify(value) ?? 'null';
    serialised.set(value, text);
  }
  return text;
}

/**
 * A tool result's text as the model reads it, or undefined for a result that is no use of the tool
 * (the user denied the call) or has a shape this version does not know.
 */
function outputText(output: unknown): string | undefined {
  if (!isObject(output)) return undefined;
  const { type, value } = output;
  if ((type === 'text' || type === 'error-text') && typeof value === 'string') return value;
  if (type === 'json' || type === 'error-json') return json(value);
  if (type === 'content' && Array.isArray(value)) {
    const loaded = referenced(value);
    if (loaded.length > 0) return JSON.stringify({ tools: loaded.map((name) => ({ name })) });
    return value
      .filter((item): item is Part => isObject(item) && item.type === 'text' && typeof item.text === 'string')
      .map((item) => item.text as string)
      .join('\n');
  }
  return undefined;
}

/** The tools a native Anthropic search result loads: its `tool-reference` parts, read as a search result's names. */
function referenced(parts: readonly unknown[]): string[] {
  const names: string[] = [];
  for (const part of parts) {
    if (!isObject(part) || part.type !== 'custom' || !isObject(part.providerOptions)) continue;
    const anthropic = part.providerOptions.anthropic;
    if (isObject(anthropic) && anthropic.type === 'tool-reference' && typeof anthropic.toolName === 'string') {
      names.push(anthropic.toolName);
    }
  }
  return names;
}

function text(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter((part): part is Part => isObject(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function toolMessage(part: Part): Message | undefined {
  if (part.type !== 'tool-result' || typeof part.toolCallId !== 'string') return undefined;
  const content = outputText(part.output);
  return content === undefined ? undefined : { role: 'tool', toolCallId: part.toolCallId, content };
}

/**
 * Converts an AI SDK message history (`ModelMessage[]`: assistant `tool-call` parts, `tool` messages with
 * `tool-result` parts) to the layer's `Message[]`. Malformed messages and parts are skipped, never thrown on.
 */
export function toLayerMessages(messages: readonly ModelMessage[] | undefined): Message[] {
  return readMessages(messages);
}

/** What makes a tool call a search: its name is one of `aliases` (OpenAI's `tool_search`), or `is` says so. */
export interface SearchCalls {
  /** Names read as `search_tools` whose input wraps the search's arguments (`{ arguments, call_id }`). */
  readonly aliases?: ReadonlySet<string> | undefined;
  /** Any other call read as a search, its input as the search's arguments (the SDK's own `toolSearch()`). */
  readonly is?: ((toolName: string, input: unknown, toolCallId: string) => boolean) | undefined;
}

/** A part's input as an object or JSON text, or undefined. */
function parsedInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return undefined;
  }
}

/** A call's arguments as the layer reads them: JSON text. */
const argumentsText = (input: unknown): string => (typeof input === 'string' ? input : json(input));

/** The arguments of a search call, read where the provider put them (one level down for OpenAI's `tool_search`). */
function searchArguments(input: unknown, wrapped: boolean): string {
  if (!wrapped) return argumentsText(input);
  const parsed = parsedInput(input);
  return isObject(parsed) && 'arguments' in parsed ? argumentsText(parsed.arguments) : argumentsText(input);
}

/**
 * toLayerMessages, reading calls of the names in `searches.aliases` (OpenAI's `tool_search`) and those `searches.is`
 * picks as `search_tools` calls, with their queries: learning reads them.
 */
export function readMessages(messages: readonly ModelMessage[] | undefined, searches: SearchCalls = {}): Message[] {
  const out: Message[] = [];
  if (!Array.isArray(messages)) return out;
  for (const message of messages as readonly unknown[]) {
    if (!isObject(message)) continue;
    const { role, content } = message;
    if (role === 'system' || role === 'user') {
      out.push({ role, content: text(content) ?? null });
    } else if (role === 'assistant') {
      const parts = Array.isArray(content) ? (content as unknown[]).filter(isObject) : [];
      const toolCalls: ToolCall[] = [];
      for (const part of parts) {
        if (part.type !== 'tool-call' || typeof part.toolCallId !== 'string' || typeof part.toolName !== 'string') {
          continue;
        }
        const { toolCallId: id, toolName, input } = part;
        const alias = searches.aliases?.has(toolName) === true;
        if (alias || toolName === SEARCH_TOOL_NAME || searches.is?.(toolName, parsedInput(input), id)) {
          // A search's query is what learning credits to the tools called after it.
          toolCalls.push({ id, name: SEARCH_TOOL_NAME, arguments: searchArguments(input, alias) });
        } else if (toolName === CALL_TOOL_NAME) {
          // A bridged call is a use of the tool its arguments name, so the layer reads them.
          toolCalls.push({ id, name: toolName, arguments: argumentsText(input) });
        } else toolCalls.push({ id, name: toolName });
      }
      out.push({ role: 'assistant', content: text(content) ?? null, ...(toolCalls.length > 0 && { toolCalls }) });
      // Provider-executed tools answer inside the assistant message.
      for (const part of parts) {
        const result = toolMessage(part);
        if (result) out.push(result);
      }
    } else if (role === 'tool' && Array.isArray(content)) {
      for (const part of content as unknown[]) {
        const result = isObject(part) ? toolMessage(part) : undefined;
        if (result) out.push(result);
      }
    }
  }
  return out;
}
