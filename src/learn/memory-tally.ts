// The memory's tally: the chosen voters' tools, each voted by its share of their similarity and by the most voted
// whole tool set holding it. Tools and sets are counted by their numbers in scratch arrays, zeroed after each tally.
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
  // As of one load: each entry's tools, all entries' in one array (a tally reads a score of voters' lists, and one
  // array is fewer places to fetch than a list each), and each entry's tool set.
  let laid = { at: -1, start: new Int32Array(1), tools: new Int32Array(0), setOf: new Int32Array(0) };

  /** Lays the entries' tools out by entry, once per load. */
  function layout(): typeof laid {
    if (laid.at === s.loads) return laid;
    const { used, entries } = s;
    const start = new Int32Array(entries.length + 1);
    for (let id = 0; id < entries.length; id++) start[id + 1] = (start[id] as number) + (used[id] as number[]).length;
    const tools = new Int32Array(start[entries.length] as number);
    for (let id = 0; id < entries.length; id++) tools.set(used[id] as number[], start[id]);
    laid = { at: s.loads, start, tools, setOf: Int32Array.from(s.setOf) };
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
