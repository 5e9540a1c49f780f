// The memory's vote: a new search finds the most similar remembered requests (BM25 over their hashed terms, as the
// ranker scores tools) and lets them vote for their tools and for the whole sets they used together, but only when they
// are similar enough to agree on something, and only as loudly as the memory's own record says it is right.
import { keepFirst } from './first-few.ts';
import { changedEnough, type Entry, keyOf, type MemoryEntries } from './memory-entries.ts';
import type { Remembered } from './memory-pages.ts';
import { createSimilar, type Similar } from './memory-similar.ts';
import { createTally, type Votes } from './memory-tally.ts';

export type { Votes } from './memory-tally.ts';

/** How the memory's vote is formed and gated. */
export interface VoteSettings {
  /** Most similar requests that vote. */
  readonly neighbours: number;
  /** Least similarity of the nearest request (its BM25 score over the query's own, at most 1) for the memory to speak at all. */
  readonly gate: number;
  /** Fewest distinct sessions among the voters that must have used a tool for it to get a vote. */
  readonly agree: number;
  /** Sessions agreeing on a tool at which its vote counts half: the vote grows as more of them agree. */
  readonly half: number;
  /** The power of the memory's reliability (how often it names what remembered requests used) its votes are scaled by. */
  readonly calibrate: number;
}

/** Remembered requests the memory votes on, each by the other sessions, to learn how reliable its vote is. */
const SAMPLES = 64;
/**
 * Candidates kept in order by one pass: a vote reads about as many as it has neighbours, a few sessions more (a
 * further pass reads on where sessions repeat).
 */
const PICKS = 24;

/** A request's place in the calibration sample: a mix of its key, so the sample is spread over sessions. */
export const sampleRank = (entry: Remembered): number => Math.imul(keyOf(entry) ^ 0x5bd1e995, 0x27d4eb2d) >>> 0;

/** An entry of the calibration sample, with what orders it. */
type Sampled = { entry: Entry; rank: number; key: number };
const bySample = (a: Sampled, b: Sampled): number => a.rank - b.rank || a.key - b.key;

/** The SAMPLES entries with tools first by sampleRank (ties: the smaller key, then the lower id), in that order. */
function calibrationSample(entries: readonly (Entry | undefined)[]): Sampled[] {
  const best: Sampled[] = [];
  for (const entry of entries)
    if (entry && entry.tools.length > 0)
      keepFirst(best, { entry, rank: sampleRank(entry), key: keyOf(entry) }, SAMPLES, bySample);
  return best;
}

/** Creates the vote over a memory index's entries (with its own scratch arrays, kept between votes). */
export function createVote(s: MemoryEntries): {
  vote: (terms: readonly number[], settings: VoteSettings) => Votes;
  warm: (settings: VoteSettings) => void;
} {
  // Scratch kept between votes: a vote hashes nothing and allocates little.
  const similar = createSimilar(s);
  const best = new Int32Array(PICKS);
  const voters = { ids: [] as number[], sims: [] as number[], count: 0 };
  const sessionOf: number[] = [];
  const tally = createTally(s);
  const none: Votes = { tools: [], votes: [], count: 0 };

  /** Whether candidate a is more similar than b (< 0), ties broken by the smaller key: a total order. */
  const better = ({ found, sims }: Similar, a: number, b: number): number =>
    (sims[b] as number) - (sims[a] as number) ||
    (s.keys[found[a] as number] as number) - (s.keys[found[b] as number] as number);

  /** The best PICKS candidates ranked after candidate `after` (-1: all), in order, in one pass (into `best`); how many. */
  function pick(near: Similar, after: number): number {
    // Locals, not properties: the loop reads them a few hundred times.
    const { count, found, sims } = near;
    const { keys } = s;
    // The candidates ranked up to `after` were picked by an earlier pass (between equals in `better`, the earlier
    // candidate ranks first, as each pass keeps them).
    const ceiling = after < 0 ? Number.POSITIVE_INFINITY : (sims[after] as number);
    let picked = 0;
    // The least similarity picked, once PICKS are: most candidates are below it, and that alone settles them.
    let floor = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < count; k++) {
      const sim = sims[k] as number;
      if (sim > ceiling || (sim === ceiling && (better(near, k, after) || k - after) <= 0)) continue;
      if (picked === PICKS && (sim < floor || better(near, k, best[PICKS - 1] as number) >= 0)) continue;
      let i = picked < PICKS ? picked++ : PICKS - 1;
      // Past every picked candidate that is less similar, or as similar with a larger key (as `better` orders them):
      // keys read only for a tie, as each is a miss in an array by entry id.
      for (; i > 0; i--) {
        const b = best[i - 1] as number;
        const bSim = sims[b] as number;
        if (
          bSim > sim ||
          (bSim === sim && (keys[found[b] as number] as number) <= (keys[found[k] as number] as number))
        )
          break;
        best[i] = b;
      }
      best[i] = k;
      if (picked === PICKS) floor = sims[best[PICKS - 1] as number] as number;
    }
    return picked;
  }

  /** Takes candidate k as a voter if its session has none yet; whether to read on. */
  function offer({ found, sims }: Similar, k: number, neighbours: number): boolean {
    const sim = sims[k] as number;
    if (sim < 0) return false;
    const id = found[k] as number;
    const session = s.sessions[id] as number;
    const n = voters.count;
    for (let v = 0; v < n; v++) if (sessionOf[v] === session) return n !== neighbours;
    sessionOf[n] = session;
    voters.ids[n] = id;
    voters.sims[n] = sim;
    voters.count = n + 1;
    return n + 1 !== neighbours;
  }

  /**
   * Each session votes once, with its most similar request, the most similar first: the best PICKS in one pass, the
   * next PICKS in another only if the vote reads on (a few sessions may each hold many similar requests).
   */
  function chooseVoters(near: Similar, neighbours: number): void {
    voters.count = 0;
    for (let after = -1; ; after = best[PICKS - 1] as number) {
      const picked = pick(near, after);
      for (let i = 0; i < picked; i++) if (!offer(near, best[i] as number, neighbours)) return;
      if (picked < PICKS) return;
    }
  }

  function voteOf(terms: readonly number[], settings: VoteSettings, skip?: number): Votes {
    const near = similar(terms, skip);
    if (near.count === 0 || near.nearest < settings.gate) return none;
    chooseVoters(near, settings.neighbours);
    // A tool gets a vote only from enough sessions.
    return tally(voters, near.nearest, settings.agree, settings.half);
  }

  // The memory's reliability as of the changes it was computed at (changedEnough), and how many times it was.
  let calibrated = { at: undefined as number | undefined, value: 0, times: 0 };
  /**
   * How often the vote names what remembered requests used: a fixed sample of them, each voted on by the other
   * sessions, the mean share of its tools among the vote's first as many. Where requests recur (the same kind of
   * request, the same tools) it nears 1; where each request is new, the memory mostly guesses, and says little.
   */
  function reliability(settings: VoteSettings): number {
    if (!changedEnough(s, calibrated.at)) return calibrated.value;
    const sample = calibrationSample(s.entries);
    let sum = 0;
    // The request judged is itself one of the sessions that agree on its tools: the others need one fewer.
    const others = { ...settings, agree: settings.agree - 1 };
    for (const { entry } of sample) {
      const { tools, votes: given, count } = voteOf(entry.terms, others, entry.session);
      const votes = new Map<number, number>();
      for (let i = 0; i < count; i++) votes.set(tools[i] as number, given[i] as number);
      // A tool counts as named when its vote is among the first as many as the request used, ties included.
      const least = [...votes.values()].sort((a, b) => b - a)[entry.tools.length - 1] ?? 0;
      const named = entry.tools.filter((name) => {
        const vote = votes.get(s.tools.get(name) as number);
        return vote !== undefined && vote >= least;
      });
      sum += named.length / entry.tools.length;
    }
    const value = sample.length === 0 ? 0 : sum / sample.length;
    calibrated = { at: s.changes, value, times: calibrated.times + 1 };
    return calibrated.value;
  }

  const vote = (terms: readonly number[], settings: VoteSettings): Votes => {
    const out = voteOf(terms, settings);
    if (out.count === 0) return out;
    // Computed after the vote's own (its sample's votes share the scratch): the vote is taken again if they ran.
    const { times } = calibrated;
    const scale = reliability(settings) ** settings.calibrate;
    const votes = times === calibrated.times ? out : voteOf(terms, settings);
    for (let i = 0; i < votes.count; i++) votes.votes[i] = (votes.votes[i] as number) * scale;
    return votes;
  };
  return {
    vote,
    // What the next vote would bring up to date first: the postings' layout (a query of no terms lays them out and
    // scores nothing) and the memory's reliability.
    warm(settings) {
      similar([], undefined);
      reliability(settings);
    },
  };
}
