// The learner of one layer: reads each round's history for what it teaches, adds it to the scope's credits in
// the store's shared space, and reorders searches by them. Loaded only by layers with the `learn` option.

import type { Message } from '../base/types.ts';
import type { Catalogue } from '../core/catalogue.ts';
import type { DiscoveredRecord } from '../core/discovered.ts';
import { guardShared } from '../core/shared-guard.ts';
import { PARAMS } from '../search/build.ts';
import type { RankResult } from '../search/index.ts';
import { queryTerms } from '../search/rank.ts';
import type { DiscoveredStore } from '../stores/store.ts';
import { addToSlot, clockKeys, clockOf, clockSlotKey, pickSlot } from './clock.ts';
import { sessionHash, termHash, VOTE } from './memory.ts';
import type { Remembered } from './memory-pages.ts';
import type { ResolvedLearn } from './options.ts';
import { createRequestMemory } from './requests.ts';
import { addLearnedScores, type Learned, type LearnedValues, reorder } from './score.ts';
import { desiredCredit, memoryDelta, sessionDelta } from './session.ts';
import { readUnits } from './signal.ts';
import {
  addToBatch,
  addToShard,
  type Batch,
  fade,
  newBatch,
  readHead,
  readShard,
  SHARDS,
  type Shard,
  settle,
  shardKey,
  shardOf,
  type TermEntry,
} from './table.ts';

type Warn = (message: string) => void;

/** One learned (tool, term) pair: the summed credit and the sessions that gave it, both faded to now. */
export interface LearnedCredit {
  readonly tool: string;
  readonly term: string;
  readonly credit: number;
  readonly sessions: number;
}

/** Ranks a search: the top `take`, and when `members` is given, every tool of the result set marked in it. */
export type BaseRank = (take: number, members?: Uint8Array) => RankResult | Promise<RankResult>;

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
  rank(
    catalogue: Catalogue,
    visible: (id: number) => boolean,
    query: string,
    take: number,
    base: BaseRank,
    warn: Warn,
  ): Promise<RankResult>;
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

/**
 * Top keyword results reordered: the ranking's reranked head (below it the order is the first stage's alone). A
 * learned tool further down can still rise into the page.
 */
const HEAD = PARAMS.rerankTop;
/** How long a head or shard read from the store is used before it is read again. */
const REFRESH_MS = 5000;
/** How long a queued write waits for more sessions' credit, unless a round or flush() waits for it. */
const GATHER_MS = 200;
/** Sessions whose last history this learner remembers having credited. */
const SESSIONS_KEPT = 1000;
/** Queries kept tokenized: every round re-sends the history's searches. */
const QUERIES_KEPT = 2000;

const nothing: RoundLearning = { apply: (record) => record, commit: () => undefined };

/** A map that forgets its oldest entry past `max`. */
function rememberRecent<V>(map: Map<string, V>, key: string, value: V, max: number): V {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(key, value);
  return value;
}

/** Creates the learner of a layer over its store's shared space (memory when the store has none). */
export function createLearner(
  options: ResolvedLearn,
  store: DiscoveredStore,
  guard: { timeoutMs: number; retryMs: number },
): Learner {
  const shared = guardShared(store, guard);
  const { scope } = options;
  // Values read or written lately, by key (the head and the shards): a search within REFRESH_MS reads none again.
  const cache = new Map<string, { value: unknown; at: number }>();
  // What each session's history taught when last read: a round that re-sends it has nothing new to compute.
  const credited = new Map<string, string>();
  const tokenized = new Map<string, readonly string[]>();
  const termsOf = (query: string) =>
    tokenized.get(query) ?? rememberRecent(tokenized, query, queryTerms(query), QUERIES_KEPT);
  // Each tokenized query's terms hashed, as the memory keeps them and as the table picks their shards.
  const hashed = new WeakMap<readonly string[], readonly number[]>();
  const hashesOf = (terms: readonly string[]): readonly number[] => {
    let hashes = hashed.get(terms);
    if (!hashes) {
      hashes = terms.map(termHash);
      hashed.set(terms, hashes);
    }
    return hashes;
  };

  const clockNames = clockKeys(scope);
  const shardNames = Array.from({ length: SHARDS }, (_, i) => shardKey(scope, i));
  const keep = (key: string, value: unknown) => cache.set(key, { value, at: Date.now() });
  /** A value read or written within REFRESH_MS, boxed (a missing key is undefined inside). */
  const fresh = (key: string, now = Date.now()): { value: unknown } | undefined => {
    const hit = cache.get(key);
    return hit && now - hit.at < REFRESH_MS ? hit : undefined;
  };
  async function read(key: string, warn: Warn): Promise<unknown> {
    const hit = fresh(key);
    if (hit) return hit.value;
    const value = await shared.get(key, warn);
    keep(key, value);
    return value;
  }

  /** What learnedFor gives, when every value it needs was read lately (a search then waits for nothing); else undefined. */
  function heldFor(terms: readonly string[]): Learned | undefined {
    const now = Date.now();
    let u = 0;
    for (const key of clockNames) {
      const hit = fresh(key, now);
      if (!hit) return undefined;
      u += readHead(hit.value).u;
    }
    const hashes = hashesOf(terms);
    const entries = new Map<string, TermEntry>();
    for (const [k, term] of terms.entries()) {
      const hit = fresh(shardNames[(hashes[k] as number) % SHARDS] as string, now);
      if (!hit) return undefined;
      const { x } = readShard(hit.value);
      if (Object.hasOwn(x, term)) entries.set(term, x[term] as TermEntry);
    }
    return { u, entry: (term) => entries.get(term) };
  }

  /** The scope's clock and the entries of `terms`, from their shards (read in parallel when not in memory). */
  async function learnedFor(terms: Iterable<string>, warn: Warn): Promise<Learned> {
    const shardOfTerm = new Map<string, number>();
    for (const term of terms) shardOfTerm.set(term, shardOf(term));
    const byIndex = new Map<number, Shard>();
    const held = clockNames.map((key) => fresh(key));
    let clockValues = held.every((hit) => hit !== undefined) ? held.map((hit) => hit.value) : undefined;
    const missing: number[] = [];
    for (const i of new Set(shardOfTerm.values())) {
      const value = fresh(shardNames[i] as string);
      if (value === undefined) missing.push(i);
      else byIndex.set(i, readShard(value.value));
    }
    // Most searches find what they need in memory; the others read the missing values in parallel.
    if (clockValues === undefined || missing.length > 0) {
      const [read0, ...read1] = await Promise.all([
        Promise.all(clockNames.map((key) => read(key, warn))),
        ...missing.map((i) => read(shardNames[i] as string, warn)),
      ]);
      clockValues = read0;
      for (const [k, i] of missing.entries()) byIndex.set(i, readShard(read1[k]));
    }
    const entries = new Map<string, TermEntry>();
    for (const [term, i] of shardOfTerm) {
      const x = (byIndex.get(i) as Shard).x;
      if (Object.hasOwn(x, term)) entries.set(term, x[term] as TermEntry);
    }
    return { u: clockOf(clockValues), entry: (term) => entries.get(term) };
  }

  // Scratch arrays of learned values by tool id, zeroed after each search: a search takes its own, so searches in
  // flight at once never share one, and a typed array adds up hundreds of postings without hashing.
  const pool: Float64Array[] = [];
  const takeValues = (tools: number): LearnedValues => {
    const value = pool.pop();
    return { value: value?.length === tools ? value : new Float64Array(tools), ids: [] };
  };
  const giveBack = ({ value, ids }: LearnedValues) => {
    for (const id of ids) value[id] = 0;
    if (pool.length < 4) pool.push(value);
  };

  // Credit committed and not yet written, merged across sessions, and the write under way: a round only queues
  // its credit, and one write per shard carries every session's that came in meanwhile.
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
    await Promise.all([taken.memory.length > 0 && requests.remember(taken.memory, warn), writeTable(taken, warn)]);
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

  // The memory of past requests, over the same shared space and cache as the table.
  const requests = createRequestMemory(scope, options.memoryBytes, { shared, read, keep, fresh });

  /** Queues a delta; the returned promise settles once it is written (never rejects: failures are warned). */
  function enqueue(
    delta: Parameters<typeof addToBatch>[1] | undefined,
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
    round(sessionId, messages, searchToolName, known) {
      const units = readUnits(messages, searchToolName, known);
      if (units.length === 0) return nothing;
      const signature = units.map((unit) => `${unit.query}\u0000${unit.tools.join('\u0001')}`).join('\u0002');
      if (credited.get(sessionId) === signature) return nothing;
      const desired = desiredCredit(units, termsOf);
      let delta: ReturnType<typeof sessionDelta>['delta'];
      let requests: Remembered[] = [];
      return {
        apply(record) {
          const change = sessionDelta(record, desired);
          delta = change.delta;
          if (options.memoryBytes === 0) return change.record;
          const remembered = memoryDelta(change.record, units, sessionHash(sessionId), termsOf);
          requests = remembered.requests;
          return remembered.record;
        },
        commit(warn, now) {
          rememberRecent(credited, sessionId, signature, SESSIONS_KEPT);
          if (!delta && requests.length === 0) return undefined;
          const found = delta;
          const asked = requests;
          delta = undefined;
          requests = [];
          return enqueue(found, asked, warn, now);
        },
      };
    },

    async rank(catalogue, visible, query, take, base, warn) {
      const { weight, memoryWeight } = options;
      const hears = memoryWeight > 0 && options.memoryBytes > 0;
      if (weight === 0 && !hears) return base(take);
      const terms = termsOf(query);
      // Most searches find every value they read in memory, and then wait for nothing.
      let table = weight > 0 ? heldFor(terms) : undefined;
      let index = hears ? requests.held() : undefined;
      if ((weight > 0 && !table) || (hears && !index))
        [table, index] = await Promise.all([
          weight > 0 ? (table ?? learnedFor(terms, warn)) : undefined,
          hears ? (index ?? requests.index(warn)) : undefined,
        ]);
      const learned = takeValues(catalogue.tools.length);
      try {
        // One learned value per tool: the table's credit and the similar requests' vote, each at its weight.
        const { value, ids } = learned;
        if (table) addLearnedScores(table, catalogue, terms, options, weight, learned);
        if (index && index.size > 0) {
          for (const [name, vote] of index.vote(hashesOf(terms), VOTE)) {
            const id = catalogue.byName.get(name);
            if (id === undefined) continue;
            const was = value[id] as number;
            if (was === 0) ids.push(id);
            value[id] = was + memoryWeight * vote;
          }
        }
        // Visibility is asked only of the tools that can change the ranking: a hidden tool never counts.
        if (!ids.some(visible)) return base(take);
        const depth = Math.max(take, HEAD);
        // Below the head, a tool reaches the page only if its learned value makes up the rank it lacks. When one may,
        // the ranking marks its whole result set in the same pass: whether the keywords found such a tool at all
        // decides whether it joins the result set.
        const reach = 1 / take - 1 / (depth + 1);
        const joins = ids.filter((id) => (value[id] as number) >= reach && visible(id));
        const members = joins.length > 0 ? new Uint8Array(catalogue.tools.length) : undefined;
        const ranked = await base(depth, members);
        // The keyword ranking marks members when it made the result set (a semantic one does not).
        const marked = members !== undefined && ranked.ids.length > 0 && members[ranked.ids[0] as number] === 1;
        return reorder(ranked, value, joins, take, depth, marked ? members : undefined);
      } finally {
        giveBack(learned);
      }
    },

    async inspect(warn) {
      release?.();
      await writing;
      const [clockValues, ...shards] = await Promise.all([
        Promise.all(clockNames.map((key) => read(key, warn))),
        ...Array.from({ length: SHARDS }, async (_, i) => readShard(await read(shardNames[i] as string, warn))),
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
      if (which === scope) {
        batch = newBatch();
        release?.();
        await writing;
        cache.clear();
      }
      await Promise.all([
        ...clockKeys(which).map((key) => shared.delete(key)),
        ...Array.from({ length: SHARDS }, (_, i) => shared.delete(shardKey(which, i))),
        requests.forget(which),
      ]);
      if (which === scope) requests.clear();
    },

    clearMemory() {
      requests.clear();
      cache.clear();
      credited.clear();
      shared.clearMemory();
    },

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
