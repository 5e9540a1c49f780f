// Terms as the memory keeps them: hashed, the query's stopwords apart from its terms.
import { fnv1a } from '../search/fnv.ts';
import { stopwords } from '../search/stopwords.ts';
import { TERM_MASK } from './memory-pages.ts';

/**
 * A query term as the memory keeps it: hashed, so no stored value holds a word of a user's request; 30 bits, five
 * characters in a page (the table's shards, picked by the hash's low bits, are the same as with all 32).
 */
export const termHash = (term: string): number => fnv1a(term) & TERM_MASK;

/** A stopword as the memory keeps it: hashed apart from every term (no term holds a tilde). */
export const stopwordHash = (word: string): number => termHash(`~${word}`);

let stopHashes: Set<number> | undefined;

/** Whether a hash the memory keeps is a stopword's: such a term tells apart the requests a term found, and finds none. */
export function isStopwordHash(hash: number): boolean {
  stopHashes ??= new Set([...stopwords()].map(stopwordHash));
  return stopHashes.has(hash);
}
