// What a Responses session sent with `previous_response_id` no longer carries: the calls of earlier responses. The
// layer learns from a search and the calls after it, so the adapter remembers, per session, the current turn's calls
// as `answerResponseToolCall` answered them, and hands them back to `prepare` ahead of the round's own items.
import type { ToolSearch } from '../../core/create-tool-search.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { Message } from '../../core/types.ts';
import { bridgedName, CALL_TOOL_NAME } from '../../exposure/mode.ts';

/** Sessions remembered per layer, the least recently used forgotten first. */
const SESSIONS_KEPT = 1000;
/** Messages remembered per session: the current turn's, the oldest forgotten first past this. */
const MESSAGES_KEPT = 256;

const chains = new WeakMap<ToolSearch, Map<string, Message[]>>();

function sessionsOf(layer: ToolSearch): Map<string, Message[]> {
  let sessions = chains.get(layer);
  if (!sessions) {
    sessions = new Map();
    chains.set(layer, sessions);
  }
  return sessions;
}

function keep(layer: ToolSearch, sessionId: string, messages: Message[]): void {
  const sessions = sessionsOf(layer);
  sessions.delete(sessionId);
  if (sessions.size >= SESSIONS_KEPT) sessions.delete(sessions.keys().next().value as string);
  sessions.set(sessionId, messages.length > MESSAGES_KEPT ? messages.slice(-MESSAGES_KEPT) : messages);
}

/**
 * What learning reads of a message, and no more: a search's arguments, the tool a `call_tool` call names, and a
 * result's first characters (enough to tell the layer's refusal); no text, no tool arguments, no tool output.
 */
function compact(message: Message): Message {
  if (message.role === 'tool')
    return { role: 'tool', toolCallId: message.toolCallId ?? '', content: head(message.content) };
  if (message.role !== 'assistant') return { role: message.role, content: null };
  const toolCalls = (message.toolCalls ?? []).map(({ id, name, arguments: args }) => {
    if (name === SEARCH_TOOL_NAME) return { id, name, arguments: args };
    if (name === CALL_TOOL_NAME) return { id, name, arguments: JSON.stringify({ name: bridgedName(args) ?? null }) };
    return { id, name };
  });
  return { role: 'assistant', content: null, ...(toolCalls.length > 0 && { toolCalls }) };
}

const head = (content: Message['content']): string => (typeof content === 'string' ? content.slice(0, 32) : '');

/** The turn so far: the messages from the last user message on (a user message closes every search before it). */
function currentTurn(messages: readonly Message[]): Message[] {
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      start = i;
      break;
    }
  }
  return messages.slice(start).map(compact);
}

/**
 * The history `prepare` reads this round. A request with `previous_response_id` carries only new items, so the
 * session's remembered turn goes first; a request without one carries its own history. Either way the session then
 * remembers the turn as it now stands.
 */
export function roundHistory(layer: ToolSearch, sessionId: string, chained: boolean, messages: Message[]): Message[] {
  const history = chained ? [...(sessionsOf(layer).get(sessionId) ?? []), ...messages] : messages;
  keep(layer, sessionId, currentTurn(history));
  return history;
}

/** Remembers calls `answerResponseToolCall` answered, for the rounds that will send only their outputs. */
export function rememberCalls(layer: ToolSearch, sessionId: string, calls: readonly Message[]): void {
  const turn = sessionsOf(layer).get(sessionId) ?? [];
  keep(layer, sessionId, [...turn, ...calls.map(compact)]);
}
