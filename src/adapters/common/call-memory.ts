// What an adapter remembers of a session's calls when the history it hands `prepare` does not carry them (OpenAI's
// `previous_response_id`, an MCP host that passes no messages): just what learning reads, bounded per session and
// per memory.

import { bridgedName, CALL_TOOL_NAME } from '../../base/names.ts';
import type { Message } from '../../base/types.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';

/** Sessions remembered, the least recently used forgotten first. */
const SESSIONS_KEPT = 1000;
/** Messages remembered per session, the oldest forgotten first. */
const MESSAGES_KEPT = 256;
/** A result's first characters: enough to tell the layer's refusal (`{"notCalled":`) from a use. */
const RESULT_HEAD = 32;

/** Per session, the calls and results an adapter answered, compacted. */
export interface CallMemory {
  get(sessionId: string): readonly Message[];
  /** Replaces what the session remembers. */
  set(sessionId: string, messages: readonly Message[]): void;
  append(sessionId: string, messages: readonly Message[]): void;
}

/**
 * What learning reads of a message, and no more: a search's arguments, the tool a `call_tool` call names, and a
 * result's first characters; no text, no tool arguments, no tool output.
 */
function compact(message: Message): Message {
  if (message.role === 'tool') {
    const content = typeof message.content === 'string' ? message.content.slice(0, RESULT_HEAD) : '';
    return { role: 'tool', toolCallId: message.toolCallId ?? '', content };
  }
  if (message.role !== 'assistant') return { role: message.role, content: null };
  const toolCalls = (message.toolCalls ?? []).map(({ id, name, arguments: args }) => {
    if (name === SEARCH_TOOL_NAME) return { id, name, ...(args !== undefined && { arguments: args }) };
    if (name === CALL_TOOL_NAME) return { id, name, arguments: JSON.stringify({ name: bridgedName(args) ?? null }) };
    return { id, name };
  });
  return { role: 'assistant', content: null, ...(toolCalls.length > 0 && { toolCalls }) };
}

/** Creates an empty memory. */
export function createCallMemory(): CallMemory {
  const sessions = new Map<string, readonly Message[]>();
  const set = (sessionId: string, messages: readonly Message[]) => {
    sessions.delete(sessionId);
    if (sessions.size >= SESSIONS_KEPT) sessions.delete(sessions.keys().next().value as string);
    const kept = messages.length > MESSAGES_KEPT ? messages.slice(-MESSAGES_KEPT) : messages;
    sessions.set(sessionId, kept.map(compact));
  };
  return {
    get: (sessionId) => sessions.get(sessionId) ?? [],
    set,
    append: (sessionId, messages) => set(sessionId, [...(sessions.get(sessionId) ?? []), ...messages]),
  };
}

/** The messages from the last one `starts` picks on (all of them when none does). */
export function fromLast(messages: readonly Message[], starts: (message: Message) => boolean): Message[] {
  for (let i = messages.length - 1; i >= 0; i--) if (starts(messages[i] as Message)) return messages.slice(i);
  return [...messages];
}
