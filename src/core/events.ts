// What the layer tells a host that watches it: plain event objects, delivered to one listener that may never break a round.
import type { DiscoveredRecord } from './discovered.ts';

/** How a tool joined a session's discovered set. */
export type DiscoverSource = 'search' | 'history' | 'call';

/** One thing the layer did, as a plain object; `type` says which. */
export type ToolSearchEvent =
  | {
      readonly type: 'search';
      readonly sessionId: string;
      readonly query: string;
      readonly found: number;
      readonly names: string[];
    }
  | { readonly type: 'discover'; readonly sessionId: string; readonly names: string[]; readonly source: DiscoverSource }
  | { readonly type: 'evict'; readonly sessionId: string; readonly names: string[] }
  | { readonly type: 'call-refused'; readonly sessionId: string; readonly name: string; readonly reason: string }
  | { readonly type: 'store-fallback'; readonly store: string; readonly sessionId: string; readonly error: string }
  | { readonly type: 'store-recover'; readonly store: string; readonly sessions: string[] }
  | {
      readonly type: 'tool-limit';
      readonly sessionId: string;
      /** The adapter whose provider takes no more than `limit` tools per request. */
      readonly provider: string;
      readonly tools: number;
      readonly limit: number;
    };

/** Receives the layer's events; what it returns is ignored, and what it throws is warned about once. */
export type EventListener = (event: ToolSearchEvent) => void;

/** Delivers an event; never throws. */
export type Emit = (event: ToolSearchEvent) => void;

/** Wraps the host's listener so that a throw or a rejection is warned about once and never reaches a round. */
export function eventSink(listener: EventListener | undefined, warn: (message: string) => void): Emit {
  if (!listener) return () => {};
  let warned = false;
  const failed = (error: unknown) => {
    if (warned) return;
    warned = true;
    const reason = error instanceof Error ? error.message : String(error);
    warn(`the onEvent listener threw (${reason}); its errors are ignored (warned once per layer)`);
  };
  return (event) => {
    try {
      const result: unknown = listener(event);
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, failed);
      }
    } catch (error) {
      failed(error);
    }
  };
}

/** Emits `discover` and `evict` for what a record change added to and removed from the exposure order. */
export function announceChange(
  emit: Emit,
  sessionId: string,
  before: DiscoveredRecord | undefined,
  after: DiscoveredRecord | undefined,
  source: DiscoverSource | ((name: string) => DiscoverSource),
): void {
  // Most rounds only move the history mark: the order is the same array, and a large set needs no comparing.
  if (before?.order === after?.order) return;
  const old = before?.order ?? [];
  const now = after?.order ?? [];
  const had = new Set(old);
  const has = new Set(now);
  const added = now.filter((name) => !had.has(name));
  const removed = old.filter((name) => !has.has(name));
  // One event per source, in the order of the first name of each.
  const bySource = new Map<DiscoverSource, string[]>();
  for (const name of added) {
    const from = typeof source === 'string' ? source : source(name);
    bySource.set(from, [...(bySource.get(from) ?? []), name]);
  }
  for (const [from, names] of bySource) emit({ type: 'discover', sessionId, names, source: from });
  if (removed.length > 0) emit({ type: 'evict', sessionId, names: removed });
}
