// The tool sets' vote: a search scores the query against every remembered tool set's profile (cosine over IDF-weighted
// hashed terms: a centroid classifier over the sets) and, when the best set is similar enough and enough sessions used
// it, votes for all its tools together, so a request that needs two or three tools gets them all at once.
import type { Remembered } from './memory-pages.ts';
import { createSetTally, loadSetPage, retainSetPages, type SetProfile, type SetProfiles } from './set-profiles.ts';

/** How the sets' vote is gated. */
export interface SetVoteSettings {
  /** Least cosine of the best set for the vote to speak at all. */
  readonly gate: number;
  /** Fewest sessions that must have used the best set. */
  readonly agree: number;
  /** Sessions at which the vote counts half: it grows as more of them used the set. */
  readonly half: number;
}

/** The sets' vote as shipped (bench/TUNING.md). */
export const SET_VOTE: SetVoteSettings = { gate: 0.3, agree: 2, half: 2 };

/** The query's terms the vote reads, its rarest; and the sets it scores at most, found by those terms. */
const QUERY_TERMS = 32;
const CANDIDATES = 256;

/** The tool sets of a memory's pages, kept up to date as its index loads and drops pages. */
export interface SetIndex {
  load(n: number, entries: readonly Remembered[]): void;
  retain(pages: ReadonlySet<number>): void;
  clear(): void;
  /** Per tool name, its vote (0 to 1): the tools of the one set the query most resembles, or none. */
  vote(terms: readonly number[], settings: SetVoteSettings): Map<string, number>;
}

/** Scratch space for dot products by set id: zero between searches, which run one at a time (no await inside). */
let scratch = new Float64Array(0);

/** A term's IDF over the sets in use (a word every set's requests use tells no set apart). */
const idfOf = (p: SetProfiles, term: number): number => Math.log(1 + p.live / (p.postings.get(term)?.ids.length ?? 1));

/** A set's length over IDF-weighted term frequencies, computed again only once the profiles changed. */
function normOf(p: SetProfiles, set: SetProfile): number {
  if (set.normAt === p.changes) return set.norm;
  const n = set.sessions.size;
  let sum = 0;
  for (const [term, held] of set.held) sum += (idfOf(p, term) * held) ** 2;
  set.norm = Math.sqrt(sum) / n;
  set.normAt = p.changes;
  return set.norm;
}

/**
 * The set most similar to `terms` by cosine over IDF-weighted hashed terms (a term's weight in a set: its IDF times
 * the share of the set's sessions that used it), and that cosine. The query's rarest terms find at most CANDIDATES
 * sets; a commoner term only adds to those already found. Cosines equal to 9 places tie, and the set whose tools sort
 * first wins, so the choice is the same whichever order the pages loaded in.
 */
export function nearestSet(p: SetProfiles, terms: readonly number[]): { set: SetProfile; cos: number } | undefined {
  const query: { term: number; idf: number }[] = [];
  for (const term of terms)
    if (p.postings.has(term) && !query.some((q) => q.term === term)) query.push({ term, idf: idfOf(p, term) });
  query.sort((a, b) => b.idf - a.idf || a.term - b.term);
  query.length = Math.min(query.length, QUERY_TERMS);
  // Per set id, the dot product so far (a scratch array, zeroed after use), and the sets found.
  if (scratch.length < p.sets.length) scratch = new Float64Array(p.sets.length * 2);
  const found: number[] = [];
  let norm = 0;
  for (const { term, idf } of query) {
    norm += idf * idf;
    const open = found.length < CANDIDATES;
    const { ids, held } = p.postings.get(term) as { ids: number[]; held: number[] };
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      const was = scratch[id] as number;
      if (was === 0) {
        if (!open) continue;
        found.push(id);
      }
      scratch[id] = was + (idf * idf * (held[i] as number)) / (p.sizes[id] as number);
    }
  }
  let best: SetProfile | undefined;
  let cos = 0;
  for (const id of found) {
    const set = p.sets[id] as SetProfile;
    const c = Math.round(((scratch[id] as number) / Math.sqrt(norm) / normOf(p, set)) * 1e9) / 1e9;
    scratch[id] = 0;
    if (c > cos || (c === cos && best && set.key < best.key)) [best, cos] = [set, c];
  }
  return best && { set: best, cos };
}

/** Creates an empty index of tool sets. */
export function createSetIndex(): SetIndex {
  let tally = createSetTally();
  return {
    load: (n, entries) => loadSetPage(tally, n, entries),
    retain: (keep) => retainSetPages(tally, keep),
    clear() {
      tally = createSetTally();
    },
    vote(terms, { gate, agree, half }) {
      const votes = new Map<string, number>();
      const nearest = tally.live === 0 ? undefined : nearestSet(tally, terms);
      if (!nearest) return votes;
      const { set, cos } = nearest;
      const n = set.sessions.size;
      if (cos < gate || n < agree) return votes;
      for (const tool of set.tools) votes.set(tool, cos * (n / (n + half)));
      return votes;
    },
  };
}
