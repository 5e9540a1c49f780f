// The tool sets' vote: a search scores the query against every remembered tool set's profile (cosine over IDF-weighted
// hashed terms: a centroid classifier over the sets) and votes for every tool of its three nearest sets backed by
// enough sessions, the nearest first, so a request that needs two or three tools gets them all at once; as loudly as
// the sets' own record (their requests judged without their own sessions) says they are right.
import type { Remembered } from './memory-pages.ts';
import { sampleRank } from './memory-vote.ts';
import {
  createSetTally,
  loadSetPage,
  retainSetPages,
  type SetProfile,
  type SetProfiles,
  type SetTally,
  withoutSession,
} from './set-profiles.ts';

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

/** The query's terms the vote reads, its rarest; and the sets it scores at most, found by those terms. */
const QUERY_TERMS = 32;
const CANDIDATES = 256;

/** The tool sets of a memory's pages, kept up to date as its index loads and drops pages. */
export interface SetIndex {
  load(n: number, entries: readonly Remembered[]): void;
  retain(pages: ReadonlySet<number>): void;
  /** Per tool name, its vote (0 to 1): the tools of the sets the query most resembles, the nearest first. */
  vote(terms: readonly number[], settings: SetVoteSettings): Map<string, number>;
  /** How often the sets' vote names what remembered requests used, each judged without its own session (0 to 1). */
  reliability(settings: SetVoteSettings): number;
}

/** Scratch space for dot products by set id: zero between searches, which run one at a time (no await inside). */
let scratch = new Float64Array(0);

/** A term's IDF over the sets in use (a word every set's requests use tells no set apart). */
const idfOf = (p: SetProfiles, term: number): number => Math.log(1 + p.live / (p.postings.get(term)?.size ?? 1));

/** A term's sets as a search reads them: in arrays, each with its IDF² · sessions holding the term, as of one edit. */
interface Compiled {
  readonly at: number;
  readonly idf: number;
  readonly ids: Int32Array;
  readonly held: Float64Array;
}

/** Per term's list of sets, that list compiled for searching (the maps are for loading; a search reads arrays). */
const compiledOf = new WeakMap<Map<number, number>, Compiled>();

/** A term's sets compiled as of the last edit that changed them or its IDF: its IDF, each set's IDF² · sessions holding it. */
function compiled(p: SetProfiles, term: number): Compiled | undefined {
  const list = p.postings.get(term);
  if (!list) return undefined;
  const had = compiledOf.get(list);
  if (had && had.at >= p.liveAt && had.at >= (p.listEdits.get(list) ?? 0)) return had;
  const idf = Math.log(1 + p.live / list.size);
  const ids = new Int32Array(list.size);
  const weights = new Float64Array(list.size);
  let i = 0;
  for (const [id, held] of list) {
    ids[i] = id;
    weights[i++] = idf * idf * held;
  }
  const made = { at: p.edits, idf, ids, held: weights };
  compiledOf.set(list, made);
  return made;
}

/** A set's length over IDF-weighted term frequencies, computed again only once the profiles changed. */
function normOf(p: SetProfiles, id: number): number {
  if (p.normsAt[id] === p.changes) return p.norms[id] as number;
  const set = p.sets[id] as SetProfile;
  let sum = 0;
  for (const [term, held] of set.held) sum += (idfOf(p, term) * held) ** 2;
  const norm = Math.sqrt(sum) / set.sessions.size;
  p.norms[id] = norm;
  p.normsAt[id] = p.changes;
  return norm;
}

/**
 * The `many` sets most similar to `terms`, nearest first, by cosine over IDF-weighted hashed terms (a term's weight in
 * a set: its IDF times the share of the set's sessions that used it), with their cosines. The query's rarest terms
 * find at most CANDIDATES sets; a commoner term only adds to those already found. Cosines equal to 9 places tie, and
 * the set whose tools sort first wins, so the choice is the same whichever order the pages loaded in.
 */
export function nearestSets(
  p: SetProfiles,
  terms: readonly number[],
  many: number,
): { set: SetProfile; cos: number }[] {
  const query: Compiled[] = [];
  const kept: number[] = [];
  for (const term of terms) {
    if (kept.includes(term)) continue;
    const c = compiled(p, term);
    if (c) {
      query.push(c);
      kept.push(term);
    }
  }
  const order = query
    .map((_, k) => k)
    .sort(
      (a, b) => (query[b] as Compiled).idf - (query[a] as Compiled).idf || (kept[a] as number) - (kept[b] as number),
    );
  order.length = Math.min(order.length, QUERY_TERMS);
  // Per set id, the dot product so far (a scratch array, zeroed after use), and the sets found.
  if (scratch.length < p.sets.length) scratch = new Float64Array(p.sets.length * 2);
  const found: number[] = [];
  let norm = 0;
  for (const k of order) {
    const { idf, ids, held } = query[k] as Compiled;
    norm += idf * idf;
    const open = found.length < CANDIDATES;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      const was = scratch[id] as number;
      if (was === 0) {
        if (!open) continue;
        found.push(id);
      }
      // Over the set's sessions now: taking a session out to judge the sets changes it, not the term's list.
      scratch[id] = was + (held[i] as number) / (p.sizes[id] as number);
    }
  }
  const best: { set: SetProfile; cos: number }[] = [];
  const root = Math.sqrt(norm);
  for (const id of found) {
    const dot = scratch[id] as number;
    scratch[id] = 0;
    const cos = Math.round((dot / root / normOf(p, id)) * 1e9) / 1e9;
    if (best.length === many && cos < (best[many - 1] as { cos: number }).cos) continue;
    const set = p.sets[id] as SetProfile;
    // Kept in order as found: the few best only (cosines equal to 9 places: the set whose tools sort first).
    let at = best.length;
    while (at > 0) {
      const other = best[at - 1] as { set: SetProfile; cos: number };
      if (cos < other.cos || (cos === other.cos && set.key > other.set.key)) break;
      at--;
    }
    if (at >= many) continue;
    best.splice(at, 0, { set, cos });
    if (best.length > many) best.pop();
  }
  return best;
}

/** Remembered requests the sets' vote is judged on, each without its own session, to learn how reliable it is. */
const SAMPLES = 64;

/** The sets' vote for `terms`: the tools of the nearest sets, each set's less than the one before's. */
function voteOf(tally: SetTally, terms: readonly number[], settings: SetVoteSettings): Map<string, number> {
  const { gate, agree, half, sets, decay } = settings;
  const votes = new Map<string, number>();
  if (tally.live === 0) return votes;
  let scale = 1;
  for (const { set, cos } of nearestSets(tally, terms, sets)) {
    const n = set.sessions.size;
    if (cos < gate) break;
    if (n < agree) continue;
    for (const tool of set.tools) if (!votes.has(tool)) votes.set(tool, scale * cos * (n / (n + half)));
    scale *= decay;
  }
  return votes;
}

/**
 * A fixed sample of the remembered requests, each voted on with its own session taken out of its set: the mean share
 * of its tools among the vote's first as many. Where whole sets of tools recur for requests of the same kind it nears
 * 1; where each request needs a set of its own, the sets mostly guess, and say little.
 */
function judge(tally: SetTally, settings: SetVoteSettings): number {
  const sample = [...tally.latest.values()]
    .filter((live) => live.set !== undefined && live.entry.terms.length > 0)
    .map((live) => ({ live, rank: sampleRank(live.entry) }))
    .sort(
      (a, b) => a.rank - b.rank || a.live.entry.session - b.live.entry.session || a.live.entry.turn - b.live.entry.turn,
    )
    .slice(0, SAMPLES);
  if (sample.length === 0) return 0;
  // The request judged is itself one of the sessions that used its set: the others need one fewer.
  const others = { ...settings, agree: settings.agree - 1 };
  let sum = 0;
  for (const { live } of sample) {
    const { entry } = live;
    const set = live.set as SetProfile;
    const votes = withoutSession(tally, set, entry.session, () => voteOf(tally, entry.terms, others));
    const least = [...votes.values()].sort((a, b) => b - a)[set.tools.length - 1] ?? 0;
    sum +=
      set.tools.filter((tool) => votes.has(tool) && (votes.get(tool) as number) >= least).length / set.tools.length;
  }
  return sum / sample.length;
}

/** Creates an empty index of tool sets. */
export function createSetIndex(): SetIndex {
  const tally = createSetTally();
  // The sets' reliability as of the change it was computed at.
  let judged = { at: -1, value: 0 };
  return {
    load: (n, entries) => loadSetPage(tally, n, entries),
    retain: (keep) => retainSetPages(tally, keep),
    vote: (terms, settings) => voteOf(tally, terms, settings),
    reliability(settings) {
      if (judged.at !== tally.changes) judged = { at: tally.changes, value: judge(tally, settings) };
      return judged.value;
    },
  };
}
