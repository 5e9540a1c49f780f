// A loaded index finds its terms and tool names through open-addressing tables made at deploy time: filling Maps
// with the 10,000s of terms and names of a large catalogue was a fifth of a load, and a query looks up only a handful.
import { fnv1a } from './fnv.ts';

/** Term ids by term: a built index's Map, or a loaded index's table. */
export interface Terms {
  get(term: string): number | undefined;
  readonly size: number;
  keys(): Iterable<string>;
}

/** Tool ids by lower-cased name: a built index's Map, or a loaded index's table. */
export interface Names {
  get(name: string): Iterable<number> | undefined;
}

/** The table's slots for these distinct terms: a power of two at least twice their count, term id + 1 or 0 for none. */
export function termSlots(terms: readonly string[]): Int32Array {
  let size = 16;
  while (size < terms.length * 2) size *= 2;
  const slots = new Int32Array(size);
  const mask = size - 1;
  terms.forEach((term, id) => {
    let s = fnv1a(term) & mask;
    while (slots[s]) s = (s + 1) & mask;
    slots[s] = id + 1;
  });
  return slots;
}

/** Whether slots can serve as the table of this many keys: a power of two in size, each id once, and a free slot. */
export function fitsSlots(slots: Int32Array, count: number): boolean {
  if (slots.length < 2 || (slots.length & (slots.length - 1)) !== 0) return false;
  const seen = new Uint8Array(count + 1);
  let used = 0;
  for (let s = 0; s < slots.length; s++) {
    const v = slots[s] as number;
    if (v < 0 || v > count || (v && seen[v])) return false;
    if (v) {
      seen[v] = 1;
      used++;
    }
  }
  // A free slot ends every probe, so a lookup of an unknown key stops.
  return used === count && used < slots.length;
}

/** The id of the key in the table, which `is(id)` confirms, or -1. */
function find(slots: Int32Array, key: string, is: (id: number) => boolean): number {
  const mask = slots.length - 1;
  for (let s = fnv1a(key) & mask; ; s = (s + 1) & mask) {
    const id = (slots[s] as number) - 1;
    if (id < 0 || is(id)) return id;
  }
}

/** The terms (in id order) looked up through their slots. */
export function termTable(terms: readonly string[], slots: Int32Array): Terms {
  return {
    size: terms.length,
    keys: () => terms,
    get(term) {
      const id = find(slots, term, (t) => terms[t] === term);
      return id < 0 ? undefined : id;
    },
  };
}

/**
 * Tool ids by lower-cased name, name by name: name g's tools are at [start[g], start[g + 1]) of `ids`, and `nameAt`
 * gives a tool's lower-cased name, which confirms a slot.
 */
export function nameTable(
  slots: Int32Array,
  start: Int32Array,
  ids: Int32Array,
  nameAt: (id: number) => string,
): Names {
  return {
    get(name) {
      const g = find(slots, name, (n) => nameAt(ids[start[n] as number] as number) === name);
      return g < 0 ? undefined : ids.subarray(start[g] as number, start[g + 1] as number);
    },
  };
}
