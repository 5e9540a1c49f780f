// The mark of the layer's answer to a call it refused, so the history never counts that call as a use.

/** How an undiscovered-call result begins (its first key), so the history never counts it as a use. */
export const NOT_CALLED = '{"notCalled":';

/** True when a tool result is an undiscovered-call answer (the layer's own, serialised with `JSON.stringify`). */
export function isUndiscoveredResult(content: unknown): boolean {
  return typeof content === 'string' && content.startsWith(NOT_CALLED);
}
