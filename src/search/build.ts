import type { Tool } from '../types.ts';
import { type Fields, toolFields } from './fields.ts';
import { buildSubstring, type SubstringIndex } from './substring.ts';
import { tokenize } from './tokenize.ts';

/** Opaque, built once per catalogue and cached. */
export interface ToolIndex {
  readonly size: number;
}

/** The built index: BM25F postings with saturation applied, exact names, and the substring floor. */
export interface BuiltIndex extends ToolIndex {
  readonly terms: ReadonlyMap<string, number>;
  /** Term t's postings are at [start[t], start[t + 1]) of `docs` and `weights`. */
  readonly start: Int32Array;
  readonly docs: Int32Array;
  /** The saturated BM25F term frequency, negative when the term is in the tool's name. */
  readonly weights: Float32Array;
  /** Per tool: how many distinct terms its name has. */
  readonly nameTerms: Uint16Array;
  readonly names: ReadonlyMap<string, readonly number[]>;
  readonly substring: SubstringIndex;
  /** The indexed texts, to recognise an equal catalogue without rebuilding. */
  readonly fields: readonly Fields[];
}

/** Ranking constants, shared by build and query so that tuning touches one place. */
export const PARAMS: {
  k1: number;
  weight: number[];
  b: number[];
  nameBoost: number;
  exactName: number;
  prefix: number;
  coord: number;
  substring: number;
} = {
  k1: 1.2,
  // Name, description, parameter names, parameter descriptions: a name is a summary, a parameter text a detail.
  weight: [3, 1, 0.6, 0.3],
  b: [0.5, 0.75, 0.5, 0.75],
  nameBoost: 0.5,
  exactName: 10,
  prefix: 0.5,
  coord: 0.3,
  substring: 0.2,
};

// Builds allocate typed arrays rather than many small arrays: on a busy runtime the garbage collector, not the arithmetic, is the cost.
const grow = <T extends Int32Array | Float32Array>(a: T, size: number): T => {
  if (size <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2));
  b.set(a);
  return b;
};

/** Builds the index of a catalogue. */
export function buildIndex(tools: readonly Tool[], fields: readonly Fields[] = tools.map(toolFields)): BuiltIndex {
  const n = fields.length;
  const terms = new Map<string, number>();
  const termId = (term: string): number => {
    let t = terms.get(term);
    if (t === undefined) {
      t = terms.size;
      terms.set(term, t);
    }
    return t;
  };
  // Catalogues repeat their words: each distinct white-space chunk is tokenized once, found again by a hash of its characters.
  const chunkText: string[] = [];
  const chunkTerms: number[][] = [];
  const chunkSub: number[] = [];
  let slots: Int32Array = new Int32Array(1 << 12);
  let hashes: Int32Array = new Int32Array(slots.length);
  const subIds = new Map<string, number>();
  const subChunks: string[] = [];
  const subDocs: number[][] = [];
  let flat: Int32Array = new Int32Array(1 << 16);
  let used = 0;
  const bounds = new Int32Array(n * 4 + 1);
  const avg = [0, 0, 0, 0];
  for (let doc = 0; doc < n; doc++) {
    (fields[doc] as Fields).forEach((text, f) => {
      bounds[doc * 4 + f] = used;
      let begin = 0;
      let h = 0;
      for (let i = 0; i <= text.length; i++) {
        const c = i < text.length ? text.charCodeAt(i) : 32;
        if (c > 32) {
          h = Math.imul(h ^ c, 16777619);
          continue;
        }
        if (i > begin) {
          const mask = slots.length - 1;
          let slot = h & mask;
          let id = -1;
          for (let k = slots[slot] as number; k; k = slots[slot] as number) {
            const known = chunkText[k - 1] as string;
            if (hashes[slot] === h && known.length === i - begin && text.startsWith(known, begin)) {
              id = k - 1;
              break;
            }
            slot = (slot + 1) & mask;
          }
          if (id < 0) {
            id = chunkText.length;
            const chunk = text.slice(begin, i);
            chunkText.push(chunk);
            chunkTerms.push(tokenize(chunk).map(termId));
            chunkSub.push(-1);
            slots[slot] = id + 1;
            hashes[slot] = h;
            if (chunkText.length * 2 > slots.length) [slots, hashes] = rehash(slots, hashes);
          }
          const ids = chunkTerms[id] as number[];
          flat = grow(flat, used + ids.length);
          for (const t of ids) flat[used++] = t;
          if (f < 2) {
            let sub = chunkSub[id] as number;
            if (sub < 0) {
              const lower = (chunkText[id] as string).toLowerCase();
              sub = subIds.get(lower) ?? subChunks.length;
              if (sub === subChunks.length) {
                subIds.set(lower, sub);
                subChunks.push(lower);
                subDocs.push([]);
              }
              chunkSub[id] = sub;
            }
            const list = subDocs[sub] as number[];
            if (list[list.length - 1] !== doc) list.push(doc);
          }
        }
        begin = i + 1;
        h = 0;
      }
      avg[f] = (avg[f] as number) + (used - (bounds[doc * 4 + f] as number)) / n;
    });
  }
  bounds[n * 4] = used;
  return {
    size: n,
    terms,
    ...postings(n, terms.size, flat, bounds, avg),
    names: namesOf(fields),
    substring: buildSubstring(subChunks, subDocs),
    fields,
  };
}

/** Turns each tool's term ids into BM25F postings, grouped by term. */
function postings(n: number, vocabulary: number, flat: Int32Array, bounds: Int32Array, avg: number[]) {
  const { k1, weight, b } = PARAMS;
  const seen = new Int32Array(vocabulary).fill(-1);
  const start = new Int32Array(vocabulary + 1);
  for (let doc = 0; doc < n; doc++) {
    for (let i = bounds[doc * 4] as number; i < (bounds[doc * 4 + 4] as number); i++) {
      const t = flat[i] as number;
      if (seen[t] !== doc) {
        seen[t] = doc;
        start[t + 1] = (start[t + 1] as number) + 1;
      }
    }
  }
  for (let t = 0; t < vocabulary; t++) start[t + 1] = (start[t + 1] as number) + (start[t] as number);
  const cursor = start.slice(0, vocabulary);
  const docs = new Int32Array(start[vocabulary] as number);
  const weights = new Float32Array(docs.length);
  const nameTerms = new Uint16Array(n);
  const acc = new Float64Array(vocabulary);
  const named = new Uint8Array(vocabulary);
  const touched: number[] = [];
  for (let doc = 0; doc < n; doc++) {
    for (let f = 0; f < 4; f++) {
      const from = bounds[doc * 4 + f] as number;
      const to = bounds[doc * 4 + f + 1] as number;
      const bf = b[f] as number;
      const w = (weight[f] as number) / (1 - bf + (bf * (to - from)) / ((avg[f] as number) || 1));
      for (let i = from; i < to; i++) {
        const t = flat[i] as number;
        if (!acc[t]) touched.push(t);
        acc[t] = (acc[t] as number) + w;
        if (f === 0 && !named[t]) {
          named[t] = 1;
          nameTerms[doc] = (nameTerms[doc] as number) + 1;
        }
      }
    }
    for (const t of touched) {
      const tf = acc[t] as number;
      const at = (cursor[t] as number) + 0;
      cursor[t] = at + 1;
      docs[at] = doc;
      weights[at] = (named[t] ? -1 : 1) * ((tf * (k1 + 1)) / (k1 + tf));
      acc[t] = named[t] = 0;
    }
    touched.length = 0;
  }
  return { start, docs, weights, nameTerms };
}

/** Tool ids by lower-cased name, for the exact-name boost. */
function namesOf(fields: readonly Fields[]): Map<string, number[]> {
  const names = new Map<string, number[]>();
  fields.forEach((f, id) => {
    const name = f[0].toLowerCase();
    const same = names.get(name);
    if (same) same.push(id);
    else names.set(name, [id]);
  });
  return names;
}

/** Doubles an open-addressing table of chunk ids keyed by hash. */
function rehash(slots: Int32Array, hashes: Int32Array): [Int32Array, Int32Array] {
  const size = slots.length * 2;
  const s = new Int32Array(size);
  const h = new Int32Array(size);
  slots.forEach((id, i) => {
    if (!id) return;
    let j = (hashes[i] as number) & (size - 1);
    while (s[j]) j = (j + 1) & (size - 1);
    s[j] = id;
    h[j] = hashes[i] as number;
  });
  return [s, h];
}
