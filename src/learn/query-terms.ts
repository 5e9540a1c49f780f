// The queries a learner has tokenized, each with its terms hashed and their repeats found, in one pass and one
// object: every round re-sends the history's searches, and a search's terms serve the table's shards, the memory's
// vote and the sets'.

import { fnv1a } from '../search/fnv.ts';
import { queryTermsAndStopwords } from '../search/rank.ts';
import { stopwordHash, termHash } from './term-hash.ts';

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
  /**
   * What the memory keeps and matches of the query: the terms' hashes, then those of the stopwords the ranker dropped
   * (each as `~word`), each once. Requests written from one template differ by little more than "for my" or "and",
   * which tell apart which tools they led to (bench/TUNING.md); the table and the keyword ranking never see them.
   */
  readonly memoryHashes: readonly number[];
}

/** A learner's tokenized queries. */
export interface QueryTerms {
  /** The query tokenized, hashed and its repeats found (kept for the latest queries). */
  of(query: string): Query;
}

/**
 * One generation of the cache: its queries' texts and their reads by place, found through an open-addressed table of
 * (place plus one, hash of the text) pairs at most half full.
 */
interface Generation {
  readonly slots: Int32Array;
  readonly texts: string[];
  readonly reads: Query[];
}

/** Slots of a generation's table: at least twice the queries it holds. */
const SLOTS = 2 ** Math.ceil(Math.log2(QUERIES_KEPT));

const generation = (): Generation => ({ slots: new Int32Array(2 * SLOTS), texts: [], reads: [] });

/** The slot holding the query of text `text` (hash `h`), or the empty one where it would go. */
function slotOf({ slots, texts }: Generation, text: string, h: number): number {
  let at = h & (SLOTS - 1);
  for (let s = slots[2 * at] as number; s !== 0; s = slots[2 * at] as number) {
    if (slots[2 * at + 1] === h && texts[s - 1] === text) break;
    at = (at + 1) & (SLOTS - 1);
  }
  return at;
}

/** The query of text `text` (hash `h`) a generation holds, if any. */
function heldIn(gen: Generation, text: string, h: number): Query | undefined {
  const s = gen.slots[2 * slotOf(gen, text, h)] as number;
  return s === 0 ? undefined : gen.reads[s - 1];
}

/** Creates the cache of a learner's tokenized queries. */
export function createQueryTerms(): QueryTerms {
  // The latest queries in two generations: when the newer holds half of QUERIES_KEPT, it becomes the older, and the
  // older is emptied to be the newer. Each finds a query by a hash of its text in a table of its own, not a Map: a
  // search's query is new text, and a Map's two lookups and new entry cost a search about 2 us in place, where
  // reading one slot of each table costs 0.8 us less (bench/TUNING.md). A Map that forgot its oldest entry at each
  // new query cost a new query about 2 us more (deleting from a Map's front leaves holes that finding the next oldest
  // walks).
  let recent = generation();
  let older = generation();
  const add = (text: string, h: number, query: Query): void => {
    if (recent.texts.length >= QUERIES_KEPT / 2) {
      const emptied = older;
      emptied.slots.fill(0);
      emptied.texts.length = 0;
      emptied.reads.length = 0;
      [older, recent] = [recent, emptied];
    }
    const at = slotOf(recent, text, h);
    recent.texts.push(text);
    recent.reads.push(query);
    recent.slots[2 * at] = recent.texts.length;
    recent.slots[2 * at + 1] = h;
  };
  // By hash, the place plus one of the first term holding it (0 for none), open addressing; zeroed after each query.
  let table = new Int32Array(64);
  // By place, the slot its term took (-1 for a repeat).
  let used = new Int32Array(32);
  function read(query: string): Query {
    const { terms, stops } = queryTermsAndStopwords(query);
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
    const memoryHashes = stops.length === 0 ? hashes : [...hashes];
    for (const word of stops) memoryHashes.push(stopwordHash(word));
    return { terms, hashes, first, memoryHashes };
  }
  return {
    of(query) {
      const h = fnv1a(query) | 0;
      const known = heldIn(recent, query, h);
      if (known) return known;
      const kept = heldIn(older, query, h) ?? read(query);
      add(query, h, kept);
      return kept;
    },
  };
}
