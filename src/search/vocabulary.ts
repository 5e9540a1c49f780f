// The vocabulary of an index in sorted order, and the query terms' prefix relatives found through it.
import { type BuiltIndex, PARAMS } from './build.ts';
import { memo, memosOf } from './scratch.ts';

// Query terms of this length or more also match the vocabulary's longer and shorter forms ("rental" and "rent").
const PREFIX = 4;

/** The vocabulary in sorted order (joined forms aside), for prefix lookups: the words and their term ids. */
export interface Vocabulary {
  readonly words: readonly string[];
  readonly ids: Int32Array;
}

const vocabularies = new WeakMap<BuiltIndex, Vocabulary>();

/** The index's sorted vocabulary, sorted on first use (a loaded index brings it along). */
export function sortedVocabulary(ix: BuiltIndex): Vocabulary {
  let v = vocabularies.get(ix);
  if (!v) {
    const words = [...ix.terms.keys()].filter((_, t) => !ix.whole[t]).sort();
    v = { words, ids: Int32Array.from(words, (w) => ix.terms.get(w) as number) };
    vocabularies.set(ix, v);
  }
  return v;
}

/** Gives a loaded index the sorted vocabulary it was saved with: term ids in order, and every term by id. */
export function seedVocabulary(ix: BuiltIndex, ids: Int32Array, terms: readonly string[]): void {
  vocabularies.set(ix, { words: Array.from(ids, (t) => terms[t] as string), ids });
}

/** Term ids to score for a query, each with its weight: the terms themselves, then their prefix relatives at a lower weight. */
export function expand(ix: BuiltIndex, terms: readonly string[]): Map<number, [slot: number, weight: number]> {
  const out = new Map<number, [number, number]>();
  terms.forEach((term, slot) => {
    const t = ix.terms.get(term);
    if (t !== undefined) out.set(t, [slot, 1]);
  });
  const { prefixes } = memosOf(ix);
  terms.forEach((term, slot) => {
    if (term.length < PREFIX) return;
    for (const t of memo(prefixes, term, (word) => relatives(ix, word)))
      if (!out.has(t)) out.set(t, [slot, PARAMS.prefix]);
  });
  return out;
}

/** Vocabulary terms that start with the term, or that it starts with (at least PREFIX characters). */
function relatives(ix: BuiltIndex, term: string): number[] {
  const out: number[] = [];
  for (let len = PREFIX; len < term.length; len++) {
    const t = ix.terms.get(term.slice(0, len));
    if (t !== undefined && !ix.whole[t]) out.push(t);
  }
  const { words, ids } = sortedVocabulary(ix);
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((words[mid] as string) <= term) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < words.length && (words[i] as string).startsWith(term); i++) out.push(ids[i] as number);
  return out;
}
