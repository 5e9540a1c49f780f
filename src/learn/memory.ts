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
}

/** Per tool name, its share of the neighbours' votes (0 to 1) times the nearest request's similarity. */
export type Votes = Map<string, number>;

/** The memory of one scope as a search reads it: pages loaded in order, indexed by hashed term. */
export interface MemoryIndex {
  /** Replaces page `n` with what the store holds (a page may grow until the next one starts). */
  load(n: number, entries: readonly Remembered[]): void;
  /** Forgets pages below `first` (the oldest go as the bound requires). */
  dropBelow(first: number): void;
  /** The tools the requests most similar to `terms` used, voted. Empty when none is similar enough. */
  vote(terms: readonly number[], settings: VoteSettings): Votes;
  /** Remembered requests, each counted once however often it grew. */
  readonly size: number;
}

interface Entry extends Remembered {
  readonly tag: string;
  readonly page: number;
  /** Where it was stored: page, then position. */
  readonly order: number;
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

  // Each entry's IDF length, as of the load it was computed at: a load changes the IDF, so it is computed anew.
  let loads = 0;
  let norms: number[] = [];
  let normAt: number[] = [];

  function kill(id: number): void {
    const entry = entries[id];
    if (!entry) return;
    entries[id] = undefined;
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

  return {
    load(n, loaded) {
      loads++;
      remove(n);
      for (const [k, entry] of loaded.entries())
        add({ ...entry, tag: `${entry.session}:${entry.turn}`, page: n, order: n * 1e6 + k });
      compact();
    },

    dropBelow(first) {
      const old = [...pages.keys()].filter((n) => n < first);
      if (old.length === 0) return;
      loads++;
      for (const n of old) remove(n);
      compact();
    },

    vote(terms, { neighbours, gate, agree }) {
      const votes: Votes = new Map();
      const live = entries.length - dead;
      if (live === 0) return votes;
      const idf = (df: number) => Math.log(1 + live / df);
      // Cosine over IDF-weighted term sets: the shared terms' weights against both sides' lengths.
      const shared = new Map<number, number>();
      let queryNorm = 0;
      for (const term of new Set(terms)) {
        const list = postings.get(term);
        if (!list || !df.get(term)) continue;
        const w = idf(df.get(term) || 1) ** 2;
        queryNorm += w;
        for (const id of list) if (entries[id]) shared.set(id, (shared.get(id) ?? 0) + w);
      }
      if (shared.size === 0) return votes;
      const scored: [id: number, sim: number][] = [];
      for (const [id, dot] of shared) {
        if (normAt[id] !== loads) {
          let norm = 0;
          for (const term of (entries[id] as Entry).terms) norm += idf(df.get(term) || 1) ** 2;
          norms[id] = norm;
          normAt[id] = loads;
        }
        scored.push([id, dot / Math.sqrt(queryNorm * (norms[id] as number))]);
      }
      scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      const nearest = scored[0]?.[1] ?? 0;
      if (nearest < gate) return votes;
      // Each session votes once, with its most similar request; a tool gets a vote only from enough sessions.
      const voters = new Map<number, [sim: number, tools: readonly string[]]>();
      for (const [id, sim] of scored) {
        const entry = entries[id] as Entry;
        if (!voters.has(entry.session)) voters.set(entry.session, [sim, entry.tools]);
        if (voters.size === neighbours) break;
      }
      let total = 0;
      const sessions = new Map<string, number>();
      for (const [sim, tools] of voters.values()) {
        total += sim;
        for (const tool of tools) {
          votes.set(tool, (votes.get(tool) ?? 0) + sim);
          sessions.set(tool, (sessions.get(tool) ?? 0) + 1);
        }
      }
      for (const [tool, v] of votes) {
        if ((sessions.get(tool) as number) < agree) votes.delete(tool);
        else votes.set(tool, (v / total) * nearest);
      }
      return votes;
    },

    get size() {
      return entries.length - dead;
    },
  };
}
