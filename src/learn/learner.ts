// The learner of one layer: reads each round's history for what it teaches, adds it to the scope's credits in
// the store's shared space, and reorders searches by them. Loaded only by layers with the `learn` option.

import type { Message } from '../base/types.ts';
import type { DiscoveredRecord } from '../core/discovered.ts';
import { guardShared } from '../core/shared-guard.ts';
import type { DiscoveredStore } from '../stores/store.ts';
import { clockKeys, clockOf } from './clock.ts';
import { createCreditWriter } from './credit-writer.ts';
import { creditedFor } from './credited.ts';
import { createLearnedRank, type LearnedRank } from './learned-rank.ts';
import { sessionHash } from './memory.ts';
import type { Remembered } from './memory-pages.ts';
import type { ResolvedLearn } from './options.ts';
import { createQueryTerms } from './query-terms.ts';
import { createRequestMemory } from './requests.ts';
import { scopedRecord, withScopedPart } from './scoped-record.ts';
import { sessionLearning } from './session.ts';
import { readUnits, sameUnits } from './signal.ts';
import { createSpaceCache } from './space-cache.ts';
import { fade, readShard, SHARDS, type Shard, shardKey } from './table.ts';
import { createTableReader } from './table-reader.ts';

type Warn = (message: string) => void;

/** One learned (tool, term) pair: the summed credit and the sessions that gave it, both faded to now. */
export interface LearnedCredit {
  readonly tool: string;
  readonly term: string;
  readonly credit: number;
  readonly sessions: number;
}

/** One round's learning: a change to fold into the session's record, then the credit it found to commit. */
export interface RoundLearning {
  apply(record: DiscoveredRecord | undefined): DiscoveredRecord | undefined;
  /** Queues the credit for the scope's next write and returns that write (undefined when there is nothing to write); `now` when the caller waits for it. */
  commit(warn: Warn, now: boolean): Promise<void> | undefined;
}

/** What the layer asks of its learner. */
export interface Learner {
  round(
    sessionId: string,
    messages: readonly Message[] | undefined,
    searchToolName: string,
    known: (name: string) => boolean,
  ): RoundLearning;
  /** A search's ranking reordered by what the scope learned. */
  readonly rank: LearnedRank;
  /** The scope's credits, faded to now, most credited first: for the host's eyes only. */
  inspect(warn: Warn): Promise<LearnedCredit[]>;
  /** Forgets a scope's credits (this layer's by default). */
  forget(scope?: string): Promise<void>;
  /** Forgets what this learner holds in memory (the layer's `clear()`, which also clears the store). */
  clearMemory(): void;
  /** Waits until every credit committed so far is written. */
  flush(): Promise<void>;
  /** Drops the credit not yet written and waits for the write under way (before the store is cleared). */
  drop(): Promise<void>;
}

const nothing: RoundLearning = { apply: (record) => record, commit: () => undefined };

/**
 * The queries tokenized by every learner of the process: a Worker builds a layer (and a learner) per request, and
 * each request read a long session's searches anew (a 200-round session's `prepare` spent about 0.3 ms tokenizing).
 * A query's terms depend on its text alone.
 */
const queryTerms = createQueryTerms();

/** Creates the learner of a layer over its store's shared space (memory when the store has none). */
export function createLearner(
  options: ResolvedLearn,
  store: DiscoveredStore,
  guard: { timeoutMs: number; retryMs: number },
): Learner {
  const shared = guardShared(store, guard);
  const { scope } = options;
  // One cache of the values read or written lately (the isolate's, for a store with a storage identity, apart per
  // half-life: see space-cache.ts) serves the table, the memory of past requests and the writes.
  const space = createSpaceCache(shared, options.halfLife);
  const terms = queryTerms;
  const table = createTableReader(scope, space);
  const requests = createRequestMemory(scope, options.memoryBytes, space, options.setWeight > 0);
  const writer = createCreditWriter(scope, options, space, table, requests);
  // The sessions this learner's storage credited lately (credited.ts), shared by the learners of a storage identity:
  // a Worker builds one per request, and each request's read a long session's whole history against its record again
  // (at 200 rounds, about 0.5 ms a round). Keyed by scope and by whether requests are made, the two options a
  // history's reading depends on.
  const credited = creditedFor(shared.identity);
  const prefix = `${scope}\u0000${options.memoryBytes === 0 ? 0 : 1}\u0000`;

  return {
    round(sessionId, messages, searchToolName, known) {
      const units = readUnits(messages, searchToolName, known);
      if (units.length === 0) return nothing;
      const key = prefix + sessionId;
      const before = credited.get(key);
      if (before && sameUnits(before.units, units)) return nothing;
      const session = options.memoryBytes === 0 ? undefined : sessionHash(sessionId);
      let delta: ReturnType<typeof sessionLearning>['delta'];
      let requests: Remembered[] = [];
      let made = before?.made;
      return {
        apply(record) {
          // The scope's part of the record: a session gives to each scope apart (scoped-record.ts).
          const part = scopedRecord(record, scope);
          if (part === 'full') return record;
          const change = sessionLearning(part, units, terms, session, before?.made);
          delta = change.delta;
          requests = change.requests;
          made = change.made;
          return change.record === part ? record : withScopedPart(record, scope, change.record);
        },
        commit(warn, now) {
          credited.remember(key, { units, made: made ?? new Map() });
          if (!delta && requests.length === 0) return undefined;
          const found = delta;
          const asked = requests;
          delta = undefined;
          requests = [];
          return writer.enqueue(found, asked, warn, now);
        },
      };
    },

    rank: createLearnedRank(options, terms, table, requests),

    async inspect(warn) {
      await writer.flush();
      const [clockValues, ...shards] = await Promise.all([
        Promise.all(table.clockNames.map((key) => space.read(key, warn))),
        ...Array.from({ length: SHARDS }, async (_, i) =>
          readShard(await space.read(table.shardNames[i] as string, warn)),
        ),
      ]);
      const u = clockOf(clockValues as unknown[]);
      const out: LearnedCredit[] = [];
      for (const shard of shards as Shard[]) {
        for (const [term, [, , postings]] of Object.entries(shard.x)) {
          for (const [tool, c, m, at] of postings) {
            const left = fade(u, at, options.halfLife);
            out.push({ tool, term, credit: c * left, sessions: m * left });
          }
        }
      }
      return out.sort((a, b) => b.credit - a.credit || (a.tool + a.term < b.tool + b.term ? -1 : 1));
    },

    async forget(which = scope) {
      if (which === scope) await writer.drop();
      // The scope's values, which other layers of the storage may hold too (the space's cache is the isolate's).
      space.clear(which);
      await Promise.all([
        ...clockKeys(which).map((key) => shared.delete(key)),
        ...Array.from({ length: SHARDS }, (_, i) => shared.delete(shardKey(which, i))),
        requests.forget(which),
      ]);
      // Dropped again: another layer may have read the values being deleted meanwhile.
      space.clear(which);
      if (which === scope) requests.clear();
    },

    clearMemory() {
      requests.clear(true);
      space.clear();
      credited.clear();
      shared.clearMemory();
    },

    async flush() {
      await writer.flush();
      // And the model of the memory this layer searches, if it is due to train (a layer that only reads a store
      // trains it in the background from its first search on).
      if (options.modelWeight > 0) await requests.held()?.train();
    },
    drop: writer.drop,
  };
}
