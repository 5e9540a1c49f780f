// The writing side of a learner: credit committed and not yet written, merged across sessions, and the write under
// way. A round only queues its credit, and one write per shard carries every session's that came in meanwhile.
import { addToSlot, clockOf, clockSlotKey, pickSlot } from './clock.ts';
import { VOTE } from './memory.ts';
import type { Remembered } from './memory-pages.ts';
import type { ResolvedLearn } from './options.ts';
import type { RequestMemory } from './requests.ts';
import { SET_VOTE } from './set-vote.ts';
import type { SpaceAccess } from './space-cache.ts';
import { addToBatch, addToShard, type Batch, type CreditDelta, newBatch, settle } from './table.ts';
import type { TableReader } from './table-reader.ts';

type Warn = (message: string) => void;

/** A learner's queue of credit to write. */
export interface CreditWriter {
  /** Queues a delta; the returned promise settles once it is written (never rejects: failures are warned). */
  enqueue(delta: CreditDelta | undefined, requests: readonly Remembered[], warn: Warn, now: boolean): Promise<void>;
  /** Waits until every credit queued so far is written. */
  flush(): Promise<void>;
  /** Drops the credit not yet written and waits for the write under way. */
  drop(): Promise<void>;
}

/** How long a queued write waits for more sessions' credit, unless a round or flush() waits for it. */
const GATHER_MS = 200;

/** Creates the write queue of a scope's table and memory of past requests. */
export function createCreditWriter(
  scope: string,
  options: ResolvedLearn,
  space: SpaceAccess,
  table: Pick<TableReader, 'clockNames' | 'shardNames'>,
  memory: RequestMemory,
): CreditWriter {
  const { shared, keep } = space;
  const { clockNames, shardNames } = table;
  let batch = newBatch();
  let queued: Promise<void> | undefined;
  let writing: Promise<void> = Promise.resolve();
  // Ends the wait of the queued write at once (a round that waits for it, flush()).
  let release: (() => void) | undefined;

  /**
   * Writes a batch: its sessions to one slot of the clock, and each shard it touches, dated by the clock as read now
   * with the batch's sessions added (see clock.ts: no key is written by every commit).
   */
  async function write(taken: Batch, warn: Warn): Promise<void> {
    // The memory's pages and the table's keys are apart: written side by side, a waiting round waits for one trip.
    await Promise.all([taken.memory.length > 0 && memory.remember(taken.memory, warn), writeTable(taken, warn)]);
    if (taken.memory.length > 0) await warm();
  }

  /**
   * Brings the memory's index to the pages just written, as the next search would (which then reads none of it):
   * the first search after a commit took 0.69 ms where its three next took 0.41 (bench/TUNING.md). Only for a layer
   * whose searches read the memory; a failure is left to the next search, which reads again and warns.
   */
  async function warm(): Promise<void> {
    const { memoryWeight, setWeight, modelWeight } = options;
    if (memoryWeight === 0 && setWeight === 0 && modelWeight === 0) return;
    try {
      const index = await memory.index(() => {});
      index.warm(memoryWeight > 0 ? VOTE : undefined, setWeight > 0 ? SET_VOTE : undefined);
      // The model trains in slices after this write, not in it: only flush() waits for it (learner.ts).
      if (modelWeight > 0) index.kick();
    } catch {
      // The next search reads the index again, and warns.
    }
  }

  /** The table's part of a batch. */
  async function writeTable(taken: Batch, warn: Warn): Promise<void> {
    if (taken.shards.size === 0) return;
    const { sessions } = taken;
    const values = await Promise.all(clockNames.map((key) => shared.get(key, warn)));
    for (const [k, key] of clockNames.entries()) keep(key, values[k]);
    const u = clockOf(values) + sessions;
    const slot = clockSlotKey(scope, pickSlot());
    await Promise.all([
      sessions > 0 && shared.update(slot, addToSlot(sessions), warn).then((value) => keep(slot, value)),
      ...[...taken.shards].map(async ([i, terms]) => {
        const key = shardNames[i] as string;
        keep(key, await shared.update(key, (current) => addToShard(current, terms, u, options), warn));
      }),
    ]);
  }

  function enqueue(
    delta: CreditDelta | undefined,
    requests: readonly Remembered[],
    warn: Warn,
    now: boolean,
  ): Promise<void> {
    if (delta) addToBatch(batch, delta, options.halfLife);
    batch.memory.push(...requests);
    if (!queued) {
      // The write waits a moment for other sessions' credit, so one write carries many (and a shard is copied once).
      const gathered = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, GATHER_MS);
        release = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      queued = writing
        .then(() => gathered)
        .then(async () => {
          const taken = batch;
          batch = newBatch();
          settle(taken, options.halfLife);
          queued = undefined;
          release = undefined;
          try {
            await write(taken, warn);
          } catch (error) {
            warn(`learned credit was not written: ${error instanceof Error ? error.message : String(error)}`);
          }
        });
      writing = queued;
    }
    if (now) release?.();
    return queued;
  }

  return {
    enqueue,
    async flush() {
      release?.();
      await writing;
    },
    async drop() {
      batch = newBatch();
      release?.();
      await writing;
    },
  };
}
