// A shard's terms as a search reads them for one catalogue: per term a slot, and every slot's postings in one pair of
// contiguous arrays (tool ids, and IDF · a(t, x) at the clock they were computed for). A search then does one map
// lookup per term and one scan, instead of visiting each stored entry, its postings and what was resolved of them:
// searches read few values, but cold (each round's other work evicts them), so what they touch counts more than
// what they compute.
import type { Catalogue } from '../core/catalogue.ts';
import type { BuiltIndex } from '../search/build.ts';
import { idfOf } from '../search/rank.ts';
import { fade, type Posting, type Shard, type TermEntry } from './table.ts';

/** A shard's terms resolved for one catalogue and half-life: filled a term at a time, as searches ask for them. */
export interface CompiledShard {
  readonly catalogue: Catalogue;
  readonly halfLife: number;
  /** Per term asked for, its slot (a term the shard lacks has one too, with no postings). */
  readonly slots: Map<string, number>;
  /** Per slot: the stored entry, the term's IDF in the catalogue, the clock its adds are at, its postings' range. */
  readonly entries: (TermEntry | undefined)[];
  idf: Float64Array;
  at: Float64Array;
  begin: Int32Array;
  /** Per posting: the tool's id (-1 for a tool the catalogue lacks), and its add at its slot's clock. */
  ids: Int32Array;
  adds: Float64Array;
  /** Postings held. */
  size: number;
}

/**
 * Per stored shard (a new object whenever a commit writes it; its unchanged entries are the same objects): searches
 * compile it once per catalogue, shared by every layer of the isolate that reads it.
 */
const compiled = new WeakMap<object, CompiledShard>();

/** A term's entry in a shard; its own entries are arrays (what a shard's prototype answers for "constructor" never is). */
function entryIn(x: Shard['x'], term: string): TermEntry | undefined {
  const entry = x[term];
  return Array.isArray(entry) ? entry : undefined;
}

/** A term's IDF in a catalogue (0 documents for a term it lacks). */
export function idfIn(ix: BuiltIndex, term: string): number {
  const t = ix.terms.get(term);
  return idfOf(ix.size, t === undefined ? 0 : (ix.start[t + 1] as number) - (ix.start[t] as number));
}

/** The shard `x` compiled for `catalogue` at `halfLife`: the one already made when it is for the same. */
export function compiledShard(x: Shard['x'], catalogue: Catalogue, halfLife: number): CompiledShard {
  const known = compiled.get(x);
  if (known && known.catalogue === catalogue && known.halfLife === halfLife) return known;
  const made: CompiledShard = {
    catalogue,
    halfLife,
    slots: new Map(),
    entries: [],
    idf: new Float64Array(16),
    at: new Float64Array(16),
    begin: new Int32Array(17),
    ids: new Int32Array(64),
    adds: new Float64Array(64),
    size: 0,
  };
  compiled.set(x, made);
  return made;
}

/** Grows a typed array to hold at least `size`, keeping what it holds. */
function grow<A extends Int32Array | Float64Array>(a: A, size: number): A {
  if (a.length >= size) return a;
  const out = new (a.constructor as new (n: number) => A)(Math.max(size, a.length * 2));
  out.set(a);
  return out;
}

/** Slots a compiled shard holds at most: a shard no commit replaces would otherwise keep every term ever asked. */
const MAX_SLOTS = 4096;

/** Appends a term's slot: its entry's tools by id, and its IDF. */
function addSlot(c: CompiledShard, x: Shard['x'], term: string): number {
  if (c.entries.length >= MAX_SLOTS) {
    c.slots.clear();
    c.entries.length = 0;
    c.size = 0;
  }
  const slot = c.entries.length;
  const entry = entryIn(x, term);
  const postings = entry?.[2] ?? [];
  c.entries.push(entry);
  c.slots.set(term, slot);
  c.idf = grow(c.idf, slot + 1);
  c.at = grow(c.at, slot + 1);
  c.begin = grow(c.begin, slot + 2);
  c.ids = grow(c.ids, c.size + postings.length);
  c.adds = grow(c.adds, c.size + postings.length);
  c.idf[slot] = idfIn(c.catalogue.index as BuiltIndex, term);
  c.at[slot] = Number.NaN;
  c.begin[slot] = c.size;
  for (const [tool] of postings) c.ids[c.size++] = c.catalogue.byName.get(tool) ?? -1;
  c.begin[slot + 1] = c.size;
  return slot;
}

/**
 * The slot of `term` in a compiled shard, its adds brought to clock `u`: each posting's IDF · a(t, x), computed again
 * only when the clock moved.
 */
export function slotOf(c: CompiledShard, x: Shard['x'], term: string, u: number): number {
  const slot = c.slots.get(term) ?? addSlot(c, x, term);
  if (c.at[slot] === u) return slot;
  const entry = c.entries[slot];
  c.at[slot] = u;
  if (!entry) return slot;
  const [searched, touched, postings] = entry;
  const { halfLife, adds } = c;
  const idf = c.idf[slot] as number;
  const n = searched * fade(u, touched, halfLife);
  const from = c.begin[slot] as number;
  // Postings committed together share their clock: their fade is computed once.
  let lastAt = Number.NaN;
  let left = 1;
  for (let i = 0; i < postings.length; i++) {
    const posting = postings[i] as Posting;
    const credit = posting[1];
    const m = posting[2];
    const at = posting[3];
    if (at !== lastAt) {
      lastAt = at;
      left = fade(u, at, halfLife);
    }
    const sessions = m * left;
    adds[from + i] = idf * (((credit * left) / (n + 2)) * (sessions / (sessions + 2)));
  }
  return slot;
}
