// The memory of past requests: what the per-term table cannot hold. Each remembered request keeps its terms (hashed,
// as the ranker tokenized them) and the tools it used together; a new search finds the most similar requests and
// lets them vote for their tools, but only when they are similar enough to agree on something.
import { fnv1a } from '../search/fnv.ts';
import type { Remembered } from './memory-pages.ts';

/** A query term as the memory keeps it: hashed, so no stored value holds a word of a user's request. */
export const termHash = (term: string): number => fnv1a(term);

/** A session as the memory keeps it: hashed, enough to tell sessions apart and never to name one. */
export const sessionHash = (sessionId: string): number => fnv1a(`\u0000${sessionId}`);

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

/** The memory's vote as shipped: chosen under leave-one-set-out (docs/ranking.md); the bench's grid sets others. */
export const VOTE: VoteSettings = { neighbours: 10, gate: 0.3, agree: 2, half: 2 };

/** Per tool name, its share of the neighbours' votes (0 to 1) times the nearest request's similarity. */
export type Votes = Map<string, number>;

/** The memory of one scope as a search reads it: pages loaded in order, indexed by hashed term. */
export interface MemoryIndex {
  /** Replaces page `n` with what the store holds (a page may grow until the next one starts). */
  load(n: number, entries: readonly Remembered[]): void;
  /** Forgets every loaded page not in `pages` (a lane drops its oldest as the bound requires). */
  retain(pages: ReadonlySet<number>): void;
  /** The tools the requests most similar to `terms` used, voted. Empty when none is similar enough. */
  vote(terms: readonly number[], settings: VoteSettings): Votes;
  /** Remembered requests, each counted once however often it grew. */
  readonly size: number;
}

interface Entry extends Remembered {
  readonly tag: string;
  readonly page: number;
  /** Which version is newer: its size first (a request only grows), then where it was stored. */
  readonly order: number;
}

/** Past requests a search scores at most, found by its rarest terms. */
const CANDIDATES = 256;
/** The query's terms the memory reads: its rarest. */
const QUERY_TERMS = 12;

/** Picks before the candidates left are sorted instead: a few sessions may each hold many similar requests. */
const PICKS = 24;

/**
 * The candidates' positions, most similar first (ties: the earlier entry first), lazily: a vote reads about ten of
 * up to 256, so the first few are picked by scanning, and the rest sorted only if the vote reads on.
 */
function* mostSimilar(ids: readonly number[], sims: Float64Array): Generator<number> {
  const taken = new Uint8Array(ids.length);
  for (let pick = 0; pick < Math.min(PICKS, ids.length); pick++) {
    let best = -1;
    for (let k = 0; k < ids.length; k++) {
      if (taken[k] === 1) continue;
      const s = sims[k] as number;
      const b = best < 0 ? 0 : (sims[best] as number);
      if (best < 0 || s > b || (s === b && (ids[k] as number) < (ids[best] as number))) best = k;
    }
    taken[best] = 1;
    yield best;
  }
  const rest = [...ids.keys()].filter((k) => taken[k] === 0);
  rest.sort((a, b) => (sims[b] as number) - (sims[a] as number) || (ids[a] as number) - (ids[b] as number));
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

/** Creates an empty memory index. */
export function createMemoryIndex(): MemoryIndex {
  let entries: (Entry | undefined)[] = [];
  // Per hashed term, the ids of the entries that hold it; per tag, the id of its newest version.
  let postings = new Map<number, number[]>();
  let latest = new Map<string, number>();
  const pages = new Map<number, number[]>();
  let dead = 0;
  // Per hashed term, the live entries that hold it (the postings keep dead ids until the next compaction).
  let df = new Map<number, number>();

  let scratch = new Float64Array(0);
  // 1 for a live entry, by id: the postings keep dead ids, and a typed array answers without loading the entry.
  let alive = new Uint8Array(64);
  // Each entry's IDF length, as of the load it was computed at: a load changes the IDF, so it is computed anew.
  let loads = 0;
  let norms: number[] = [];
  let normAt: number[] = [];

  function kill(id: number): void {
    const entry = entries[id];
    if (!entry) return;
    entries[id] = undefined;
    alive[id] = 0;
    dead++;
    for (const term of entry.terms) df.set(term, (df.get(term) as number) - 1);
  }

  /** Indexes an entry, unless a newer version of its request is indexed: the later page, or later in a page, wins. */
  function add(entry: Entry): void {
    const was = latest.get(entry.tag);
    const older = was === undefined ? undefined : entries[was];
    if (older && older.order > entry.order) return;
    if (older) kill(was as number);
    const id = entries.length;
    entries.push(entry);
    if (id >= alive.length) {
      const grown = new Uint8Array(alive.length * 2);
      grown.set(alive);
      alive = grown;
    }
    alive[id] = 1;
    latest.set(entry.tag, id);
    for (const term of entry.terms) {
      const list = postings.get(term);
      if (list) list.push(id);
      else postings.set(term, [id]);
      df.set(term, (df.get(term) ?? 0) + 1);
    }
    (pages.get(entry.page) ?? pages.set(entry.page, []).get(entry.page))?.push(id);
  }

  /** Drops the ids of dead entries from the postings once they are a third of all. */
  function compact(): void {
    if (dead * 3 < entries.length || entries.length < 64) return;
    const live = entries.filter((entry): entry is Entry => entry !== undefined);
    entries = [];
    alive.fill(0);
    norms = [];
    normAt = [];
    postings = new Map();
    latest = new Map();
    df = new Map();
    pages.clear();
    dead = 0;
    for (const entry of live) add(entry);
  }

  function remove(n: number): void {
    for (const id of pages.get(n) ?? []) {
      const entry = entries[id];
      if (!entry) continue;
      kill(id);
      if (latest.get(entry.tag) === id) latest.delete(entry.tag);
    }
    pages.delete(n);
  }

  /**
   * The past requests most similar to `terms` (those its rarest terms find until CANDIDATES are found, the term that
   * passes the bound adding all it holds), by cosine over IDF-weighted term sets, and the largest similarity.
   */
  function similar(terms: readonly number[]): { found: number[]; sims: Float64Array; nearest: number } | undefined {
    const live = entries.length - dead;
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

  return {
    load(n, loaded) {
      loads++;
      remove(n);
      // A request only grows (more terms, more tools) while its turn lasts, so its newest version is its largest,
      // whichever lane or page holds it.
      for (const [k, entry] of loaded.entries()) {
        const order = (entry.terms.length + entry.tools.length) * 1e13 + n * 1e4 + k;
        add({ ...entry, tag: `${entry.session}:${entry.turn}`, page: n, order });
      }
      compact();
    },

    retain(keep) {
      const old = [...pages.keys()].filter((n) => !keep.has(n));
      if (old.length === 0) return;
      loads++;
      for (const n of old) remove(n);
      compact();
    },

    vote(terms, { neighbours, gate, agree, half }) {
      const near = similar(terms);
      if (!near || near.nearest < gate) return new Map();
      const { found, sims, nearest } = near;
      // Each session votes once, with its most similar request; a tool gets a vote only from enough sessions.
      const voters: number[] = [];
      const sessions: number[] = [];
      for (const k of mostSimilar(found, sims)) {
        const { session } = entries[found[k] as number] as Entry;
        if (!sessions.includes(session)) {
          sessions.push(session);
          voters.push(k);
        }
        if (voters.length === neighbours) break;
      }
      return tally(
        voters.map((k) => [sims[k] as number, (entries[found[k] as number] as Entry).tools]),
        nearest,
        agree,
        half,
      );
    },

    get size() {
      return entries.length - dead;
    },
  };
}
