// The tool sets' vote: a search scores the query against every remembered tool set's profile (cosine over IDF-weighted
// hashed terms: a centroid classifier over the sets) and votes for every tool of its three nearest sets backed by
// enough sessions, the nearest first, so a request that needs two or three tools gets them all at once; as loudly as
// the sets' own record (their requests judged without their own sessions) says they are right.
import { keepFirst } from './first-few.ts';
import { changedEnough, type Entry, type MemoryEntries, queryNumbers } from './memory-entries.ts';
import { sampleRank } from './memory-vote.ts';
import { bringPairs, lengthBounds, lengthStands, normOf } from './set-lengths.ts';
import { createSetProfiles, profileHooks, type SetProfile, type SetProfiles, withoutSession } from './set-profiles.ts';
import { isStopwordHash } from './term-hash.ts';

/** How the sets' vote is gated. */
export interface SetVoteSettings {
  /** Least cosine of the best set for the vote to speak at all. */
  readonly gate: number;
  /** Fewest sessions that must have used the best set. */
  readonly agree: number;
  /** Sessions at which the vote counts half: it grows as more of them used the set. */
  readonly half: number;
  /** Sets that vote, the nearest first. */
  readonly sets: number;
  /** Each later set's tools count this much less than the set before's. */
  readonly decay: number;
  /** The power of the sets' reliability (how often they name what remembered requests used) their votes are scaled by. */
  readonly calibrate: number;
}

/** The sets' vote as shipped (bench/TUNING.md). */
export const SET_VOTE: SetVoteSettings = { gate: 0, agree: 2, half: 2, sets: 3, decay: 0.5, calibrate: 2 };

/**
 * The query's terms the vote reads, its rarest; and the sets it scores at most, found by those terms (bench/TUNING.md:
 * 128 scores as 256 did, and 20 terms as 32 did, under leave-one-set-out and on ToolLens, the sets' vote about 1.7 us
 * less a search on seal-tools, whose requests have about 25 terms).
 */
const QUERY_TERMS = 20;
const CANDIDATES = 128;

/** The tool sets of a memory's requests, kept up to date as its index loads and drops pages. */
export interface SetIndex {
  /**
   * The tools of the sets the query most resembles, the nearest first, by their ids in the catalogue whose names are
   * `byName` (a tool it lacks left out), each with its vote (0 to 1). Valid until the next vote.
   */
  vote(terms: readonly number[], settings: SetVoteSettings, byName: ReadonlyMap<string, number>): SetVotes;
  /** How often the sets' vote names what remembered requests used, each judged without its own session (0 to 1). */
  reliability(settings: SetVoteSettings): number;
  /** Brings the sets' pairs by term and their reliability up to date, as the next vote would first. */
  warm(settings: SetVoteSettings): void;
}

/** The sets' vote by tool id: `votes[i]` is the vote of tool `ids[i]`. */
export interface SetVotes {
  readonly ids: readonly number[];
  readonly votes: readonly number[];
}

/**
 * Places in the dot products that take what sets not found would add, in turn by posting: a common term's list mostly
 * holds sets not found, and adds to eight places in turn do not each wait on the one before (as in
 * memory-similar.ts). Never read.
 */
const SPREAD = 8;

/**
 * Scratch, zero between searches, which run one at a time (no await inside): by set id its place among the sets
 * found plus SPREAD (0 for none), and by that place the set's dot product so far.
 */
let slots = new Int32Array(0);
let dots = new Float64Array(SPREAD);

/** Scratch space for a query's terms (what orders them, and their numbers) and for the ids of the sets found. */
const newTermScratch = (size: number) => ({
  keys: new Float64Array(size),
  query: new Int32Array(size),
  stops: new Uint8Array(size),
});
let termScratch = newTermScratch(64);
let found = new Int32Array(0);

/**
 * The `many` sets most similar to `terms`, nearest first, by cosine over IDF-weighted hashed terms (a term's weight in
 * a set: its IDF times the share of the set's sessions that used it), with their cosines. The query's rarest terms
 * find at most CANDIDATES sets; a commoner term only adds to those already found. Cosines equal to 9 places tie, and
 * the set whose tools sort first wins, so the choice is the same whichever order the pages loaded in.
 */
export function nearestSets(
  p: SetProfiles,
  s: MemoryEntries,
  terms: readonly number[],
  many: number,
): { set: SetProfile; cos: number }[] {
  const { begin, end: ends, cells, count } = p.pairs;
  const { sizes, live } = p;
  if (termScratch.keys.length < terms.length) termScratch = newTermScratch(terms.length * 2);
  if (found.length < p.byId.length) found = new Int32Array(p.byId.length * 2);
  if (slots.length < p.byId.length)
    [slots, dots] = [new Int32Array(p.byId.length * 2), new Float64Array(p.byId.length * 2 + SPREAD)];
  // Held in constants: the loops below call out (normOf), after which a module variable would be read again.
  const { keys, query, stops } = termScratch;
  const sets = found;
  const slot = slots;
  const dot = dots;
  // The query's distinct terms as the memory's entries number them (the pairs' terms are numbered alike; the memory's
  // vote has just numbered them), those some set holds, each as one exact number that orders them: the rarest first
  // (fewest sets: the largest IDF), ties by the smaller hash, so a total order (below 2^53 while fewer than 2^21 sets
  // hold a term).
  const { numbers, hashes, count: distinct } = queryNumbers(s, terms);
  let q = 0;
  for (let k = 0; k < distinct; k++) {
    const t = numbers[k] as number;
    const held = count[t] ?? 0;
    if (held === 0) continue;
    const key = held * 2 ** 32 + ((hashes[k] as number) + 2 ** 31);
    // By insertion: a query has a few dozen terms.
    let i = q++;
    for (; i > 0 && (keys[i - 1] as number) > key; i--) {
      keys[i] = keys[i - 1] as number;
      query[i] = query[i - 1] as number;
      stops[i] = stops[i - 1] as number;
    }
    keys[i] = key;
    query[i] = t;
    stops[i] = isStopwordHash(hashes[k] as number) ? 1 : 0;
  }
  // Per set found, the dot product so far times the set's size (zeroed after use): the size divides each set's sum
  // once, not each of its postings.
  const read = Math.min(q, QUERY_TERMS);
  // Each term's first pair read before any list is: the lists' first lines are fetched together, not each when its
  // loop begins. Stored where sets not found add (never read), so the reads are not left out as unused.
  let first = 0;
  for (let o = 0; o < read; o++) first |= cells[2 * (begin[query[o] as number] as number)] as number;
  dot[0] = first;
  let n = 0;
  let norm = 0;
  for (let o = 0; o < read; o++) {
    const t = query[o] as number;
    const idf = Math.log(1 + live / (count[t] as number));
    const weight = idf * idf;
    norm += weight;
    const end = ends[t] as number;
    // Over the set's sessions now: taking a session out to judge the sets changes it. A stopword finds no set: it
    // only adds to those a term found.
    if (n < CANDIDATES && stops[o] === 0)
      for (let i = 2 * (begin[t] as number); i < 2 * end; i += 2) {
        const held = cells[i + 1] as number;
        // A set whose session is taken out to judge the sets may hold the term no more.
        if (held === 0) continue;
        const id = cells[i] as number;
        let k = slot[id] as number;
        if (k === 0) {
          sets[n] = id;
          k = n++ + SPREAD;
          slot[id] = k;
        }
        dot[k] = (dot[k] as number) + weight * held;
      }
    // Full: the term only adds to the sets found (a held 0 adds 0), in a loop of its own. Most of a common term's sets
    // were not found: the places below SPREAD take what they would add, in turn (no branch: which sets were found
    // follows no pattern a branch predicts).
    else
      for (let i = 2 * (begin[t] as number); i < 2 * end; i += 2) {
        const k = slot[cells[i] as number] as number;
        // k, or for a set not found (k 0: k - 1 is negative) a place below SPREAD.
        const at = k | (((k - 1) >> 31) & (i >> 1) & (SPREAD - 1));
        dot[at] = (dot[at] as number) + weight * (cells[i + 1] as number);
      }
  }
  // By hand: a call to fill costs more than eight stores.
  for (let i = 0; i < SPREAD; i++) dot[i] = 0;
  const best: Near[] = [];
  const root = Math.sqrt(norm);
  const { norms, normsAt, kept, judgedNorms, judgedAt } = p;
  // A length kept from an earlier load stands, or its bounds, but not while a session is taken out (then only this
  // load's do).
  const keeps = !p.judging;
  let later = 0;
  if (quotients.length < n) [quotients, mosts] = [new Float64Array(n * 2), new Float64Array(n * 2)];
  const quotient = quotients;
  for (let f = 0; f < n; f++) {
    const id = sets[f] as number;
    const over = (dot[f + SPREAD] as number) / (sizes[id] as number) / root;
    dot[f + SPREAD] = 0;
    slot[id] = 0;
    const state = keeps ? (kept[id] as number) : 0;
    let length: number | undefined;
    if (normsAt[id] === s.loads) length = norms[id] as number;
    else if (judgedAt[id] === s.loads) length = judgedNorms[id] as number;
    else if (state === 1 && lengthStands(p, id)) length = norms[id] as number;
    else if (state === 0) length = normOf(p, id, s.loads);
    if (length !== undefined) keepNearest(best, many, p.byId[id] as SetProfile, over / length);
    else {
      // Bounded only: computed again only if it may be among the best (below).
      sets[later] = id;
      quotient[later++] = over;
    }
  }
  if (later > 0) nearestLater(p, s, best, many, later);
  return best;
}

/** A set found, with its cosine rounded to 9 places. */
type Near = { set: SetProfile; cos: number };

/** By place among the sets found whose kept length is bounded only, their dot product over the query's length and their size. */
let quotients = new Float64Array(0);
/** By the same place, the most its cosine can be; and a set's bounds on its length as lengthBounds gives them. */
let mosts = new Float64Array(0);
const span = new Float64Array(2);

/** Puts a set of cosine `raw` among the `many` best, kept in order (cosines equal to 9 places: the set whose tools sort first). */
function keepNearest(best: Near[], many: number, set: SetProfile, raw: number): void {
  // Far enough below the last of the best, its rounding cannot reach it.
  if (best.length === many && raw < (best[many - 1] as Near).cos - 1e-9) return;
  const cos = Math.round(raw * 1e9) / 1e9;
  if (best.length === many && cos < (best[many - 1] as Near).cos) return;
  let at = best.length;
  while (at > 0) {
    const other = best[at - 1] as Near;
    if (cos < other.cos || (cos === other.cos && set.key > other.set.key)) break;
    at--;
  }
  if (at >= many) return;
  for (let i = Math.min(best.length, many - 1); i > at; i--) best[i] = best[i - 1] as Near;
  best[at] = { set, cos };
}

/**
 * The sets found whose length is kept only as bounds (`found[f]`, `quotients[f]` for f below `later`) put among the
 * best, each length computed again only if its bounds leave the set a chance: the answer is the one every length
 * computed afresh gives.
 */
function nearestLater(p: SetProfiles, s: MemoryEntries, best: Near[], many: number, later: number): void {
  const lows: number[] = [];
  // The many-th best cosine some sets surely reach: the best's (rounded) and the bounded sets' least; and each bounded
  // set's most, in place of its length.
  for (const { cos } of best) keepFirst(lows, cos - 1e-9, many, largestFirst);
  const [sets, over, most] = [found, quotients, mosts];
  for (let f = 0; f < later; f++) {
    lengthBounds(p, sets[f] as number, span);
    keepFirst(lows, (over[f] as number) / (span[1] as number), many, largestFirst);
    most[f] = (over[f] as number) / (span[0] as number);
  }
  // Below it by more than rounding to 9 places can close, a set is not among the best.
  const bar = lows.length === many ? (lows[many - 1] as number) - 3e-9 : -Infinity;
  for (let f = 0; f < later; f++) {
    if ((most[f] as number) < bar) continue;
    const id = sets[f] as number;
    keepNearest(best, many, p.byId[id] as SetProfile, (over[f] as number) / normOf(p, id, s.loads));
  }
}

/** Orders numbers largest first (keepFirst keeps the largest). */
const largestFirst = (a: number, b: number): number => b - a;

/** Remembered requests the sets' vote is judged on, each without its own session, to learn how reliable it is. */
const SAMPLES = 64;

/**
 * The sets that vote for `terms`, the nearest first, each with the vote its tools get: cos · n/(n + half) for its n
 * sessions, each later set's less than the one before's; a set under `agree` sessions passes, one under `gate` stops.
 */
function eachVotingSet(
  p: SetProfiles,
  s: MemoryEntries,
  terms: readonly number[],
  settings: SetVoteSettings,
  visit: (set: SetProfile, vote: number) => void,
): void {
  const { gate, agree, half, sets, decay } = settings;
  if (p.live === 0) return;
  let scale = 1;
  for (const { set, cos } of nearestSets(p, s, terms, sets)) {
    const n = p.sizes[set.id] as number;
    if (cos < gate) break;
    if (n < agree) continue;
    visit(set, scale * cos * (n / (n + half)));
    scale *= decay;
  }
}

/** The sets' vote for `terms` by tool name: each tool's vote is that of the first set holding it. */
function voteOf(
  p: SetProfiles,
  s: MemoryEntries,
  terms: readonly number[],
  settings: SetVoteSettings,
): Map<string, number> {
  const votes = new Map<string, number>();
  eachVotingSet(p, s, terms, settings, (set, vote) => {
    for (const tool of set.tools) if (!votes.has(tool)) votes.set(tool, vote);
  });
  return votes;
}

/**
 * The sets' vote for `terms` as voteOf gives it, by tool id (`idsOf` gives a set's tools' ids), into `out`: a
 * search maps no name.
 */
function voteByIds(
  p: SetProfiles,
  s: MemoryEntries,
  terms: readonly number[],
  settings: SetVoteSettings,
  idsOf: (set: SetProfile) => Int32Array,
  out: { ids: number[]; votes: number[] },
): SetVotes {
  out.ids.length = 0;
  out.votes.length = 0;
  eachVotingSet(p, s, terms, settings, (set, vote) => {
    for (const id of idsOf(set))
      if (id >= 0 && !out.ids.includes(id)) {
        out.ids.push(id);
        out.votes.push(vote);
      }
  });
  return out;
}

/** A sampled request, with what orders the sample. */
type Sampled = { entry: Entry; key: string; rank: number };
const bySample = (a: Sampled, b: Sampled): number =>
  a.rank - b.rank || a.entry.session - b.entry.session || a.entry.turn - b.entry.turn;

/** The SAMPLES live requests with tools and terms first by sampleRank (ties: session, then turn), in that order. */
function judgeSample(s: MemoryEntries): Sampled[] {
  const best: Sampled[] = [];
  for (const [id, entry] of s.entries.entries()) {
    if (!entry || entry.tools.length === 0 || entry.terms.length === 0) continue;
    keepFirst(
      best,
      { entry, key: s.setKeys[s.setOf[id] as number] as string, rank: sampleRank(entry) },
      SAMPLES,
      bySample,
    );
  }
  return best;
}

/**
 * A fixed sample of the remembered requests, each voted on with its own session taken out of its set: the mean share
 * of its tools among the vote's first as many. Where whole sets of tools recur for requests of the same kind it nears
 * 1; where each request needs a set of its own, the sets mostly guess, and say little.
 */
function judge(p: SetProfiles, s: MemoryEntries, settings: SetVoteSettings): number {
  const sample = judgeSample(s);
  if (sample.length === 0) return 0;
  // The request judged is itself one of the sessions that used its set: the others need one fewer.
  const others = { ...settings, agree: settings.agree - 1 };
  let sum = 0;
  for (const { entry, key } of sample) {
    const set = p.byKey.get(key) as SetProfile;
    const votes = withoutSession(p, set, entry.session, () => voteOf(p, s, entry.terms, others));
    const least = [...votes.values()].sort((a, b) => b - a)[set.tools.length - 1] ?? 0;
    sum +=
      set.tools.filter((tool) => votes.has(tool) && (votes.get(tool) as number) >= least).length / set.tools.length;
  }
  return sum / sample.length;
}

/** Creates the index of tool sets over a memory index's entries (which then tell it of every request made live or killed). */
export function createSetIndex(s: MemoryEntries): SetIndex {
  const p = createSetProfiles();
  s.hooks = profileHooks(p);
  // The sets' reliability as of the changes it was computed at (changedEnough).
  let judged = { at: undefined as number | undefined, value: 0 };
  // Each set's tools' ids in the catalogue last asked about (a set's tools never change).
  const toolIds = new WeakMap<SetProfile, { byName: ReadonlyMap<string, number>; ids: Int32Array }>();
  const out = { ids: [] as number[], votes: [] as number[] };
  const reliability = (settings: SetVoteSettings): number => {
    if (!changedEnough(s, judged.at)) return judged.value;
    bringPairs(p, s);
    judged = { at: s.changes, value: judge(p, s, settings) };
    return judged.value;
  };
  return {
    vote(terms, settings, byName) {
      bringPairs(p, s);
      const idsOf = (set: SetProfile) => {
        let known = toolIds.get(set);
        if (known?.byName !== byName) {
          known = { byName, ids: Int32Array.from(set.tools, (tool) => byName.get(tool) ?? -1) };
          toolIds.set(set, known);
        }
        return known.ids;
      };
      return voteByIds(p, s, terms, settings, idsOf, out);
    },
    warm(settings) {
      bringPairs(p, s);
      reliability(settings);
    },
    reliability,
  };
}
