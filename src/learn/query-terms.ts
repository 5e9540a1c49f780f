// The queries a learner has tokenized, and their terms hashed: every round re-sends the history's searches, and a
// search's terms are hashed (and their repeats found) once for both the table's shards and the memory's vote.
import { queryTerms } from '../search/rank.ts';
import { termHash } from './memory.ts';

/** Queries kept tokenized: every round re-sends the history's searches. */
const QUERIES_KEPT = 2000;

/** A map that forgets its oldest entry past `max`. */
export function rememberRecent<V>(map: Map<string, V>, key: string, value: V, max: number): V {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(key, value);
  return value;
}

/** A learner's tokenized queries and hashed terms. */
export interface QueryTerms {
  /** The query's terms as the ranker tokenizes them (the same array for the same query while it is kept). */
  termsOf(query: string): readonly string[];
  /** The terms hashed, as the memory keeps them and as the table picks their shards. */
  hashesOf(terms: readonly string[]): readonly number[];
  /** Per term, whether this is its first place in the query (a term that recurs counts once). */
  firstOf(terms: readonly string[]): readonly boolean[];
}

/** Creates the caches of a learner's tokenized queries and their hashed terms. */
export function createQueryTerms(): QueryTerms {
  const tokenized = new Map<string, readonly string[]>();
  const termsOf = (query: string) =>
    tokenized.get(query) ?? rememberRecent(tokenized, query, queryTerms(query), QUERIES_KEPT);
  // Keyed by the tokenized array itself, so a hash list lives as long as its query is kept.
  const hashed = new WeakMap<readonly string[], readonly number[]>();
  const hashesOf = (terms: readonly string[]): readonly number[] => {
    let hashes = hashed.get(terms);
    if (!hashes) {
      hashes = terms.map(termHash);
      hashed.set(terms, hashes);
    }
    return hashes;
  };
  const firsts = new WeakMap<readonly string[], readonly boolean[]>();
  const firstOf = (terms: readonly string[]): readonly boolean[] => {
    let first = firsts.get(terms);
    if (!first) {
      const seen = new Set<string>();
      first = terms.map((term) => !seen.has(term) && seen.add(term) === seen);
      firsts.set(terms, first);
    }
    return first;
  };
  return { termsOf, hashesOf, firstOf };
}
