// The persistence seam for discovered sets, and the guard that keeps a slow or failing store from failing a round.

import { createMemoryStore } from '../stores/memory.ts';
import { type DiscoveredRecord, decodeRecord, mergeRecords } from './discovered.ts';
import { ToolSearchError } from './errors.ts';

/**
 * Turns a session's stored value into the next one. Pure: a store may call it more than once (a retry, a
 * rebase onto a fresher read). Returning `current` itself means "no change, write nothing"; undefined deletes.
 */
export type RecordUpdate = (current: unknown) => unknown;

/**
 * Where discovered sets live, keyed by opaque session ids. Values are plain JSON that the layer wrote
 * (versioned records) and decodes itself: a store never looks inside them. `update` applies the function to
 * the freshest value it can read and writes the result: atomically where the backend allows it (a
 * transaction, a Durable Object), as a read-merge-write where it does not (Cloudflare KV).
 */
export interface DiscoveredStore {
  /** Names the backend in warnings. */
  readonly name: string;
  /** The stored value, or undefined for a session never written. */
  get(sessionId: string): Promise<unknown>;
  /** Applies `apply` to the stored value and resolves to the value after it. */
  update(sessionId: string, apply: RecordUpdate): Promise<unknown>;
  delete(sessionId: string): Promise<void>;
  /** Empties every session of this store, and nothing else that shares its backend. */
  clear(): Promise<void>;
}

/** How the layer treats its store. */
export interface GuardOptions {
  /** Longest wait for one store call, in milliseconds; 0 = no limit. */
  readonly timeoutMs: number;
  /** How long a failed store is left alone before the layer tries it again, in milliseconds. */
  readonly retryMs: number;
  /** The discovered-set cap, for merging what was found in memory meanwhile. */
  readonly keep: number;
  readonly debug: (message: string) => void;
  readonly now?: () => number;
}

/** The store as the layer uses it: decoded records, a timeout on every call, and memory when it fails. */
export interface GuardedStore {
  get(sessionId: string, warn: (message: string) => void): Promise<DiscoveredRecord | undefined>;
  update(
    sessionId: string,
    apply: (current: DiscoveredRecord | undefined) => DiscoveredRecord | undefined,
    warn: (message: string) => void,
  ): Promise<DiscoveredRecord | undefined>;
  delete(sessionId?: string): Promise<void>;
}

/**
 * Wraps a store so that a failure or a timeout moves the affected session to memory for a while, with one
 * warning; the store is tried again after `retryMs`, and what was discovered meanwhile is merged into it.
 */
export function guardStore(store: DiscoveredStore, options: GuardOptions): GuardedStore {
  const { timeoutMs, retryMs, keep } = options;
  const now = options.now ?? Date.now;
  const fallback = createMemoryStore({ maxSessions: 10_000 });
  // Sessions whose set lives in memory until the store answers again.
  const fellBack = new Set<string>();
  // The last record each session read or wrote, so a session that falls back starts from it, not from nothing.
  const lastGood = new Map<string, DiscoveredRecord>();
  const remember = (sessionId: string, record: DiscoveredRecord | undefined) => {
    lastGood.delete(sessionId);
    if (!record) return record;
    if (lastGood.size >= LAST_GOOD_KEPT) lastGood.delete(lastGood.keys().next().value as string);
    lastGood.set(sessionId, record);
    return record;
  };
  let retryAt = 0;
  let warnedOutage = false;
  const warnedVersions = new Set<string>();

  function decode(value: unknown, warn: (message: string) => void): DiscoveredRecord | undefined {
    const decoded = decodeRecord(value);
    if (decoded.version !== undefined && !warnedVersions.has(decoded.version)) {
      warnedVersions.add(decoded.version);
      warn(
        `store "${store.name}" holds a discovered set of format version ${decoded.version}, which this release does not read; it is treated as empty and replaced on the next discovery`,
      );
    }
    return decoded.record;
  }

  function call<T>(what: string, run: () => Promise<T>): Promise<T> {
    if (timeoutMs === 0) return run();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([run(), timeout]).finally(() => clearTimeout(timer));
  }

  async function failed(sessionId: string, error: unknown, warn: (message: string) => void) {
    fellBack.add(sessionId);
    const seed = lastGood.get(sessionId);
    retryAt = now() + retryMs;
    if (seed && (await fallback.get(sessionId)) === undefined) await fallback.update(sessionId, () => seed);
    if (warnedOutage) return;
    warnedOutage = true;
    warn(
      `store "${store.name}" failed (${messageOf(error)}); discovered tools are kept in memory and merged back when it answers again`,
    );
  }

  /** Tries the store again for a session in memory: merges the memory set into it, or stays in memory. */
  async function recover(sessionId: string, warn: (message: string) => void): Promise<boolean> {
    if (now() < retryAt) return false;
    const kept = (await fallback.get(sessionId)) as DiscoveredRecord | undefined;
    try {
      await call(`${store.name}.update`, () =>
        store.update(sessionId, (raw) => (kept ? mergeRecords(decode(raw, warn), kept, keep) : raw)),
      );
    } catch (error) {
      retryAt = now() + retryMs;
      options.debug(`store "${store.name}" still fails (${messageOf(error)})`);
      return false;
    }
    fellBack.delete(sessionId);
    await fallback.delete(sessionId);
    if (fellBack.size === 0) warnedOutage = false;
    options.debug(`store "${store.name}" answers again; session "${sessionId}" merged back`);
    return true;
  }

  async function inMemory(sessionId: string, warn: (message: string) => void): Promise<boolean> {
    return fellBack.has(sessionId) && !(await recover(sessionId, warn));
  }

  return {
    async get(sessionId, warn) {
      if (await inMemory(sessionId, warn)) return (await fallback.get(sessionId)) as DiscoveredRecord | undefined;
      try {
        return remember(sessionId, decode(await call(`${store.name}.get`, () => store.get(sessionId)), warn));
      } catch (error) {
        await failed(sessionId, error, warn);
        return (await fallback.get(sessionId)) as DiscoveredRecord | undefined;
      }
    },
    async update(sessionId, apply, warn) {
      const onMemory = async () =>
        (await fallback.update(sessionId, (raw) => apply(raw as DiscoveredRecord | undefined))) as
          | DiscoveredRecord
          | undefined;
      if (await inMemory(sessionId, warn)) return onMemory();
      try {
        const value = await call(`${store.name}.update`, () =>
          store.update(sessionId, (raw) => {
            const current = decode(raw, warn);
            const next = apply(current);
            return next === current ? raw : next;
          }),
        );
        return remember(sessionId, decode(value, warn));
      } catch (error) {
        await failed(sessionId, error, warn);
        return onMemory();
      }
    },
    async delete(sessionId) {
      // The memory copy goes first: a store that fails to delete must not leave the fallback set behind too.
      if (sessionId === undefined) {
        lastGood.clear();
        fellBack.clear();
        await fallback.clear();
      } else {
        lastGood.delete(sessionId);
        fellBack.delete(sessionId);
        await fallback.delete(sessionId);
      }
      try {
        await call(`${store.name}.${sessionId === undefined ? 'clear' : 'delete'}`, () =>
          sessionId === undefined ? store.clear() : store.delete(sessionId),
        );
      } catch (error) {
        const what = sessionId === undefined ? 'every session' : `session "${sessionId}"`;
        throw new ToolSearchError(`store "${store.name}" failed to clear ${what}`, { cause: error });
      }
    },
  };
}

const LAST_GOOD_KEPT = 1000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
