// What a Responses session sent with `previous_response_id` no longer carries: the calls of earlier responses. The
// layer learns from a search and the calls after it, so the adapter remembers, per layer and session, the current
// turn's calls as `answerResponseToolCall` answered them, and hands them back to `prepare` ahead of the round's items.

import type { Message } from '../../base/types.ts';
import type { ToolSearch } from '../../layer/create-tool-search.ts';
import { type CallMemory, createCallMemory, fromLast } from '../common/call-memory.ts';

const memories = new WeakMap<ToolSearch, CallMemory>();

function memoryOf(layer: ToolSearch): CallMemory {
  let memory = memories.get(layer);
  if (!memory) {
    memory = createCallMemory();
    memories.set(layer, memory);
  }
  return memory;
}

/**
 * The history `prepare` reads this round. A request with `previous_response_id` carries only new items, so the
 * session's remembered turn goes first; a request without one carries its own history. Either way the session then
 * remembers the turn as it now stands: from the last user message on, which closes every search before it.
 */
export function roundHistory(layer: ToolSearch, sessionId: string, chained: boolean, messages: Message[]): Message[] {
  const memory = memoryOf(layer);
  const history = chained ? [...memory.get(sessionId), ...messages] : messages;
  memory.set(
    sessionId,
    fromLast(history, (message) => message.role === 'user'),
  );
  return history;
}

/** Remembers calls `answerResponseToolCall` answered, for the rounds that will send only their outputs. */
export function rememberCalls(layer: ToolSearch, sessionId: string, calls: readonly Message[]): void {
  memoryOf(layer).append(sessionId, calls);
}
