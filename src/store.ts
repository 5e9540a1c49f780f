// The persistence seam for discovered sets, and the guard that keeps a failing store from failing a round.
import type { DiscoveredRecord } from './discovered.ts';
import { ToolSearchError } from './errors.ts';
import { createMemoryStore } from './stores/memory.ts';

/** Turns a session's current record into the next one; returning `current` itself means "no change". */
export type RecordUpdate = (current: DiscoveredRecord | undefined) => DiscoveredRecord | undefined;

/**
 * Where discovered sets live, keyed by opaque session ids. `update` applies the function to the freshest
 * value it can read and writes the result: atomically where the backend allows it (a transaction, a
 * Durable Object), as a read-merge-write where it does not (Cloudflare KV). A missing session reads as undefined.
 */
export interface DiscoveredStore {
  /** Names the backend in warnings. */
  readonly name: string;
  get(sessionId: string): Promise<DiscoveredRecord | undefined>;
  update(sessionId: string, apply: RecordUpdate): Promise<DiscoveredRecord | undefined>;
  delete(sessionId: string): Promise<void>;
  clear(): Promise<void>;
}

/** A store wrapper that moves a session to memory when its store throws, warning once per layer. */
export interface GuardedStore {
  get(sessionId: string, warn: (message: string) => void): Promise<DiscoveredRecord | undefined>;
  /** `lastKnown` seeds the memory copy if the write fails after a good read. */
  update(
    sessionId: string,
    apply: RecordUpdate,
    warn: (message: string) => void,
    lastKnown?: DiscoveredRecord,
  ): Promise<DiscoveredRecord | undefined>;
  delete(sessionId?: string): Promise<void>;
}

/** Wraps a store so that its failures degrade to an in-memory set for the sessions they hit. */
export function guardStore(store: DiscoveredStore): GuardedStore {
  const fallback = createMemoryStore();
  // Once a session fell back it stays in memory: flipping back and forth would show the model two different sets.
  const fellBack = new Set<string>();
  let warned = false;
  async function attempt<T>(
    sessionId: string,
    warn: (message: string) => void,
    run: (target: DiscoveredStore) => Promise<T>,
    seed?: DiscoveredRecord,
  ): Promise<T> {
    if (fellBack.has(sessionId)) return run(fallback);
    try {
      return await run(store);
    } catch (error) {
      fellBack.add(sessionId);
      if (seed) await fallback.update(sessionId, () => seed);
      if (!warned) {
        warned = true;
        warn(
          `store "${store.name}" failed (${messageOf(error)}); discovered tools are kept in memory for the affected sessions until the layer is recreated`,
        );
      }
      return run(fallback);
    }
  }
  return {
    get(sessionId, warn) {
      return attempt(sessionId, warn, (target) => target.get(sessionId));
    },
    update(sessionId, apply, warn, lastKnown) {
      return attempt(sessionId, warn, (target) => target.update(sessionId, apply), lastKnown);
    },
    async delete(sessionId) {
      // The memory copy goes first: a store that fails to delete must not leave the fallback set behind too.
      if (sessionId === undefined) {
        fellBack.clear();
        await fallback.clear();
      } else {
        fellBack.delete(sessionId);
        await fallback.delete(sessionId);
      }
      try {
        await (sessionId === undefined ? store.clear() : store.delete(sessionId));
      } catch (error) {
        const what = sessionId === undefined ? 'every session' : `session "${sessionId}"`;
        throw new ToolSearchError(`store "${store.name}" failed to clear ${what}`, { cause: error });
      }
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
