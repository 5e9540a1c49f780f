// One key space of the KV store (its sessions, or its shared values). KV takes one write a second per key and has no
// compare-and-swap, so the updates of every store instance of an isolate meet in one queue per KV binding and key
// (a Worker builds a store per request; the binding is the same object across the requests of an isolate): one
// write carries every update queued meanwhile, rebased onto the freshest value, and is read back a write gap later
// to see that the updates survived another isolate's write. A session's updates are idempotent (adding a tool
// already there changes nothing), so replaying them onto a value shows whether it holds them; a shared value's are
// not (credits add up), so each write leaves a mark in the value, and a value holds an update when it carries the
// mark of a write that held it.
import type { KvNamespaceLike, KvPutOptions } from './cloudflare-types.ts';
import { know, kvKeys, MAX_TRIES, type Queue, replay, settle, type Update, WRITE_GAP_MS } from './kv-writes.ts';
import type { SharedSpace } from './store.ts';

// Idle queues (nothing pending, nothing under way) kept per binding before the oldest are dropped.
const IDLE_KEPT = 512;

/** Where a space's keys live and how they are written. */
export interface KvSpaceOptions {
  readonly namespace: KvNamespaceLike;
  /** The storage key of an id in the current epoch. */
  readonly keyOf: (id: string) => Promise<string>;
  /** The key of an id in the epoch this isolate read last, if it read one: read alongside `keyOf`'s epoch read. */
  readonly likelyKeyOf?: (id: string) => Promise<string> | undefined;
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
  const { namespace, keyOf, likelyKeyOf, what, putOptions, waitUntil, marked } = options;
  const queues = queuesOf(namespace);
  // The queues this instance has read or written, by id (a queue dropped from the isolate's map stays usable here).
  const mine = new Map<string, { key: string; queue: Queue }>();
  // Shared values are read back before an update counts as written, with or without waitUntil: a lost credit is
  // silent. A session's write is read back only when deferred (a session is rarely written by two requests at once).
  const verify = marked || waitUntil !== undefined;
  const keys = kvKeys({ namespace, putOptions, marked, verify, what });

  async function opened(id: string): Promise<{ key: string; queue: Queue }> {
    let known = mine.get(id);
    if (!known) {
      const at = Date.now();
      // Read under the epoch this isolate read last, alongside this instance's read of the epoch (one round trip,
      // not two in a row): the value stands when the epoch is still that one, else (a clear moved it) the key under
      // the current epoch is read.
      const early = likelyKeyOf?.(id)
        ?.then(async (key) => ({ key, read: await keys.read(key, queueOf(queues, key)) }))
        .catch(() => undefined);
      const key = await keyOf(id);
      const queue = queueOf(queues, key);
      const guessed = await early;
      const { value } = guessed?.key === key ? guessed.read : await keys.read(key, queue);
      know(queue, value, at);
      // Another call may have opened it while we read.
      known = mine.get(id) ?? { key, queue };
      mine.set(id, known);
    }
    return known;
  }
  const view = (queue: Queue) => replay(queue.pending, queue.known?.value);

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
      const landed = keys.until(id, key, queue, update);
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
