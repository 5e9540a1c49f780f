// The writes of one KV key (see kv-space.ts for why they are shaped so): every update queued by then, rebased onto
// the freshest value, one write gap after this isolate's last write of the key, and read back a gap later when
// verifying. A shared value's updates are not idempotent, so each write leaves a mark in the value.
import { ToolSearchError } from '../base/errors.ts';
import type { KvNamespaceLike, KvPutOptions } from './cloudflare-types.ts';
import type { RecordUpdate } from './store.ts';

// KV takes one write per key per second; the read-back that checks a write waits as long.
export const WRITE_GAP_MS = 1000;
// Writes (or failed attempts) one update may ride in before it gives up: a lost race, a 429 from another isolate's
// write of the same second, a transient failure each take one.
export const MAX_TRIES = 6;
// Marks a marked value keeps: a write is read back a second later, and each isolate writes a key at most once a
// second, so this covers a minute of writes from many isolates (eventual consistency is at most 60 s).
const MARKS_KEPT = 64;

/** One update waiting to reach KV. */
export interface Update {
  readonly apply: RecordUpdate;
  /** Marks of the writes that carried it (marked spaces). */
  readonly marks: string[];
  tries: number;
  /** Settled: landed (true) or given up (the error). */
  outcome?: true | { error: unknown };
}

/** The isolate's queue for one storage key, shared by every store instance over the same binding. */
export interface Queue {
  /** Updates not yet confirmed in KV, oldest first; re-applied onto the freshest value at each write. */
  pending: Update[];
  /** When this isolate last wrote the key (0: never). */
  wrote: number;
  /** The write under way, if any. */
  step?: Promise<void> | undefined;
  /** The freshest value this isolate knows of the key, and when it was read (or landed). */
  known?: { value: unknown; at: number };
  /**
   * The key as last read in a marked space (shared values, which no reader changes in place): a read that finds the
   * same text gives the value parsed then, so the layers of an isolate reading an unchanged key parse it once.
   */
  parsed?: Read;
}

/** A key as read: its text, its value, and the marks of the writes it holds (marked spaces). */
export interface Read {
  text: string | null;
  value: unknown;
  marks: readonly string[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** A value with the updates applied, oldest first. */
export const replay = (updates: readonly Update[], value: unknown): unknown =>
  updates.reduce((acc, u) => u.apply(acc), value);

/** Settles updates: they leave the queue. */
export function settle(queue: Queue, updates: readonly Update[], outcome: NonNullable<Update['outcome']>): void {
  for (const update of updates) update.outcome = outcome;
  queue.pending = queue.pending.filter((update) => !update.outcome);
}

/** Records a value of the key as the freshest known, unless a fresher one is known already. */
export function know(queue: Queue, value: unknown, at: number): void {
  if (!queue.known || at >= queue.known.at) queue.known = { value, at };
}

/** How a space reads and writes its keys. */
export interface KvKeys {
  /** Reads a key; the read always reaches KV (another isolate may have written it), the parse only for new text. */
  read(key: string, queue: Queue): Promise<Read>;
  /** Waits until an update has landed or was given up, taking a write in turn: each waiter drives in its own request. */
  until(id: string, key: string, queue: Queue, update: Update): Promise<void>;
}

/** Where the keys are, how their values are kept, and whether a write is read back. */
export interface KvKeysOptions {
  readonly namespace: KvNamespaceLike;
  readonly putOptions: KvPutOptions | undefined;
  /** Store values as `{ w: marks, v: value }`, for updates that are not idempotent. */
  readonly marked: boolean;
  readonly verify: boolean;
  /** Names an entry in errors: `session`, `shared value`. */
  readonly what: string;
}

/** The reads and the write-combining, rebasing writes of a space's keys. */
export function kvKeys(options: KvKeysOptions): KvKeys {
  const { namespace, putOptions, marked, verify, what } = options;

  const read = async (key: string, queue: Queue): Promise<Read> => {
    const text = await namespace.get(key);
    if (text === null) return { text, value: undefined, marks: [] };
    if (queue.parsed?.text === text) return queue.parsed;
    const parsed = JSON.parse(text);
    if (!marked) return { text, value: parsed, marks: [] };
    queue.parsed = { text, value: parsed?.v, marks: Array.isArray(parsed?.w) ? parsed.w : [] };
    return queue.parsed;
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

  function giveUp(queue: Queue, cause: unknown): void {
    const spent = queue.pending.filter((update) => update.tries >= MAX_TRIES);
    if (spent.length > 0) settle(queue, spent, { error: cause });
  }

  /** One write of the key, of every update queued by then. Never throws: a failure counts a try. */
  async function step(key: string, queue: Queue): Promise<void> {
    // Shared values with a little jitter, so that isolates writing the same key drift apart instead of meeting every
    // second (sessions are rarely written by two isolates at once).
    await sleep(queue.wrote + WRITE_GAP_MS * (marked ? 1 + Math.random() / 4 : 1) - Date.now());
    const batch = queue.pending.slice();
    if (batch.length === 0) return;
    try {
      const fresh = await read(key, queue);
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
          const seen = await read(key, queue);
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

  return {
    read,
    async until(id, key, queue, update) {
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
    },
  };
}
