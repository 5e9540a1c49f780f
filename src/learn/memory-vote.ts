// The memory's vote: a new search finds the most similar remembered requests (BM25 over their hashed terms, as the
// ranker scores tools) and lets them vote for their tools and for the whole sets they used together, but only when they
// are similar enough to agree on something, and only as loudly as the memory's own record says it is right.
import { PARAMS } from '../search/build.ts';
import { type Entry, keyOf, type MemoryEntries } from './memory-entries.ts';
import type { Remembered } from './memory-pages.ts';

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

/** Per tool name, its vote: between 0 and 1. */
export type Votes = Map<string, number>;

/** BM25's saturation and length normalisation over a remembered request's terms: the ranker's own k1, a description's b. */
const K1 = PARAMS.k1;
const B = 0.75;
/** Remembered requests the memory votes on, each by the other sessions, to learn how reliable its vote is. */
const SAMPLES = 64;
/** Past requests a search scores at most: its rarer terms find them, every other term adds to those found. */
const CANDIDATES = 256;
/** Candidates kept in order by the first pass: a vote reads about as many as it has neighbours, a few sessions more. */
const PICKS = 32;

/**
 * The candidates' positions, most similar first (ties: the smaller key), lazily: the best PICKS in one pass, the rest
 * sorted only if the vote reads on (a few sessions may each hold many similar requests).
 */
function* mostSimilar(key: (k: number) => number, sims: Float64Array): Generator<number> {
  const better = (a: number, b: number) => (sims[b] as number) - (sims[a] as number) || key(a) - key(b);
  const best: number[] = [];
  for (let k = 0; k < sims.length; k++) {
    if (best.length === PICKS && better(k, best[PICKS - 1] as number) >= 0) continue;
    let i = Math.min(best.length, PICKS - 1);
    best[i] = k;
    while (i > 0 && better(k, best[i - 1] as number) < 0) {
      best[i] = best[i - 1] as number;
      best[--i] = k;
    }
  }
  yield* best;
  if (best.length < PICKS) return;
  const taken = new Set(best);
  const rest = [...sims.keys()].filter((k) => !taken.has(k));
  rest.sort(better);
  yield* rest;
}

/**
 * The voters' tools: each the mean of its share of the voters' similarity and the share of the most voted whole tool
 * set holding it (so that a set the neighbours agree on is placed together), times the nearest request's similarity,
 * times n / (n + half) for the n voters that used it.
 */
function tally(voters: readonly Entry[], sims: readonly number[], nearest: number, settings: VoteSettings): Votes {
  const { agree, half } = settings;
  const tools = new Map<string, { sim: number; n: number; set: number }>();
  const sets = new Map<string, number>();
  let total = 0;
  for (const [k, { tools: used, set }] of voters.entries()) {
    const sim = sims[k] as number;
    total += sim;
    sets.set(set, (sets.get(set) ?? 0) + sim);
    for (const tool of used) {
      const t = tools.get(tool);
      if (t) {
        t.sim += sim;
        t.n++;
      } else tools.set(tool, { sim, n: 1, set: 0 });
    }
  }
  for (const { tools: used, set } of voters) {
    const sim = sets.get(set) as number;
    for (const tool of used) {
      const t = tools.get(tool) as { set: number };
      if (sim > t.set) t.set = sim;
    }
  }
  const votes: Votes = new Map();
  for (const [tool, { sim, n, set }] of tools)
    if (n >= agree) votes.set(tool, ((sim + set) / 2 / total) * nearest * (n / (n + half)));
  return votes;
}

/** A request's place in the calibration samples: a mix of its key, so the sample is spread over sessions. */
export const sampleRank = (entry: Remembered): number => Math.imul(keyOf(entry) ^ 0x5bd1e995, 0x27d4eb2d) >>> 0;

/** Creates the vote over a memory index's entries (with its own scratch array, kept between votes). */
export function createVote(s: MemoryEntries): (terms: readonly number[], settings: VoteSettings) => Votes {
  let scratch = new Float64Array(0);

  /**
   * The past requests that hold any of the query's terms, scored by BM25 over every term the memory knows (IDF from
   * the remembered requests, saturation and length as the ranker's), each over the query's own score (at most 1), and
   * the largest. Requests of the session `skip` score -1.
   */
  function similar(
    terms: readonly number[],
    skip: number | undefined,
  ): { found: number[]; sims: Float64Array; nearest: number } | undefined {
    const { entries, postings, df, alive, lengths } = s;
    const live = entries.length - s.dead;
    if (live === 0) return undefined;
    if (scratch.length < entries.length) scratch = new Float64Array(entries.length * 2);
    const query: { term: number; n: number }[] = [];
    const seen = new Set<number>();
    for (const term of terms) {
      const n = df.get(term);
      if (n && !seen.has(term)) query.push({ term, n });
      seen.add(term);
    }
    // The rarer terms find the candidates; once there are enough, a common term only adds to those already found.
    query.sort((a, b) => a.n - b.n);
    const found: number[] = [];
    let most = 0;
    for (const { term, n } of query) {
      const w = Math.log(1 + (live - n + 0.5) / (n + 0.5));
      most += w;
      const open = found.length < CANDIDATES;
      const list = postings.get(term) as number[];
      for (let i = 0; i < list.length; i++) {
        const id = list[i] as number;
        if (alive[id] === 0) continue;
        const d = scratch[id] as number;
        if (d === 0) {
          if (!open) continue;
          found.push(id);
        }
        scratch[id] = d + w;
      }
    }
    if (found.length === 0) return undefined;
    // Each term a request holds appears once: its BM25 weight is the term's IDF times one factor of its length.
    const avg = s.totalLength / live;
    const sims = new Float64Array(found.length);
    let nearest = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < found.length; k++) {
      const id = found[k] as number;
      const length = (K1 + 1) / (1 + K1 * (1 - B + (B * (lengths[id] as number)) / avg));
      let sim = Math.min(1, ((scratch[id] as number) * length) / most);
      scratch[id] = 0;
      if (skip !== undefined && (entries[id] as Entry).session === skip) sim = -1;
      sims[k] = sim;
      if (sim > nearest) nearest = sim;
    }
    return { found, sims, nearest };
  }

  function voteOf(terms: readonly number[], settings: VoteSettings, skip?: number): Votes {
    const near = similar(terms, skip);
    if (!near || near.nearest < settings.gate) return new Map();
    const { found, sims, nearest } = near;
    const entry = (k: number) => s.entries[found[k] as number] as Entry;
    // Each session votes once, with its most similar request; a tool gets a vote only from enough sessions.
    const voters: number[] = [];
    const sessions: number[] = [];
    const { keys } = s;
    for (const k of mostSimilar((k) => keys[found[k] as number] as number, sims)) {
      if ((sims[k] as number) < 0) break;
      const { session } = entry(k);
      if (!sessions.includes(session)) {
        sessions.push(session);
        voters.push(k);
      }
      if (voters.length === settings.neighbours) break;
    }
    return tally(
      voters.map(entry),
      voters.map((k) => sims[k] as number),
      nearest,
      settings,
    );
  }

  // The memory's reliability as of the load it was computed at: a load changes what it remembers.
  let calibrated = { at: -1, value: 0 };
  /**
   * How often the vote names what remembered requests used: a fixed sample of them, each voted on by the other
   * sessions, the mean share of its tools among the vote's first as many. Where requests recur (the same kind of
   * request, the same tools) it nears 1; where each request is new, the memory mostly guesses, and says little.
   */
  function reliability(settings: VoteSettings): number {
    if (calibrated.at === s.loads) return calibrated.value;
    const sample = s.entries
      .filter((entry): entry is Entry => entry !== undefined && entry.tools.length > 0)
      .map((entry) => ({ entry, rank: sampleRank(entry) }))
      .sort((a, b) => a.rank - b.rank || keyOf(a.entry) - keyOf(b.entry))
      .slice(0, SAMPLES);
    let sum = 0;
    // The request judged is itself one of the sessions that agree on its tools: the others need one fewer.
    const others = { ...settings, agree: settings.agree - 1 };
    for (const { entry } of sample) {
      const votes = voteOf(entry.terms, others, entry.session);
      // A tool counts as named when its vote is among the first as many as the request used, ties included.
      const least = [...votes.values()].sort((a, b) => b - a)[entry.tools.length - 1] ?? 0;
      const named = entry.tools.filter((tool) => (votes.get(tool) ?? 0) >= least && votes.has(tool));
      sum += named.length / entry.tools.length;
    }
    calibrated = { at: s.loads, value: sample.length === 0 ? 0 : sum / sample.length };
    return calibrated.value;
  }

  return (terms, settings) => {
    const votes = voteOf(terms, settings);
    if (votes.size === 0) return votes;
    const scale = reliability(settings) ** settings.calibrate;
    for (const [tool, v] of votes) votes.set(tool, v * scale);
    return votes;
  };
}
