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

/**
 * A space's get, update and delete; `prefetch`, which starts an id's read for the get or update about to come; and
 * `forget` for a clear (the epoch moved: drop what this instance holds).
 */
export interface KvSpace extends SharedSpace {
  readonly writeWaitMs: number;
  prefetch(id: string): void;
  forget(): void;
}

/**
 * How long a read begun by `prefetch` stands unused: the window in which the layer's other values read lately stand
 * too. A later get or update reads again (the update's write rebases onto a fresh read either way).
 */
export const PREFETCH_KEPT_MS = 5_000;

/** An id's key and queue, once read. */
interface Opened {
  readonly key: string;
  readonly queue: Queue;
}

/** An id's read, under way or done; `ahead` is when a prefetch began it, until a get or update takes it. */
interface Opening {
  readonly ready: Promise<Opened>;
  done?: Opened;
  ahead?: number;
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
  // The reads of this instance, by id: each id is read once per instance (an instance lives for one request), and
  // its queue then holds the freshest value the isolate knows (a queue dropped from the isolate's map stays usable).
  const mine = new Map<string, Opening>();
  // Shared values are read back before an update counts as written, with or without waitUntil: a lost credit is
  // silent. A session's write is read back only when deferred (a session is rarely written by two requests at once).
  const verify = marked || waitUntil !== undefined;
  const keys = kvKeys({ namespace, putOptions, marked, verify, what });

  async function open(id: string): Promise<Opened> {
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
    // Dated when the read began: a write this isolate landed meanwhile stays the freshest value known.
    know(queue, value, at);
    return { key, queue };
  }

  function begin(id: string, ahead?: number): Opening {
    const opening: Opening = { ready: open(id) };
    if (ahead !== undefined) opening.ahead = ahead;
    mine.set(id, opening);
    // A prefetch's failure waits for the call that takes it (handled here so that it is not reported unhandled).
    opening.ready.then(
      (done) => {
        opening.done = done;
      },
      () => undefined,
    );
    return opening;
  }

  function opened(id: string): Promise<Opened> {
    let opening = mine.get(id);
    if (opening?.ahead !== undefined) {
      if (Date.now() - opening.ahead > PREFETCH_KEPT_MS) opening = undefined;
      else delete opening.ahead;
    }
    const taken = opening ?? begin(id);
    // A failed read fails the call that took it, as its own read would have, and is not kept: the next call reads.
    return taken.ready.catch((error: unknown) => {
      if (mine.get(id) === taken) mine.delete(id);
      throw error;
    });
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
    prefetch(id) {
      const opening = mine.get(id);
      if (opening && (opening.ahead === undefined || Date.now() - opening.ahead <= PREFETCH_KEPT_MS)) return;
      begin(id, Date.now());
    },
    forget() {
      // The epoch moved: the old keys' queues are dropped (their writes would land in the old epoch anyway).
      for (const { done } of mine.values()) {
        if (done) settle(done.queue, done.queue.pending.slice(), { error: new Error('cleared') });
      }
      mine.clear();
    },
  };
}
