// The guard that keeps a slow or failing store from failing a round (the store contract is stores/store.ts).

import { ToolSearchError } from '../base/errors.ts';
import { MAX_FALLBACK_SESSIONS } from '../base/limits.ts';
import { callWithTimeout } from '../base/timeout.ts';
import type { DiscoveredStore } from '../stores/store.ts';
import { type DiscoveredRecord, decodeRecord, mergeRecords } from './discovered.ts';
import type { Emit } from './events.ts';

/** How the layer treats its store. */
export interface GuardOptions {
  /** Longest wait for one store call, in milliseconds; 0 = no limit. */
  readonly timeoutMs: number;
  /** How long a failed store is left alone before the layer tries it again, in milliseconds. */
  readonly retryMs: number;
  /** The discovered-set cap, for merging what was found in memory meanwhile. */
  readonly keep: number;
  readonly debug: (message: string) => void;
  /** Receives `store-fallback` and `store-recover`. */
  readonly emit?: Emit;
  readonly now?: () => number;
}

type Change = (current: DiscoveredRecord | undefined) => DiscoveredRecord | undefined;
type Warn = (message: string) => void;

/** The store as the layer uses it: decoded records, a timeout on every call, and memory when it fails. */
export interface GuardedStore {
  /** Reads a session's set: one store call. */
  get(sessionId: string, warn: Warn): Promise<DiscoveredRecord | undefined>;
  /** Applies a change: one store call that reads once and writes only when the record changed. */
  update(sessionId: string, apply: Change, warn: Warn): Promise<DiscoveredRecord | undefined>;
  delete(sessionId?: string): Promise<void>;
  /** Tells the store an update of the session follows soon (DiscoveredStore.prefetch), unless the session is in memory. */
  prefetch(sessionId: string): void;
}

/** A session held in memory while its store fails: what it discovered meanwhile. */
interface Held {
  record: DiscoveredRecord | undefined;
}

/**
 * Wraps a store so that a failure or a timeout moves the affected session to memory for a while, with one
 * warning per outage; the store is tried again after `retryMs`, in the same call that merges back what was
 * discovered meanwhile, so a round still costs one store call.
 */
export function guardStore(store: DiscoveredStore, options: GuardOptions): GuardedStore {
  const { timeoutMs, retryMs, keep, debug } = options;
  const emit = options.emit ?? (() => {});
  const now = options.now ?? Date.now;
  // Sessions in memory, least recently used first; bounded, so a long outage over many sessions stays bounded.
  const held = new Map<string, Held>();
  // The last record each session read or wrote, so a session that falls back starts from it, not from nothing.
  const lastGood = new Map<string, DiscoveredRecord>();
  let retryAt = 0;
  // An outage is warned about once; it ends when the store answers, and the next one is warned about
  // again, at most once per retryMs (a store that fails every other call must not flood the log).
  let warnedAt: number | undefined;
  let answeredSinceWarning = false;
  const warnedVersions = new Set<string>();

  const touch = <V>(map: Map<string, V>, id: string, value: V, max: number): V => {
    map.delete(id);
    if (map.size >= max) map.delete(map.keys().next().value as string);
    map.set(id, value);
    return value;
  };

  function decode(value: unknown, warn: Warn): DiscoveredRecord | undefined {
    let version: string | undefined;
    let record: DiscoveredRecord | undefined;
    try {
      ({ record, version } = decodeRecord(value));
    } catch {
      // A value the layer cannot even read (a BigInt version, a throwing getter): treated like any unknown format.
      version = 'unreadable';
    }
    if (version !== undefined && !warnedVersions.has(version)) {
      warnedVersions.add(version);
      warn(
        `store "${store.name}" holds a discovered set of format version ${version}, which this release does not read; it is treated as empty and replaced on the next discovery`,
      );
    }
    return record;
  }

  const call = <T>(what: string, run: () => Promise<T>): Promise<T> =>
    callWithTimeout(run, timeoutMs, `${what} took longer than ${timeoutMs} ms`);

  function answered(sessionId: string, record: DiscoveredRecord | undefined, was: Held | undefined, kept: unknown) {
    answeredSinceWarning = true;
    // Merged back: leave memory only if nothing was discovered there while the merge was in flight.
    if (was && held.get(sessionId) === was && was.record === kept) {
      held.delete(sessionId);
      debug(`store "${store.name}" answers again; session "${sessionId}" merged back`);
      emit({ type: 'store-recover', store: store.name, sessions: [sessionId] });
    }
    lastGood.delete(sessionId);
    if (record) touch(lastGood, sessionId, record, LAST_GOOD_KEPT);
    return record;
  }

  function failed(sessionId: string, error: unknown, warn: Warn): Held {
    retryAt = now() + retryMs;
    const message = error instanceof Error ? error.message : String(error);
    let entry = held.get(sessionId);
    if (entry) debug(`store "${store.name}" still fails (${message})`);
    else {
      entry = { record: lastGood.get(sessionId) };
      emit({ type: 'store-fallback', store: store.name, sessionId, error: message });
    }
    touch(held, sessionId, entry, MAX_FALLBACK_SESSIONS);
    if (warnedAt === undefined || (answeredSinceWarning && now() - warnedAt >= retryMs)) {
      warnedAt = now();
      answeredSinceWarning = false;
      warn(
        `store "${store.name}" failed (${message}); discovered tools are kept in memory and merged back when it answers again`,
      );
    }
    return entry;
  }

  /** One store call for a read (`apply` undefined) or a change, merging what memory holds for the session. */
  async function run(sessionId: string, apply: Change | undefined, warn: Warn) {
    const was = held.get(sessionId);
    if (was && now() < retryAt) {
      touch(held, sessionId, was, MAX_FALLBACK_SESSIONS);
      if (apply) was.record = apply(was.record);
      return was.record;
    }
    const kept = was?.record;
    try {
      if (!apply && !kept) {
        const value = await call(`${store.name}.get`, () => store.get(sessionId));
        return answered(sessionId, decode(value, warn), was, kept);
      }
      const value = await call(`${store.name}.update`, () =>
        store.update(sessionId, (raw) => {
          const current = decode(raw, warn);
          const base = kept ? mergeRecords(current, kept, keep) : current;
          const next = apply ? apply(base) : base;
          return next === current ? raw : next;
        }),
      );
      return answered(sessionId, decode(value, warn), was, kept);
    } catch (error) {
      const entry = failed(sessionId, error, warn);
      if (apply) entry.record = apply(entry.record);
      return entry.record;
    }
  }

  return {
    prefetch(sessionId) {
      // A session in memory until the retry reaches no store call, so nothing is read ahead for it.
      if (!store.prefetch || (held.has(sessionId) && now() < retryAt)) return;
      try {
        store.prefetch(sessionId);
      } catch (error) {
        // Only a hint: the update reads as it would have without it.
        debug(`store "${store.name}".prefetch threw (${error instanceof Error ? error.message : String(error)})`);
      }
    },
    get: (sessionId, warn) => run(sessionId, undefined, warn),
    update: (sessionId, apply, warn) => run(sessionId, apply, warn),
    async delete(sessionId) {
      // The memory copy goes first: a store that fails to delete must not leave the fallback set behind too.
      if (sessionId === undefined) {
        lastGood.clear();
        held.clear();
      } else {
        lastGood.delete(sessionId);
        held.delete(sessionId);
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
