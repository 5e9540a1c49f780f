// The store's shared space as the layer's features use it (learned credits, tool vectors): a timeout on every call,
// memory while the store fails, and the changes made meanwhile replayed onto the stored value when it answers.
// Imported only by the features that share values, so it loads with them, never with the core entry.

import { callWithTimeout } from '../base/timeout.ts';
import type { DiscoveredStore, RecordUpdate, SharedSpace } from '../stores/store.ts';

type Warn = (message: string) => void;

/** How the layer treats the shared space; the same settings as its sessions' store calls. */
export interface SharedGuardOptions {
  /** Longest wait for one store call, in milliseconds; 0 = no limit. */
  readonly timeoutMs: number;
  /** How long a failed store is left alone before the layer tries it again, in milliseconds. */
  readonly retryMs: number;
  readonly now?: () => number;
}

/** The shared space as a feature uses it: never throws; a failing store degrades to memory with one warning. */
export interface GuardedShared {
  /** True when the values outlive this layer (the store has a shared space), false when they live in its memory. */
  readonly persistent: boolean;
  /** The store's storage identity (SharedSpace.identity), when it gives one: what layers may share built values by. */
  readonly identity: object | undefined;
  get(key: string, warn: Warn): Promise<unknown>;
  /** Applies a pure change; during an outage it is applied in memory and replayed onto the store's value later. */
  update(key: string, apply: RecordUpdate, warn: Warn): Promise<unknown>;
  delete(key: string): Promise<void>;
  /** Forgets what this guard holds in memory (the layer's `clear()`; the store clears its own side). */
  clearMemory(): void;
}

/** Keys held in memory during an outage, and the changes kept per key for the replay. */
const HELD_KEYS = 256;
const PENDING_PER_KEY = 256;

interface Held {
  value: unknown;
  pending: RecordUpdate[];
}

/** A bounded in-memory shared space, for stores that have none. */
function memorySpace(): SharedSpace & { clear(): void } {
  const values = new Map<string, unknown>();
  return {
    async get(key) {
      return values.get(key);
    },
    async update(key, apply) {
      const current = values.get(key);
      const next = apply(current);
      if (next === current) return current;
      values.delete(key);
      if (next !== undefined) values.set(key, next);
      if (values.size > HELD_KEYS) values.delete(values.keys().next().value as string);
      return next;
    },
    async delete(key) {
      values.delete(key);
    },
    clear: () => values.clear(),
  };
}

/** Wraps a store's shared space (or memory, when it has none) for the layer's features. */
export function guardShared(store: DiscoveredStore, options: SharedGuardOptions): GuardedShared {
  const inMemory = store.shared ? undefined : memorySpace();
  const space: SharedSpace = store.shared ?? (inMemory as SharedSpace);
  const now = options.now ?? Date.now;
  const writeWaitMs = Math.max(0, store.shared?.writeWaitMs ?? 0);
  const held = new Map<string, Held>();
  const lastGood = new Map<string, unknown>();
  let retryAt = 0;
  let warned = false;

  const remember = <V>(map: Map<string, V>, key: string, value: V): V => {
    map.delete(key);
    if (map.size >= HELD_KEYS) map.delete(map.keys().next().value as string);
    map.set(key, value);
    return value;
  };

  function call<T>(what: string, run: () => Promise<T>): Promise<T> {
    // A paced write (see SharedSpace.writeWaitMs) is given its pacing on top of the timeout.
    const limit = options.timeoutMs === 0 || what !== 'update' ? options.timeoutMs : options.timeoutMs + writeWaitMs;
    return callWithTimeout(run, limit, `${store.name}.shared.${what} took longer than ${limit} ms`);
  }

  function failed(key: string, error: unknown, warn: Warn): Held {
    retryAt = now() + options.retryMs;
    const entry = held.get(key) ?? { value: lastGood.get(key), pending: [] };
    remember(held, key, entry);
    if (!warned) {
      warned = true;
      const message = error instanceof Error ? error.message : String(error);
      warn(`store "${store.name}" failed on a shared value (${message}); it is kept in memory until the store answers`);
    }
    return entry;
  }

  async function run(key: string, apply: RecordUpdate | undefined, warn: Warn): Promise<unknown> {
    const was = held.get(key);
    if (was && now() < retryAt) {
      if (!apply) return was.value;
      was.value = apply(was.value);
      was.pending.push(apply);
      if (was.pending.length > PENDING_PER_KEY) was.pending.shift();
      return was.value;
    }
    const replay = [...(was?.pending ?? []), ...(apply ? [apply] : [])];
    try {
      const value =
        replay.length === 0
          ? await call('get', () => space.get(key))
          : await call('update', () => space.update(key, (raw) => replay.reduce((v, change) => change(v), raw)));
      if (was && held.get(key) === was) held.delete(key);
      warned = false;
      remember(lastGood, key, value);
      return value;
    } catch (error) {
      const entry = failed(key, error, warn);
      if (apply) {
        entry.value = apply(entry.value);
        entry.pending.push(apply);
      }
      return entry.value;
    }
  }

  return {
    persistent: store.shared !== undefined,
    identity: store.shared?.identity,
    get: (key, warn) => run(key, undefined, warn),
    update: (key, apply, warn) => run(key, apply, warn),
    async delete(key) {
      held.delete(key);
      lastGood.delete(key);
      await call('delete', () => space.delete(key));
    },
    clearMemory() {
      held.clear();
      lastGood.clear();
      inMemory?.clear();
    },
  };
}
