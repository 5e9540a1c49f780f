// Gemini `contents` as the layer's messages, read for discoveries and uses: function calls and their responses
// paired by `id`, or by order (the first open call of that name) where ids are absent. Only read, never rewritten.
import type { Content, ContentListUnion, ContentUnion, Part } from '@google/genai';
import type { Message, ToolCall } from '../../base/types.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isContent = (value: unknown): value is Content => isObject(value) && ('parts' in value || 'role' in value);

/** A parts list of any accepted shape (a string, a Part, an array of them) as Parts. */
function partsOf(value: unknown): Part[] {
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((part): Part[] => {
    if (typeof part === 'string') return [{ text: part }];
    return isObject(part) ? [part as Part] : [];
  });
}

/** `contents` in any shape the SDK takes (a string, a Part, a Content, arrays of them) as Contents. */
export function contentList(contents: ContentListUnion | undefined): Content[] {
  if (contents === undefined || contents === null) return [];
  if (isContent(contents)) return [contents];
  if (Array.isArray(contents) && contents.some(isContent)) return contents.filter(isContent);
  const parts = partsOf(contents);
  return parts.length > 0 ? [{ role: 'user', parts }] : [];
}

/** The text of a content or parts (a system instruction, a turn). */
export function textOf(value: ContentUnion | undefined): string {
  if (value === undefined || value === null) return '';
  const parts = isContent(value) ? partsOf(value.parts ?? []) : partsOf(value);
  return parts.map((part) => (typeof part.text === 'string' && part.thought !== true ? part.text : '')).join('');
}

/** The layer's messages for a Gemini request's system instruction and contents. */
export function geminiContentsToMessages(
  contents: ContentListUnion | undefined,
  systemInstruction?: ContentUnion | undefined,
): Message[] {
  const out: Message[] = [];
  if (systemInstruction !== undefined) out.push({ role: 'system', content: textOf(systemInstruction) });
  // Calls not answered yet, oldest first: a response without an id answers the first open call of its name.
  const open: { id: string; name: string; hasId: boolean }[] = [];
  contentList(contents).forEach((content, index) => {
    const parts = partsOf(content.parts ?? []);
    if (content.role === 'model') {
      const toolCalls: ToolCall[] = [];
      parts.forEach((part, at) => {
        const call = part.functionCall;
        if (!isObject(call) || typeof call.name !== 'string') return;
        const hasId = typeof call.id === 'string' && call.id !== '';
        const id = hasId ? (call.id as string) : `gemini_${index}_${at}`;
        open.push({ id, name: call.name, hasId });
        toolCalls.push({ id, name: call.name, arguments: JSON.stringify(call.args ?? {}) });
      });
      out.push({ role: 'assistant', content: textOf(parts), ...(toolCalls.length > 0 && { toolCalls }) });
      return;
    }
    for (const part of parts) {
      const response = part.functionResponse;
      if (!isObject(response)) continue;
      const byId = typeof response.id === 'string' && response.id !== '';
      const at = open.findIndex((call) =>
        byId ? call.hasId && call.id === response.id : !call.hasId && call.name === response.name,
      );
      const fallback = at < 0 && !byId ? open.findIndex((call) => call.name === response.name) : at;
      const matched = fallback >= 0 ? open.splice(fallback, 1)[0] : undefined;
      const toolCallId = matched?.id ?? (byId ? (response.id as string) : `gemini_unpaired_${index}`);
      out.push({ role: 'tool', toolCallId, content: JSON.stringify(response.response ?? {}) });
    }
    const text = textOf(parts);
    if (text !== '') out.push({ role: 'user', content: text });
  });
  return out;
}
