// A search reordered by what the scope learned: the table's credit for the query's terms, the vote of the most
// similar past requests and that of the nearest tool sets, each at its weight, added per tool and applied to the
// keyword ranking's head.
import type { Catalogue } from '../core/catalogue.ts';
import { PARAMS } from '../search/build.ts';
import type { RankResult } from '../search/index.ts';
import { VOTE } from './memory.ts';
import type { ResolvedLearn } from './options.ts';
import type { QueryTerms } from './query-terms.ts';
import type { RequestMemory } from './requests.ts';
import { addLearnedScores, type LearnedValues, reorder } from './score.ts';
import { SET_VOTE } from './set-vote.ts';
import type { TableReader } from './table-reader.ts';

type Warn = (message: string) => void;

/** Ranks a search: the top `take`, and when `members` is given, every tool of the result set marked in it. */
export type BaseRank = (take: number, members?: Uint8Array) => RankResult | Promise<RankResult>;

/** A search of the catalogue's visible tools for `query`, its `base` ranking reordered by what was learned. */
export type LearnedRank = (
  catalogue: Catalogue,
  visible: (id: number) => boolean,
  query: string,
  take: number,
  base: BaseRank,
  warn: Warn,
) => Promise<RankResult>;

/**
 * Top keyword results reordered: the ranking's reranked head (below it the order is the first stage's alone). A
 * learned tool further down can still rise into the page.
 */
const HEAD = PARAMS.rerankTop;

/** Creates a learner's ranking over its table and its memory of past requests. */
export function createLearnedRank(
  options: ResolvedLearn,
  queries: QueryTerms,
  table: TableReader,
  requests: RequestMemory,
): LearnedRank {
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

  return async function rank(catalogue, visible, query, take, base, warn) {
    const { weight, memoryWeight, setWeight } = options;
    const hears = (memoryWeight > 0 || setWeight > 0) && options.memoryBytes > 0;
    if (weight === 0 && !hears) return base(take);
    const read = queries.of(query);
    // Most searches find every value they read in memory, and then wait for nothing.
    let learnedTable = weight > 0 ? table.heldFor(read) : undefined;
    let index = hears ? requests.held() : undefined;
    if ((weight > 0 && !learnedTable) || (hears && !index))
      [learnedTable, index] = await Promise.all([
        weight > 0 ? (learnedTable ?? table.learnedFor(read, warn)) : undefined,
        hears ? (index ?? requests.index(warn)) : undefined,
      ]);
    const learned = takeValues(catalogue.tools.length);
    try {
      // One learned value per tool: the table's credit and the votes of the similar requests and of the nearest tool sets,
      // each at its weight.
      const { value, ids } = learned;
      if (learnedTable) addLearnedScores(learnedTable, catalogue, read.terms, options, weight, learned);
      const addTo = (id: number, vote: number) => {
        const was = value[id] as number;
        if (was === 0) ids.push(id);
        value[id] = was + vote;
      };
      if (index && index.size > 0) {
        const { hashes: hashed } = read;
        if (memoryWeight > 0) {
          const { tools, votes, count } = index.vote(hashed, VOTE);
          // The memory's tools by number: its vote maps no name.
          const idOf = count > 0 ? index.idsIn(catalogue.byName) : undefined;
          for (let i = 0; i < count; i++) {
            const id = idOf?.[tools[i] as number] as number;
            if (id >= 0) addTo(id, memoryWeight * (votes[i] as number));
          }
        }
        // As loud as the sets' own record says whole sets recur for requests of the same kind.
        const { sets } = index;
        const loud = sets && setWeight > 0 ? setWeight * sets.reliability(SET_VOTE) ** SET_VOTE.calibrate : 0;
        if (sets && loud > 0) {
          const { ids: voted, votes } = sets.vote(hashed, SET_VOTE, catalogue.byName);
          for (let i = 0; i < voted.length; i++) addTo(voted[i] as number, loud * (votes[i] as number));
        }
      }
      const depth = Math.max(take, HEAD);
      // Below the head, a tool reaches the page only if its learned value makes up the rank it lacks. When one may,
      // the ranking marks its whole result set in the same pass: whether the keywords found such a tool at all
      // decides whether it joins the result set.
      const reach = 1 / take - 1 / (depth + 1);
      // Visibility is asked only of the tools that can change the ranking (a hidden tool never counts), and of the
      // others until one is visible.
      let seen = false;
      const joins: number[] = [];
      for (const id of ids) {
        if ((value[id] as number) >= reach) {
          if (!visible(id)) continue;
          seen = true;
          joins.push(id);
        } else if (!seen && visible(id)) seen = true;
      }
      if (!seen) return base(take);
      const members = joins.length > 0 ? new Uint8Array(catalogue.tools.length) : undefined;
      const ranked = await base(depth, members);
      // The keyword ranking marks members when it made the result set (a semantic one does not).
      const marked = members !== undefined && ranked.ids.length > 0 && members[ranked.ids[0] as number] === 1;
      return reorder(ranked, value, joins, take, depth, marked ? members : undefined);
    } finally {
      giveBack(learned);
    }
  };
}
