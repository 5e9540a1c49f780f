// One key space of the KV store (its sessions, or its shared values). KV takes one write a second per key and has no
// compare-and-swap, so the updates of every store instance of an isolate meet in one queue per KV binding and key
// (a Worker builds a store per request; the binding is the same object across the requests of an isolate): one
// write carries every update queued meanwhile, rebased onto the freshest value, and is read back a write gap later
// to see that the updates survived another isolate's write. A session's updates are idempotent (adding a tool
// already there changes nothing), so replaying them onto a value shows whether it holds them; a shared value's are
// not (credits add up), so each write leaves a mark in the value, and a value holds an update when it carries the
// mark of a write that held it.
import { ToolSearchError } from '../base/errors.ts';
import type { KvNamespaceLike, KvPutOptions } from './cloudflare-types.ts';
import type { RecordUpdate, SharedSpace } from './store.ts';

// KV takes one write per key per second; the read-back that checks a write waits as long.
const WRITE_GAP_MS = 1000;
// Writes (or failed attempts) one update may ride in before it gives up: a lost race, a 429 from another isolate's
// write of the same second, a transient failure each take one.
const MAX_TRIES = 6;
// Marks a marked value keeps: a write is read back a second later, and each isolate writes a key at most once a
// second, so this covers a minute of writes from many isolates (eventual consistency is at most 60 s).
const MARKS_KEPT = 64;
// Idle queues (nothing pending, nothing under way) kept per binding before the oldest are dropped.
const IDLE_KEPT = 512;

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
  readonly writeWaitMs: number;
  forget(): void;
}

/**
 * The longest an update waits without waitUntil, when every try is spent: each waits a gap (and jitter), writes,
 * and waits a gap to read it back.
 */
export const MAX_WRITE_WAIT_MS: number = MAX_TRIES * WRITE_GAP_MS * 2.5;

/** One update waiting to reach KV. */
interface Update {
  readonly apply: RecordUpdate;
  /** Marks of the writes that carried it (marked spaces). */
  readonly marks: string[];
  tries: number;
  /** Settled: landed (true) or given up (the error). */
  outcome?: true | { error: unknown };
}

/** The isolate's queue for one storage key, shared by every store instance over the same binding. */
interface Queue {
  /** Updates not yet confirmed in KV, oldest first; re-applied onto the freshest value at each write. */
  pending: Update[];
  /** When this isolate last wrote the key (0: never). */
  wrote: number;
  /** The write under way, if any. */
  step?: Promise<void> | undefined;
  /** The freshest value this isolate knows of the key, and when it was read (or landed). */
  known?: { value: unknown; at: number };
}

/** A key as read: its text, its value, and the marks of the writes it holds (marked spaces). */
interface Read {
  text: string | null;
  value: unknown;
  marks: readonly string[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const replay = (updates: readonly Update[], value: unknown) => updates.reduce((acc, u) => u.apply(acc), value);

// The queues of the isolate, per KV binding and storage key (sessions and shared values never share a key).
const isolate = new WeakMap<object, Map<string, Queue>>();

function queuesOf(namespace: KvNamespaceLike): Map<string, Queue> {
  let queues = isolate.get(namespace);
  if (!queues) {
    queues = new Map();
    isolate.set(namespace, queues);
  }
  return queues;
}

function queueOf(queues: Map<string, Queue>, key: string): Queue {
  let queue = queues.get(key);
  if (!queue) {
    if (queues.size >= IDLE_KEPT) {
      const now = Date.now();
      for (const [k, q] of queues) {
        if (q.pending.length === 0 && !q.step && now - q.wrote > WRITE_GAP_MS) queues.delete(k);
        if (queues.size < IDLE_KEPT / 2) break;
      }
    }
    queue = { pending: [], wrote: 0 };
    queues.set(key, queue);
  }
  return queue;
}

/** The rebasing, write-combining key space the KV store keeps its sessions and its shared values in. */
export function kvSpace(options: KvSpaceOptions): KvSpace {
  const { namespace, keyOf, what, putOptions, waitUntil, marked } = options;
  const queues = queuesOf(namespace);
  // The queues this instance has read or written, by id (a queue dropped from the isolate's map stays usable here).
  const mine = new Map<string, { key: string; queue: Queue }>();
  // Shared values are read back before an update counts as written, with or without waitUntil: a lost credit is
  // silent. A session's write is read back only when deferred (a session is rarely written by two requests at once).
  const verify = marked || waitUntil !== undefined;

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
  const holds = (found: Read, batch: readonly Update[]): number => {
    if (!marked) return replay(batch, found.value) === found.value ? batch.length : 0;
    for (let i = batch.length - 1; i >= 0; i--) {
      if ((batch[i] as Update).marks.some((mark) => found.marks.includes(mark))) return i + 1;
    }
    return 0;
  };
  const know = (queue: Queue, value: unknown, at: number) => {
    if (!queue.known || at >= queue.known.at) queue.known = { value, at };
  };

  async function opened(id: string): Promise<{ key: string; queue: Queue }> {
    let known = mine.get(id);
    if (!known) {
      const key = await keyOf(id);
      const queue = queueOf(queues, key);
      const at = Date.now();
      const { value } = await read(key);
      know(queue, value, at);
      // Another call may have opened it while we read.
      known = mine.get(id) ?? { key, queue };
      mine.set(id, known);
    }
    return known;
  }
  const view = (queue: Queue) => replay(queue.pending, queue.known?.value);

  /** Settles updates: they leave the queue. */
  function settle(queue: Queue, updates: readonly Update[], outcome: NonNullable<Update['outcome']>): void {
    for (const update of updates) update.outcome = outcome;
    queue.pending = queue.pending.filter((update) => !update.outcome);
  }

  /**
   * One write of the key: every update queued by then, rebased onto the freshest value, one write gap after this
   * isolate's last write of the key; read back a gap later when verifying. Never throws: a failure counts a try.
   */
  async function step(key: string, queue: Queue): Promise<void> {
    // Shared values with a little jitter, so that isolates writing the same key drift apart instead of meeting every
    // second (sessions are rarely written by two isolates at once).
    await sleep(queue.wrote + WRITE_GAP_MS * (marked ? 1 + Math.random() / 4 : 1) - Date.now());
    const batch = queue.pending.slice();
    if (batch.length === 0) return;
    try {
      const fresh = await read(key);
      // Only the updates the freshest value lacks (another writer may have rebased onto one of ours).
      const lacking = batch.slice(holds(fresh, batch));
      let landed = replay(lacking, fresh.value);
      let at = Date.now();
      if (lacking.length > 0 && landed !== fresh.value) {
        const mark = crypto.randomUUID().slice(0, 8);
        for (const update of batch) update.marks.push(mark);
        queue.wrote = Date.now();
        const text = await write(key, landed, [...fresh.marks, mark]);
        if (verify) {
          await sleep(queue.wrote + WRITE_GAP_MS - Date.now());
          at = Date.now();
          const seen = await read(key);
          // Ours is still the value, or another writer's holds our updates: anything else means a racing write
          // replaced ours; the next step rebases onto it.
          const held = seen.text === text ? batch.length : holds(seen, batch);
          if (held < batch.length) {
            settle(queue, batch.slice(0, held), true);
            for (const update of batch.slice(held)) update.tries++;
            giveUp(queue, new Error('a racing write replaced it'));
            return;
          }
          landed = seen.value;
        }
      }
      settle(queue, batch, true);
      know(queue, landed, at);
    } catch (error) {
      // A 429 (another isolate took this second) or a transient failure: the next step waits a gap and rebases.
      queue.wrote = Date.now();
      for (const update of batch) update.tries++;
      giveUp(queue, error);
    }
  }

  function giveUp(queue: Queue, cause: unknown): void {
    const spent = queue.pending.filter((update) => update.tries >= MAX_TRIES);
    if (spent.length > 0) settle(queue, spent, { error: cause });
  }

  /** Waits until an update has landed or was given up, taking a write in turn: each waiter drives in its own request. */
  async function until(id: string, key: string, queue: Queue, update: Update): Promise<void> {
    while (!update.outcome) {
      if (!queue.step) {
        queue.step = step(key, queue).finally(() => {
          queue.step = undefined;
        });
      }
      await queue.step;
    }
    if (update.outcome !== true) {
      const message = `store "cloudflare-kv" could not write ${what} "${id}" in ${update.tries} attempts`;
      throw new ToolSearchError(message, { cause: update.outcome.error });
    }
  }

  return {
    async get(id) {
      return view((await opened(id)).queue);
    },
    async update(id, apply) {
      const { key, queue } = await opened(id);
      const current = view(queue);
      const next = apply(current);
      if (next === current) return next;
      const update: Update = { apply, marks: [], tries: 0 };
      queue.pending.push(update);
      const landed = until(id, key, queue, update);
      if (waitUntil) waitUntil(landed);
      else await landed;
      return next;
    },
    async delete(id) {
      const { key, queue } = await opened(id);
      settle(queue, queue.pending.slice(), { error: new Error(`${what} deleted`) });
      await queue.step;
      queue.known = { value: undefined, at: Date.now() };
      await namespace.delete(key);
    },
    writeWaitMs: waitUntil || !verify ? 0 : MAX_WRITE_WAIT_MS,
    forget() {
      // The epoch moved: the old keys' queues are dropped (their writes would land in the old epoch anyway).
      for (const { queue } of mine.values()) settle(queue, queue.pending.slice(), { error: new Error('cleared') });
      mine.clear();
    },
  };
}
