// The learner of one layer: reads each round's history for what it teaches, adds it to the scope's credits in
// the store's shared space, and reorders searches by them. Loaded only by layers with the `learn` option.
import type { Catalogue } from '../core/catalogue.ts';
import type { DiscoveredRecord } from '../core/discovered.ts';
import type { LearnedCredit } from '../core/layer.ts';
import { guardShared } from '../core/shared-guard.ts';
import type { DiscoveredStore } from '../core/store-guard.ts';
import type { Message } from '../core/types.ts';
import type { RankResult } from '../search/index.ts';
import { queryTerms } from '../search/rank.ts';
import type { ResolvedLearn } from './options.ts';
import { learnedScores, reorder } from './score.ts';
import { desiredCredit, sessionDelta } from './session.ts';
import { readUnits } from './signal.ts';
import { addDelta, type CreditDelta, type CreditTable, fade, readTable } from './table.ts';

type Warn = (message: string) => void;

/** Ranks a search: the top `take`, and when `members` is given, every tool of the result set marked in it. */
export type BaseRank = (take: number, members?: Uint8Array) => RankResult | Promise<RankResult>;

/** One round's learning: a change to fold into the session's record, then the credit it found to commit. */
export interface RoundLearning {
  apply(record: DiscoveredRecord | undefined): DiscoveredRecord | undefined;
  commit(warn: Warn): Promise<void>;
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
}

/** Top keyword results reordered: a learned tool further down can still rise into the page. */
const HEAD = 50;
/** How long a table read from the store is used before it is read again. */
const REFRESH_MS = 5000;

const keyOf = (scope: string) => `learn:${scope}`;
/** Sessions whose last history this learner remembers having credited. */
const SESSIONS_KEPT = 1000;
/** Queries kept tokenized: every round re-sends the history's searches. */
const QUERIES_KEPT = 2000;

const nothing: RoundLearning = { apply: (record) => record, commit: async () => {} };

/** A map that forgets its oldest entry past `max`. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): V {
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
  const key = keyOf(options.scope);
  let cached: { table: CreditTable; at: number } | undefined;
  // What each session's history taught when last read: a round that re-sends it has nothing new to compute.
  const credited = new Map<string, string>();
  const tokenized = new Map<string, readonly string[]>();
  const termsOf = (query: string) =>
    tokenized.get(query) ?? remember(tokenized, query, queryTerms(query), QUERIES_KEPT);

  async function table(warn: Warn): Promise<CreditTable> {
    if (cached && Date.now() - cached.at < REFRESH_MS) return cached.table;
    const value = readTable(await shared.get(key, warn));
    cached = { table: value, at: Date.now() };
    return value;
  }

  return {
    round(sessionId, messages, searchToolName, known) {
      const units = readUnits(messages, searchToolName, known);
      if (units.length === 0) return nothing;
      const signature = units.map((unit) => `${unit.query}\u0000${unit.tools.join('\u0001')}`).join('\u0002');
      if (credited.get(sessionId) === signature) return nothing;
      const desired = desiredCredit(units, termsOf);
      let delta: CreditDelta | undefined;
      return {
        apply(record) {
          const change = sessionDelta(record, desired);
          delta = change.delta;
          return change.record;
        },
        async commit(warn) {
          remember(credited, sessionId, signature, SESSIONS_KEPT);
          if (!delta) return;
          const found = delta;
          delta = undefined;
          const value = await shared.update(key, (current) => addDelta(current, found, options), warn);
          cached = { table: readTable(value), at: Date.now() };
        },
      };
    },

    async rank(catalogue, visible, query, take, base, warn) {
      const scores = learnedScores(await table(warn), catalogue, visible, termsOf(query), options);
      if (scores.size === 0 || options.weight === 0) return base(take);
      const depth = Math.max(take, HEAD);
      let ranked = await base(depth);
      // Below the head, a tool reaches the page only if its learned score makes up the rank it lacks.
      const reach = 1 / take - 1 / (depth + 1);
      const head = new Set(ranked.ids);
      for (const [id, score] of scores) if (!head.has(id) && options.weight * score < reach) scores.delete(id);
      const beyond = ranked.ids.length === depth && [...scores.keys()].some((id) => !head.has(id));
      if (!beyond) return reorder(ranked, scores, options.weight, take, depth, undefined);
      // A learned tool below the head: whether the keywords found it at all decides whether it joins the result set.
      const members = new Uint8Array(catalogue.tools.length);
      ranked = await base(depth, members);
      return reorder(ranked, scores, options.weight, take, depth, members.includes(1) ? members : undefined);
    },

    async inspect(warn) {
      const current = await table(warn);
      const out: LearnedCredit[] = [];
      for (const [tool, entries] of Object.entries(current.t)) {
        for (const [term, [c, m, at]] of Object.entries(entries)) {
          const left = fade(current.u, at, options.halfLife);
          out.push({ tool, term, credit: c * left, sessions: m * left });
        }
      }
      return out.sort((a, b) => b.credit - a.credit || (a.tool + a.term < b.tool + b.term ? -1 : 1));
    },

    async forget(scope = options.scope) {
      if (scope === options.scope) cached = undefined;
      await shared.delete(keyOf(scope));
    },

    clearMemory() {
      cached = undefined;
      shared.clearMemory();
    },
  };
}
