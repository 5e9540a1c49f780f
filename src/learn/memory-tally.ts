// The memory's tally: the chosen voters' tools, each voted by its share of their similarity and by the most voted
// whole tool set holding it. Tools and sets are counted by their numbers in scratch arrays, zeroed after each tally.
import { grown } from './grown.ts';
import type { MemoryEntries } from './memory-entries.ts';

/** The tools voted for, by their numbers in the memory, and their votes (between 0 and 1): the first `count` of each. */
export interface Votes {
  readonly tools: number[];
  readonly votes: number[];
  count: number;
}

/** The voters of one vote: their entry ids and their similarities, the first `count` of each. */
export interface Voters {
  readonly ids: readonly number[];
  readonly sims: readonly number[];
  readonly count: number;
}

/** Creates the tally over a memory index's entries (with its own scratch arrays, kept between tallies). */
export function createTally(s: MemoryEntries): (voters: Voters, nearest: number, agree: number, half: number) => Votes {
  let toolSim = new Float64Array(0);
  let toolSet = new Float64Array(0);
  let toolN = new Int32Array(0);
  let setSim = new Float64Array(0);
  // The tools in the order the voters first named them: the order of the votes.
  const named: number[] = [];
  // Scratch for the result, valid until the next tally: a vote builds no map of names.
  const out: Votes = { tools: [], votes: [], count: 0 };
  // Each entry's tools, all entries' in one array (a tally reads a score of voters' lists, and one array is fewer
  // places to fetch than a list each), and each entry's tool set: laid out for the first `count` ids, in the entries'
  // numbering `numbering`. An id's tools and set never change until the entries are numbered anew (a compaction), so
  // a load lays out only the ids it added.
  const laid = {
    numbering: -1,
    count: 0,
    start: new Int32Array(1),
    tools: new Int32Array(0),
    setOf: new Int32Array(0),
  };

  /** Lays out the entries' tools by entry, up to the newest entry. */
  function layout(): typeof laid {
    const { used, setOf, entries, numbering } = s;
    if (laid.numbering !== numbering) Object.assign(laid, { numbering, count: 0 });
    const to = entries.length;
    if (laid.count === to) return laid;
    if (laid.start.length < to + 1) laid.start = grown(laid.start, (to + 1) * 2);
    if (laid.setOf.length < to) laid.setOf = grown(laid.setOf, to * 2);
    let end = laid.start[laid.count] as number;
    for (let id = laid.count; id < to; id++) {
      const tools = used[id] as number[];
      if (laid.tools.length < end + tools.length) laid.tools = grown(laid.tools, (end + tools.length) * 2);
      laid.tools.set(tools, end);
      end += tools.length;
      laid.start[id + 1] = end;
      laid.setOf[id] = setOf[id] as number;
    }
    laid.count = to;
    return laid;
  }

  /**
   * The voters' tools: each the mean of its share of the voters' similarity and the share of the most voted whole tool
   * set holding it (so that a set the neighbours agree on is placed together), times the nearest request's
   * similarity, times n / (n + half) for the n voters that used it, if at least `agree`.
   */
  return ({ ids, sims, count }, nearest, agree, half) => {
    const { start, tools, setOf } = layout();
    if (toolSim.length < s.toolNames.length) {
      const size = s.toolNames.length * 2;
      [toolSim, toolSet, toolN] = [new Float64Array(size), new Float64Array(size), new Int32Array(size)];
    }
    if (setSim.length < s.sets.size) setSim = new Float64Array(s.sets.size * 2);
    named.length = 0;
    let total = 0;
    for (let v = 0; v < count; v++) {
      const id = ids[v] as number;
      const sim = sims[v] as number;
      total += sim;
      const set = setOf[id] as number;
      setSim[set] = (setSim[set] as number) + sim;
      for (let i = start[id] as number; i < (start[id + 1] as number); i++) {
        const t = tools[i] as number;
        if (toolN[t] === 0) named.push(t);
        toolSim[t] = (toolSim[t] as number) + sim;
        toolN[t] = (toolN[t] as number) + 1;
      }
    }
    for (let v = 0; v < count; v++) {
      const id = ids[v] as number;
      const sim = setSim[setOf[id] as number] as number;
      for (let i = start[id] as number; i < (start[id + 1] as number); i++) {
        const t = tools[i] as number;
        if (sim > (toolSet[t] as number)) toolSet[t] = sim;
      }
    }
    out.count = 0;
    for (const t of named) {
      const n = toolN[t] as number;
      if (n >= agree) {
        out.tools[out.count] = t;
        out.votes[out.count++] =
          (((toolSim[t] as number) + (toolSet[t] as number)) / 2 / total) * nearest * (n / (n + half));
      }
      toolSim[t] = 0;
      toolSet[t] = 0;
      toolN[t] = 0;
    }
    for (let v = 0; v < count; v++) setSim[setOf[ids[v] as number] as number] = 0;
    return out;
  };
}
