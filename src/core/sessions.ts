// Changes to a session's discovered set as the layer makes them: one store call each, announced as events;
// and the host's own view and edits of a set (inspect, forget).

import { ToolSearchError } from '../base/errors.ts';
import { type DiscoveredRecord, RECORD_VERSION } from './discovered.ts';
import { announceChange, type DiscoverSource, type Emit } from './events.ts';
import type { GuardedStore } from './store-guard.ts';

/** A session's discovered set as the host sees it. */
export interface DiscoveredView {
  /** Exposure order: the order the tools are sent in, first discovery first. */
  readonly order: string[];
  /** The same names by recency, least recent first: the front is evicted first. */
  readonly recent: string[];
}

/** What a host may do with a session's set besides clearing it. */
export interface SessionControl {
  /** The session's discovered set (one store read); empty for a session never seen. */
  inspect(sessionId: string): Promise<DiscoveredView>;
  /** Removes tools from the session's set; those it held are announced in an `evict` event. */
  forget(sessionId: string, names: readonly string[]): Promise<void>;
}

type Change = (current: DiscoveredRecord | undefined) => DiscoveredRecord | undefined;

/** A layer's session operations: its own changes, and the host's control. */
export interface Sessions {
  change(
    sessionId: string,
    apply: Change,
    source: DiscoverSource | ((name: string) => DiscoverSource),
    warn?: (message: string) => void,
  ): Promise<DiscoveredRecord | undefined>;
  readonly control: SessionControl;
}

/** The session operations of one layer over its guarded store. */
export function sessionsOf(store: GuardedStore, emit: Emit, warn: (message: string) => void): Sessions {
  /** Applies a change in one store call and announces what it added and removed. */
  async function change(
    sessionId: string,
    apply: Change,
    source: DiscoverSource | ((name: string) => DiscoverSource),
    warnTo = warn,
  ) {
    let before: DiscoveredRecord | undefined;
    const after = await store.update(
      sessionId,
      (current) => {
        before = current;
        return apply(current);
      },
      warnTo,
    );
    announceChange(emit, sessionId, before, after, source);
    return after;
  }

  const control: SessionControl = {
    async inspect(sessionId) {
      if (typeof sessionId !== 'string') throw new ToolSearchError('inspect: sessionId must be a string');
      const record = await store.get(sessionId, warn);
      return { order: [...(record?.order ?? [])], recent: [...(record?.recent ?? [])] };
    },
    async forget(sessionId, names) {
      if (typeof sessionId !== 'string') throw new ToolSearchError('forget: sessionId must be a string');
      if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
        throw new ToolSearchError('forget: names must be an array of strings');
      }
      const gone = new Set(names);
      await change(
        sessionId,
        (current) => (current?.order.some((name) => gone.has(name)) ? without(current, gone) : current),
        'history',
      );
    },
  };
  return { change, control };
}

function without(record: DiscoveredRecord, gone: ReadonlySet<string>): DiscoveredRecord {
  const keep = (name: string) => !gone.has(name);
  return { ...record, v: RECORD_VERSION, order: record.order.filter(keep), recent: record.recent.filter(keep) };
}
