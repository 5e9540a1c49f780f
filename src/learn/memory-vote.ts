// The memory's vote: a new search finds the most similar remembered requests (cosine over IDF-weighted sets of
// hashed terms) and lets them vote for their tools, but only when they are similar enough to agree on something.
import type { Entry, MemoryEntries } from './memory-entries.ts';

/** How the memory's vote is formed and gated. */
export interface VoteSettings {
  /** Most similar requests that vote. */
  readonly neighbours: number;
  /** Least cosine similarity of the nearest request for the memory to speak at all. */
  readonly gate: number;
  /** Fewest distinct sessions among the voters that must have used a tool for it to get a vote. */
  readonly agree: number;
  /** Sessions agreeing on a tool at which its vote counts half: the vote grows as more of them agree. */
  readonly half: number;
}

/** Per tool name, its share of the neighbours' votes (0 to 1) times the nearest request's similarity. */
export type Votes = Map<string, number>;

/** Past requests a search scores at most, found by its rarest terms. */
const CANDIDATES = 256;
/** The query's terms the memory reads: its rarest. */
const QUERY_TERMS = 12;

/** Picks before the candidates left are sorted instead: a few sessions may each hold many similar requests. */
const PICKS = 24;

/**
 * The candidates' positions, most similar first (ties: the smaller key, from a request's session and turn, so that
 * the order is the same whichever lane or page holds it), lazily: a vote reads about ten of up to 256, so the first
 * few are picked by scanning, and the rest sorted only if the vote reads on.
 */
function* mostSimilar(key: (k: number) => number, sims: Float64Array): Generator<number> {
  const taken = new Uint8Array(sims.length);
  for (let pick = 0; pick < Math.min(PICKS, sims.length); pick++) {
    let best = -1;
    for (let k = 0; k < sims.length; k++) {
      if (taken[k] === 1) continue;
      const s = sims[k] as number;
      const b = best < 0 ? 0 : (sims[best] as number);
      if (best < 0 || s > b || (s === b && key(k) < key(best))) best = k;
    }
    taken[best] = 1;
    yield best;
  }
  const rest = [...sims.keys()].filter((k) => taken[k] === 0);
  rest.sort((a, b) => (sims[b] as number) - (sims[a] as number) || key(a) - key(b));
  yield* rest;
}

/** The voters' tools, each its share of the voters' similarity times `nearest` times n / (n + half) for n voters. */
function tally(
  voters: readonly [sim: number, tools: readonly string[]][],
  nearest: number,
  agree: number,
  half: number,
): Votes {
  const votes: Votes = new Map();
  let total = 0;
  const sessions = new Map<string, number>();
  for (const [sim, tools] of voters) {
    total += sim;
    for (const tool of tools) {
      votes.set(tool, (votes.get(tool) ?? 0) + sim);
      sessions.set(tool, (sessions.get(tool) ?? 0) + 1);
    }
  }
  for (const [tool, v] of votes) {
    const n = sessions.get(tool) as number;
    if (n < agree) votes.delete(tool);
    else votes.set(tool, (v / total) * nearest * (n / (n + half)));
  }
  return votes;
}

/** Creates the vote over a memory index's entries (with its own scratch array, kept between votes). */
export function createVote(s: MemoryEntries): (terms: readonly number[], settings: VoteSettings) => Votes {
  let scratch = new Float64Array(0);

  /**
   * The past requests most similar to `terms` (those its rarest terms find until CANDIDATES are found, the term that
   * passes the bound adding all it holds), by cosine over IDF-weighted term sets, and the largest similarity.
   */
  function similar(terms: readonly number[]): { found: number[]; sims: Float64Array; nearest: number } | undefined {
    const { entries, postings, df, alive, norms, normAt, loads } = s;
    const live = entries.length - s.dead;
    if (live === 0) return undefined;
    const idf = (df: number) => Math.log(1 + live / df);
    // Cosine over IDF-weighted term sets: the shared terms' weights against both sides' lengths. The rarer terms
    // find the candidates; once there are enough, a common term only adds to those it already found.
    // A long request is told apart by its rarest words: the rest would cost more to read than they weigh.
    const query: { term: number; n: number }[] = [];
    for (const [k, term] of terms.entries()) {
      const n = df.get(term);
      if (n && terms.indexOf(term) === k) query.push({ term, n });
    }
    query.sort((a, b) => a.n - b.n);
    query.length = Math.min(query.length, QUERY_TERMS);
    // Per entry id, the dot product so far (a scratch array, cleared after use) and the ids found.
    if (scratch.length < entries.length) scratch = new Float64Array(entries.length * 2);
    const found: number[] = [];
    let queryNorm = 0;
    for (const { term, n } of query) {
      const w = idf(n) ** 2;
      queryNorm += w;
      const open = found.length < CANDIDATES;
      for (const id of postings.get(term) as number[]) {
        const d = scratch[id] as number;
        if (d === 0) {
          if (!open || alive[id] === 0) continue;
          found.push(id);
        }
        scratch[id] = d + w;
      }
    }
    if (found.length === 0) return undefined;
    const sims = new Float64Array(found.length);
    let nearest = Number.NEGATIVE_INFINITY;
    for (const [k, id] of found.entries()) {
      const d = scratch[id] as number;
      scratch[id] = 0;
      if (normAt[id] !== loads) {
        let norm = 0;
        for (const term of (entries[id] as Entry).terms) norm += idf(df.get(term) || 1) ** 2;
        norms[id] = norm;
        normAt[id] = loads;
      }
      const sim = d / Math.sqrt(queryNorm * (norms[id] as number));
      sims[k] = sim;
      if (sim > nearest) nearest = sim;
    }
    return { found, sims, nearest };
  }

  return (terms, { neighbours, gate, agree, half }) => {
    const near = similar(terms);
    if (!near || near.nearest < gate) return new Map();
    const { found, sims, nearest } = near;
    // Each session votes once, with its most similar request; a tool gets a vote only from enough sessions.
    const voters: number[] = [];
    const sessions: number[] = [];
    // Ties (read only when two candidates are equally similar) by session and turn.
    const key = (k: number) => {
      const { session, turn } = s.entries[found[k] as number] as Entry;
      return session * 1024 + turn;
    };
    for (const k of mostSimilar(key, sims)) {
      const { session } = s.entries[found[k] as number] as Entry;
      if (!sessions.includes(session)) {
        sessions.push(session);
        voters.push(k);
      }
      if (voters.length === neighbours) break;
    }
    return tally(
      voters.map((k) => [sims[k] as number, (s.entries[found[k] as number] as Entry).tools]),
      nearest,
      agree,
      half,
    );
  };
}
