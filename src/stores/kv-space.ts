// One key space of the KV store (its sessions, or its shared values): KV has no compare-and-swap, so each write
// rebases this instance's pending updates onto the freshest value, and is read back a write gap later to see that
// the updates survived. A session's updates are idempotent (adding a tool already there changes nothing), so
// replaying them onto a value shows whether it holds them; a shared value's are not (credits add up), so each write
// leaves a mark in the value, and a value holds an update when it carries the mark of a write that held it.
import { ToolSearchError } from '../core/errors.ts';
import type { RecordUpdate, SharedSpace } from '../core/store-guard.ts';
import type { KvNamespaceLike, KvPutOptions } from './cloudflare-types.ts';

// KV takes one write per key per second; the read-back that checks a write waits as long.
const WRITE_GAP_MS = 1000;
// Writes of one flush (first write, rewrites after a lost race, retries after errors) before it gives up.
const MAX_WRITES = 4;
// Marks a marked value keeps: far more than the writes KV takes in one read-back gap (one a second).
const MARKS_KEPT = 16;

/** Where a space's keys live and how they are written. */
export interface KvSpaceOptions {
  readonly namespace: KvNamespaceLike;
  /** The storage key of an id in the current epoch. */
  readonly keyOf: (id: string) => Promise<string>;
  /** Names an entry in errors: `session`, `shared value`. */
  readonly what: string;
  readonly putOptions: KvPutOptions | undefined;
  /** Store values as `{ w: marks, v: value }`, for updates that are not idempotent (see above). */
  readonly marked: boolean;
  readonly waitUntil: ((promise: Promise<unknown>) => void) | undefined;
}

/** A space's get, update and delete, and `forget` for a clear (the epoch moved: drop what this instance holds). */
export interface KvSpace extends SharedSpace {
  forget(): void;
}

/** One entry as this store instance knows it. */
interface Entry {
  /** What this instance reads: the last value read or written, with the pending updates applied. */
  view: unknown;
  /** Updates not yet confirmed in KV, oldest first; re-applied onto the freshest value at each write. */
  pending: RecordUpdate[];
  /** When this instance last wrote the key (0: never). */
  wrote: number;
  /** The deferred flush under way, if any. */
  flushing?: Promise<void> | undefined;
}

/** A key as read: its text, its value, and the marks of the writes it holds (marked spaces). */
interface Read {
  text: string | null;
  value: unknown;
  marks: readonly string[];
}

/** A write of one flush: its mark, and how many of the pending updates (from the oldest) it carried. */
interface Attempt {
  mark: string;
  count: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const replay = (pending: readonly RecordUpdate[], value: unknown) => pending.reduce((acc, apply) => apply(acc), value);

/** The rebasing, write-combining key space the KV store keeps its sessions and its shared values in. */
export function kvSpace(options: KvSpaceOptions): KvSpace {
  const { namespace, keyOf, what, putOptions, waitUntil, marked } = options;
  const entries = new Map<string, Entry>();

  const read = async (key: string): Promise<Read> => {
    const text = await namespace.get(key);
    if (text === null) return { text, value: undefined, marks: [] };
    const parsed = JSON.parse(text);
    if (!marked) return { text, value: parsed, marks: [] };
    return { text, value: parsed?.v, marks: Array.isArray(parsed?.w) ? parsed.w : [] };
  };
  /** Writes a value (undefined deletes) and returns the text KV now holds, null for none. */
  const write = async (key: string, value: unknown, marks: readonly string[]): Promise<string | null> => {
    if (value === undefined) {
      await namespace.delete(key);
      return null;
    }
    const text = JSON.stringify(marked ? { w: marks.slice(-MARKS_KEPT), v: value } : value);
    await namespace.put(key, text, putOptions);
    return text;
  };
  /** How many of `batch`'s updates, from the oldest, a value read from KV already holds. */
  const holds = (found: Read, batch: readonly RecordUpdate[], attempts: readonly Attempt[]): number => {
    if (!marked) return replay(batch, found.value) === found.value ? batch.length : 0;
    return Math.max(0, ...attempts.filter((a) => found.marks.includes(a.mark)).map((a) => a.count));
  };

  async function entry(id: string): Promise<Entry> {
    let known = entries.get(id);
    if (!known) {
      const { value } = await read(await keyOf(id));
      // Another call may have loaded it while we read.
      known = entries.get(id) ?? { view: value, pending: [], wrote: 0 };
      entries.set(id, known);
    }
    return known;
  }

  /** Writes the pending updates rebased onto the freshest value and checks they survived; bounded. */
  async function flush(id: string, entry: Entry, verify: boolean): Promise<void> {
    const key = await keyOf(id);
    let writes = 0;
    let failure: unknown;
    let attempts: Attempt[] = [];
    while (entry.pending.length > 0) {
      if (writes >= MAX_WRITES) {
        const message = `store "cloudflare-kv" could not write ${what} "${id}" in ${writes} attempts`;
        throw new ToolSearchError(message, { cause: failure });
      }
      await sleep(entry.wrote + WRITE_GAP_MS - Date.now());
      const batch = entry.pending.slice();
      let landed: unknown;
      try {
        const fresh = await read(key);
        // Only the updates the freshest value lacks (another writer may have rebased onto one of ours).
        landed = replay(batch.slice(holds(fresh, batch, attempts)), fresh.value);
        if (landed !== fresh.value) {
          const mark = crypto.randomUUID().slice(0, 8);
          attempts.push({ mark, count: batch.length });
          writes++;
          entry.wrote = Date.now();
          const text = await write(key, landed, [...fresh.marks, mark]);
          if (verify) {
            await sleep(entry.wrote + WRITE_GAP_MS - Date.now());
            const seen = await read(key);
            // Ours is still the value, or another writer's holds our updates: anything else means a racing write
            // replaced ours, so rebase onto it and write again.
            if (seen.text !== text && holds(seen, batch, attempts) < batch.length) continue;
            landed = seen.value;
          }
        }
      } catch (error) {
        // A 429 (another writer took this second) or a transient failure: wait a write gap and rebase again.
        failure = error;
        writes++;
        entry.wrote = Date.now();
        continue;
      }
      entry.pending.splice(0, batch.length);
      attempts = [];
      entry.view = replay(entry.pending, landed);
    }
  }

  /** Starts the entry's flush unless one is under way; updates made meanwhile join it. */
  function startFlush(id: string, entry: Entry, verify: boolean): Promise<void> {
    entry.flushing ??= (async () => {
      // Let the rest of this request's updates join the same write.
      await sleep(0);
      try {
        await flush(id, entry, verify);
      } finally {
        entry.flushing = undefined;
      }
    })();
    return entry.flushing;
  }

  function defer(id: string, entry: Entry, waitUntil: (promise: Promise<unknown>) => void): void {
    if (entry.flushing) return;
    const run = startFlush(id, entry, true).then(() => {
      // An update that arrived as the flush was finishing.
      if (entry.pending.length > 0) defer(id, entry, waitUntil);
    });
    waitUntil(run);
  }

  return {
    async get(id) {
      return (await entry(id)).view;
    },
    async update(id, apply) {
      const known = await entry(id);
      const next = apply(known.view);
      if (next === known.view) return next;
      known.view = next;
      known.pending.push(apply);
      if (waitUntil) defer(id, known, waitUntil);
      else while (known.pending.includes(apply)) await startFlush(id, known, false);
      return next;
    },
    async delete(id) {
      const known = entries.get(id);
      entries.set(id, { view: undefined, pending: [], wrote: known?.wrote ?? 0 });
      if (known) {
        known.pending.length = 0;
        await known.flushing?.catch(() => undefined);
      }
      await namespace.delete(await keyOf(id));
    },
    forget() {
      for (const known of entries.values()) known.pending.length = 0;
      entries.clear();
    },
  };
}
