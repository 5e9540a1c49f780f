// The page's history as Gemini `contents`, for the Gemini request view: the adapter reads Gemini's own contents
// (`geminiContentsToMessages`) but has no writer for them, since a Gemini host keeps the model's contents as they
// came (thought signatures included). The page's history is the layer's messages, so it writes them here.
import type { Content, Part } from '@google/genai';
import type { Message } from 'tool-search-layer';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A call's JSON arguments as the object Gemini's `args` holds; anything else as `{}`. */
function argsOf(text: string | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(text ?? '{}');
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** A tool result as Gemini's `response`, which must be an object: an object as it is, anything else as `{ output }`. */
function responseOf(content: string | null | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(content ?? 'null');
    return isObject(value) ? value : { output: value };
  } catch {
    return { output: content ?? null };
  }
}

/**
 * The layer's messages as Gemini contents: user text as `user` turns, assistant text and calls as `model` turns
 * (`functionCall` with the call's id), and tool results as `functionResponse` parts with the call's id and name;
 * consecutive messages of one role share a turn, so a round's responses go back together as Gemini expects. System
 * messages are left out: they go in `systemInstruction`.
 */
export function messagesToGeminiContents(messages: readonly Message[]): Content[] {
  const names = new Map<string, string>();
  const contents: Content[] = [];
  const push = (role: 'user' | 'model', parts: Part[]) => {
    const last = contents.at(-1);
    if (last?.role === role) last.parts?.push(...parts);
    else if (parts.length > 0) contents.push({ role, parts });
  };
  for (const message of messages) {
    if (message.role === 'user') push('user', [{ text: message.content ?? '' }]);
    if (message.role === 'assistant') {
      const parts: Part[] = message.content ? [{ text: message.content }] : [];
      for (const call of message.toolCalls ?? []) {
        names.set(call.id, call.name);
        parts.push({ functionCall: { id: call.id, name: call.name, args: argsOf(call.arguments) } });
      }
      push('model', parts);
    }
    if (message.role === 'tool' && message.toolCallId !== undefined) {
      const id = message.toolCallId;
      push('user', [{ functionResponse: { id, name: names.get(id) ?? '', response: responseOf(message.content) } }]);
    }
  }
  return contents;
}
