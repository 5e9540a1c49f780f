import type { BuiltIndex } from './build.ts';

/** Per-tool accumulators of one query, left zeroed after it. */
export interface Scratch {
  readonly score: Float64Array;
  readonly sub: Float64Array;
  /** The IDF of the query terms each tool holds. */
  readonly covered: Float64Array;
  readonly named: Uint16Array;
  readonly seen: Uint8Array;
  /** The tools the query touched, in the order it touched them (the first `count` of a query's own count). */
  readonly touched: Int32Array;
}

// Allocating these per query cost more than the scoring itself, so each index keeps one set.
const buffers = new WeakMap<BuiltIndex, Scratch>();
const memos = new WeakMap<BuiltIndex, Memos>();

/** Fresh accumulators for n tools. */
const fresh = (n: number): Scratch => ({
  score: new Float64Array(n),
  sub: new Float64Array(n),
  covered: new Float64Array(n),
  named: new Uint16Array(n),
  seen: new Uint8Array(n),
  touched: new Int32Array(n),
});

/** Takes the index's accumulators (fresh ones if a `visible` callback re-entered a search); give them back zeroed with `release`. */
export function acquire(ix: BuiltIndex): Scratch {
  const s = buffers.get(ix);
  if (!s) return fresh(ix.size);
  buffers.delete(ix);
  return s;
}

/** Returns zeroed accumulators for the next query. */
export function release(ix: BuiltIndex, s: Scratch): void {
  buffers.set(ix, s);
}

/**
 * An index's memos of lookups whose answer depends on the catalogue alone (agents repeat their words): the tools a
 * keyword is a substring of, and a term's prefix relatives. Keyed by the word itself, one map per kind: a string
 * keeps its hash once computed, where a key made by prefixing the kind was a new string to join and hash on every
 * lookup (about 3 us of a long request's search at 4,076 tools).
 */
export interface Memos {
  readonly keywords: Map<string, number[]>;
  readonly prefixes: Map<string, number[]>;
}

/** The index's memos. */
export function memosOf(ix: BuiltIndex): Memos {
  let kept = memos.get(ix);
  if (!kept) {
    kept = { keywords: new Map(), prefixes: new Map() };
    memos.set(ix, kept);
  }
  return kept;
}

/** `key`'s value in `cache`, made by `make` the first time it is asked. */
export function memo(cache: Map<string, number[]>, key: string, make: (key: string) => number[]): number[] {
  let value = cache.get(key);
  if (!value) {
    // Bounded: dropping the older half keeps the cost of a refill low.
    if (cache.size >= 16384) for (const old of [...cache.keys()].slice(0, 8192)) cache.delete(old);
    value = make(key);
    cache.set(key, value);
  }
  return value;
}
