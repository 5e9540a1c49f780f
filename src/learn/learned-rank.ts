// A search reordered by what the scope learned: the table's credit for the query's terms, the vote of the most
// similar past requests and that of the nearest tool sets, each at its weight, added per tool and applied to the
// keyword ranking's head.
import type { Catalogue } from '../core/catalogue.ts';
import { PARAMS } from '../search/build.ts';
import type { RankResult } from '../search/index.ts';
import { type MemoryIndex, VOTE } from './memory.ts';
import { MODEL_VOTE } from './memory-model.ts';
import type { ResolvedLearn } from './options.ts';
import type { Query, QueryTerms } from './query-terms.ts';
import type { RequestMemory } from './requests.ts';
import { addLearnedScores, type Learned, type LearnedValues, reorder } from './score.ts';
import { SET_VOTE } from './set-vote.ts';
import type { TableReader } from './table-reader.ts';

type Warn = (message: string) => void;

/** Ranks a search: the top `take`, and when `members` is given, every tool of the result set marked in it. */
export type BaseRank = (take: number, members?: Uint8Array) => RankResult | Promise<RankResult>;

/**
 * A search of the catalogue's visible tools for `query`, its `base` ranking reordered by what was learned. A promise
 * only when it waited on a read or on the base ranking: most searches find every value in memory, and an await
 * would cost them turns of the microtask queue. `members`, when given, is the caller's zeroed array of a byte per
 * tool for the ranking to mark its result set in (the caller reads it after, and zeroes it for its next use).
 */
export type LearnedRank = (
  catalogue: Catalogue,
  visible: (id: number) => boolean,
  query: string,
  take: number,
  base: BaseRank,
  warn: Warn,
  members?: Uint8Array,
) => RankResult | Promise<RankResult>;

/**
 * Top keyword results reordered: the ranking's reranked head (below it the order is the first stage's alone). A
 * learned tool further down can still rise into the page.
 */
const HEAD = PARAMS.rerankTop;

/** What a search learned, read: the table's entries for its terms and the memory's index (each when heard). */
interface Heard {
  readonly table: Learned | undefined;
  readonly index: MemoryIndex | undefined;
}

/** Adds `vote` to tool `id`'s learned value, listing the tool when it had none. */
function addTo(into: LearnedValues, id: number, vote: number): void {
  const { value } = into;
  const was = value[id] as number;
  if (was === 0) into.ids[into.count++] = id;
  value[id] = was + vote;
}

/**
 * A ranking `depth` deep as the same ranking `take` deep gives it: its first `take` ids, and their scores and held
 * counts (a ranking orders its head the same whatever the page).
 */
function topOf(ranked: RankResult, take: number): RankResult {
  if (ranked.ids.length <= take) return ranked;
  const { scores, held } = ranked;
  return {
    ...ranked,
    ids: ranked.ids.slice(0, take),
    ...(scores && { scores: scores.slice(0, take) }),
    ...(held && { held: held.slice(0, take) }),
  };
}

/** Creates a learner's ranking over its table and its memory of past requests. */
export function createLearnedRank(
  options: ResolvedLearn,
  queries: QueryTerms,
  table: TableReader,
  requests: RequestMemory,
): LearnedRank {
  // Scratch learned values by tool id, zeroed after each search: a search takes its own, so searches in flight at
  // once never share one, and a typed array adds up hundreds of postings without hashing. Its list of ids is kept
  // too: it grows to a few hundred each search.
  const pool: LearnedValues[] = [];
  const takeValues = (tools: number): LearnedValues => {
    const kept = pool.pop();
    return kept?.value.length === tools ? kept : { value: new Float64Array(tools), ids: [], count: 0 };
  };
  const giveBack = (learned: LearnedValues) => {
    const { value, ids, count } = learned;
    for (let i = 0; i < count; i++) value[ids[i] as number] = 0;
    learned.count = 0;
    if (pool.length < 4) pool.push(learned);
  };

  /** Every tool's learned value: the table's credit and the votes of the similar requests and of the nearest sets. */
  function learnedValues(catalogue: Catalogue, read: Query, heard: Heard, into: LearnedValues): void {
    const { weight, memoryWeight, setWeight, modelWeight } = options;
    if (heard.table) addLearnedScores(heard.table, weight, into);
    const { index } = heard;
    if (!index || index.size === 0) return;
    const hashes = read.memoryHashes;
    // The model first decides whether it speaks at all: as loud as its record on requests it was never trained on
    // (it trains in the background), and only where the memory holds requests near this one, as the memory's vote
    // itself (a request unlike any remembered gets a confident guess from a softmax, and the keywords know better).
    const { model } = index;
    if (modelWeight > 0) index.kick();
    const said = modelWeight > 0 ? modelWeight * model.reliability() ** MODEL_VOTE.calibrate : 0;
    const speaks = said >= MODEL_VOTE.least;
    let near = false;
    if (memoryWeight > 0 || speaks) {
      const { tools, votes, count } = index.vote(hashes, VOTE);
      near = count > 0;
      // The memory's tools by number: its vote maps no name.
      const idOf = count > 0 && memoryWeight > 0 ? index.idsIn(catalogue.byName) : undefined;
      for (let i = 0; idOf && i < count; i++) {
        const id = idOf[tools[i] as number] as number;
        if (id >= 0) addTo(into, id, memoryWeight * (votes[i] as number));
      }
    }
    // As loud as the sets' own record says whole sets recur for requests of the same kind.
    const { sets } = index;
    const loud = sets && setWeight > 0 ? setWeight * sets.reliability(SET_VOTE) ** SET_VOTE.calibrate : 0;
    if (sets && loud > 0) {
      const { ids: voted, votes } = sets.vote(hashes, SET_VOTE, catalogue.byName);
      for (let i = 0; i < voted.length; i++) addTo(into, voted[i] as number, loud * (votes[i] as number));
    }
    if (speaks && near) {
      const { ids: voted, votes } = model.vote(hashes, MODEL_VOTE.top, catalogue.tools.length, catalogue.byName);
      for (let i = 0; i < voted.length; i++) addTo(into, voted[i] as number, said * (votes[i] as number));
    }
  }

  /** The search ranked with what it heard: synchronous unless the base ranking is not. */
  function rankHeard(
    catalogue: Catalogue,
    visible: (id: number) => boolean,
    read: Query,
    take: number,
    base: BaseRank,
    heard: Heard,
    given: Uint8Array | undefined,
  ): RankResult | Promise<RankResult> {
    const depth = Math.max(take, HEAD);
    // The keyword ranking first, then the learned values: ranked the other way, the learned parts' reads pushed the
    // keyword stage's lookups out of the cache, and a search cost about 5 us more (learn-ab, 2026-12-07). So the
    // ranking cannot know yet whether a learned tool will need its result set: it marks it every time, in the array
    // the caller lends (the layer's, which `related` reads too), or in one of its own.
    const members = given ?? new Uint8Array(catalogue.tools.length);
    const ranked = base(depth, members);
    const learned = takeValues(catalogue.tools.length);
    let waits = false;
    try {
      learnedValues(catalogue, read, heard, learned);
      const { value, ids, count } = learned;
      // Below the head, a tool reaches the page only if its learned value makes up the rank it lacks: such a tool
      // joins, if visible, and the result set when the keywords did not find it.
      const reach = 1 / take - 1 / (depth + 1);
      // Visibility is asked only of the tools that can change the ranking (a hidden tool never counts), and of the
      // others until one is visible.
      let seen = false;
      const joins: number[] = [];
      for (let i = 0; i < count; i++) {
        const id = ids[i] as number;
        if ((value[id] as number) >= reach) {
          if (!visible(id)) continue;
          seen = true;
          joins.push(id);
        } else if (!seen && visible(id)) seen = true;
      }
      const reordered = (result: RankResult) => {
        if (!seen) return topOf(result, take);
        // The keyword ranking marks members when it made the result set (a semantic one does not).
        const marked = result.ids.length > 0 && members[result.ids[0] as number] === 1;
        return reorder(result, value, joins, take, depth, marked ? members : undefined);
      };
      if (!(ranked instanceof Promise)) return reordered(ranked);
      // Read after the wait: the values are given back once reordered, not before.
      waits = true;
      return ranked.then(reordered).finally(() => giveBack(learned));
    } finally {
      if (!waits) giveBack(learned);
    }
  }

  return function rank(catalogue, visible, query, take, base, warn, members) {
    const { weight, memoryWeight, setWeight, modelWeight } = options;
    const hears = (memoryWeight > 0 || setWeight > 0 || modelWeight > 0) && options.memoryBytes > 0;
    if (weight === 0 && !hears) return base(take);
    const read = queries.of(query);
    // Most searches find every value they read in memory, and then wait for nothing.
    const held = {
      table: weight > 0 ? table.heldFor(read, catalogue, options.halfLife) : undefined,
      index: hears ? requests.held() : undefined,
    };
    if ((weight === 0 || held.table) && (!hears || held.index))
      return rankHeard(catalogue, visible, read, take, base, held, members);
    return Promise.all([
      weight > 0 ? (held.table ?? table.learnedFor(read, catalogue, options.halfLife, warn)) : undefined,
      hears ? (held.index ?? requests.index(warn)) : undefined,
    ]).then(([learnedTable, index]) =>
      rankHeard(catalogue, visible, read, take, base, { table: learnedTable, index }, members),
    );
  };
}
