// The queries a learner has tokenized, each with its terms hashed and their repeats found, in one pass and one
// object: every round re-sends the history's searches, and a search's terms serve the table's shards, the memory's
// vote and the sets'.
import { queryTerms } from '../search/rank.ts';
import { termHash } from './memory.ts';

/** Queries kept tokenized, at most (at least half as many): every round re-sends the history's searches. */
const QUERIES_KEPT = 2000;

/** A map that forgets its oldest entry past `max`. */
export function rememberRecent<V>(map: Map<string, V>, key: string, value: V, max: number): V {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(key, value);
  return value;
}

/** A query as the learner reads it. Never changed: the same object for the same query while it is kept. */
export interface Query {
  /** The query's terms as the ranker tokenizes them. */
  readonly terms: readonly string[];
  /** The terms hashed, as the memory keeps them and as the table picks their shards. */
  readonly hashes: readonly number[];
  /** Per term, whether this is its first place in the query (a term that recurs counts once). */
  readonly first: readonly boolean[];
}

/** A learner's tokenized queries. */
export interface QueryTerms {
  /** The query tokenized, hashed and its repeats found (kept for the latest queries). */
  of(query: string): Query;
}

/** Creates the cache of a learner's tokenized queries. */
export function createQueryTerms(): QueryTerms {
  // The latest queries in two generations: when the newer holds half of QUERIES_KEPT, it becomes the older and the
  // older is dropped. A map that forgot its oldest entry at each new query cost a new query about 2 us (deleting from
  // a Map's front leaves holes that finding the next oldest walks).
  let recent = new Map<string, Query>();
  let older = new Map<string, Query>();
  // By hash, the place plus one of the first term holding it (0 for none), open addressing; zeroed after each query.
  let table = new Int32Array(64);
  // By place, the slot its term took (-1 for a repeat).
  let used = new Int32Array(32);
  function read(query: string): Query {
    const terms = queryTerms(query);
    const n = terms.length;
    const hashes = new Array<number>(n);
    const first = new Array<boolean>(n);
    if (table.length < 2 * n) {
      table = new Int32Array(2 ** Math.ceil(Math.log2(4 * n)));
      used = new Int32Array(table.length);
    }
    const mask = table.length - 1;
    for (let k = 0; k < n; k++) {
      const term = terms[k] as string;
      const h = termHash(term);
      hashes[k] = h;
      let i = h & mask;
      let at = table[i] as number;
      while (at !== 0 && !(hashes[at - 1] === h && terms[at - 1] === term)) {
        i = (i + 1) & mask;
        at = table[i] as number;
      }
      first[k] = at === 0;
      if (at === 0) {
        table[i] = k + 1;
        used[k] = i;
      } else used[k] = -1;
    }
    for (let k = 0; k < n; k++) if ((used[k] as number) >= 0) table[used[k] as number] = 0;
    return { terms, hashes, first };
  }
  return {
    of(query) {
      let known = recent.get(query);
      if (known) return known;
      known = older.get(query) ?? read(query);
      if (recent.size >= QUERIES_KEPT / 2) [older, recent] = [recent, new Map()];
      recent.set(query, known);
      return known;
    },
  };
}
