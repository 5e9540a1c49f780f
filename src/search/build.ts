import type { Tool } from '../base/types.ts';
import { createChunks, scanChunks } from './chunks.ts';
import { type Fields, toolFields } from './fields.ts';
import { buildSubstring, type SubstringIndex } from './substring.ts';
import type { Names, Terms } from './term-table.ts';
import { tokenize } from './tokenize.ts';

/** Opaque, built once per catalogue and cached. */
export interface ToolIndex {
  readonly size: number;
}

/** The built index: BM25F postings with saturation applied, exact names, and the substring floor. */
export interface BuiltIndex extends ToolIndex {
  readonly terms: Terms;
  /** Term t's postings are at [start[t], start[t + 1]) of `docs` and `weights`. */
  readonly start: Int32Array;
  readonly docs: Int32Array;
  /** The saturated BM25F term frequency, negative when the term is in the tool's name. */
  readonly weights: Float32Array;
  /** Per term: 1 when it only occurs as the joined form of camel-case words, which prefix matching skips. */
  readonly whole: Uint8Array;
  /** Per tool: the term ids of its name, -1, its description, -1, its parameter names (joined forms aside), for the second stage. */
  readonly sequence: Int32Array;
  /** Tool d's sequence is at [sequenceStart[d], sequenceStart[d + 1]) of `sequence`. */
  readonly sequenceStart: Int32Array;
  /** Per tool: how many distinct terms its name has (joined forms aside). */
  readonly nameTerms: Uint16Array;
  readonly names: Names;
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
  rerankTop: number;
  stage2: number[];
} = {
  // BM25F as Robertson and Zaragoza define it: length-normalised field frequencies, weighted, summed, then saturated once.
  k1: 2,
  // Name, description, parameter names, parameter descriptions: a name is a summary, a parameter text a detail.
  weight: [3, 1, 0.6, 0.3],
  b: [0.5, 0.75, 0.5, 0.75],
  nameBoost: 0.25,
  exactName: 10,
  prefix: 0.5,
  coord: 0.15,
  substring: 0.1,
  // The second stage (rerank.ts) reorders this many of the best candidates, whatever the page: 30, as many as the
  // phrase bonus it replaces read, because 50 cost about a tenth more query time at 4,076 tools.
  rerankTop: 30,
  // Its weights, in the order of FEATURES after `base`: name, description and parameter-name coverage, share of
  // the name named, adjacent pairs, group evidence. Fitted by bench/tune.ts (bench/TUNING.md); never by hand.
  stage2: [0, 0, 0, 0, 1, 0],
};

/** Builds the index of a catalogue. */
export function buildIndex(tools: readonly Tool[], fields: readonly Fields[] = tools.map(toolFields)): BuiltIndex {
  const n = fields.length;
  const chunks = createChunks();
  // Every text's chunk ids, tool by tool, field by field: text i is at [bounds[i], bounds[i + 1]).
  const bounds = new Int32Array(n * 4 + 1);
  for (let i = 0; i < n * 4; i++) {
    bounds[i] = chunks.count;
    scanChunks(chunks, (fields[i >> 2] as Fields)[i & 3] as string);
  }
  bounds[n * 4] = chunks.count;
  const seq = chunks.seq;
  const terms = new Map<string, number>();
  const split = splitChunks(chunks.texts, terms);
  return {
    size: n,
    terms,
    ...postings(n, terms.size, seq, bounds, split),
    whole: split.whole,
    ...sequences(n, seq, bounds, split),
    names: namesOf(fields.map((f) => f[0])),
    substring: substringOf(n, chunks.texts, seq, bounds),
    fields,
  };
}

/**
 * Each distinct chunk's term ids: chunk c's are at [start[c], start[c + 1]) of `ids`, the joined forms of its
 * camel-case words last, from `own[c]` on (they count toward no length).
 */
function splitChunks(texts: readonly string[], terms: Map<string, number>) {
  const start = new Int32Array(texts.length + 1);
  const own = new Int32Array(texts.length);
  let ids = new Int32Array(texts.length * 2 + 16);
  let count = 0;
  // 1 for a term seen as a word of its own, not only as a joined form.
  let regular = new Uint8Array(1024);
  const out: string[] = [];
  const joined: number[] = [];
  for (let c = 0; c < texts.length; c++) {
    out.length = joined.length = 0;
    tokenize(texts[c] as string, out, joined);
    if (count + out.length > ids.length) {
      const grown = new Int32Array((count + out.length) * 2);
      grown.set(ids);
      ids = grown;
    }
    // Joined forms go last, from own[c] on: the regular terms first, then the joined ones.
    for (let pass = 0; pass < 2; pass++) {
      let j = 0;
      for (let k = 0; k < out.length; k++) {
        const isJoined = joined[j] === k;
        if (isJoined) j++;
        if (isJoined !== (pass === 1)) continue;
        const term = out[k] as string;
        let t = terms.get(term);
        if (t === undefined) {
          t = terms.size;
          terms.set(term, t);
          if (t === regular.length) {
            const grown = new Uint8Array(t * 2);
            grown.set(regular);
            regular = grown;
          }
        }
        if (pass === 0) regular[t] = 1;
        ids[count++] = t;
      }
      if (pass === 0) own[c] = count;
      if (joined.length === 0) break;
    }
    start[c + 1] = count;
  }
  const whole = new Uint8Array(terms.size);
  for (let t = 0; t < terms.size; t++) whole[t] = 1 - (regular[t] as number);
  return { start, own, ids: ids.subarray(0, count), whole };
}

/** The substring floor over names and descriptions: their distinct lower-cased chunks and the tools holding each. */
function substringOf(n: number, texts: readonly string[], seq: Int32Array, bounds: Int32Array): SubstringIndex {
  const sub = new Int32Array(texts.length).fill(-1);
  const ids = new Map<string, number>();
  const lower: string[] = [];
  const docs: number[][] = [];
  for (let i = 0; i < n * 4; i++) {
    if ((i & 3) > 1) continue;
    for (let j = bounds[i] as number; j < (bounds[i + 1] as number); j++) {
      const c = seq[j] as number;
      let s = sub[c] as number;
      if (s < 0) {
        const text = (texts[c] as string).toLowerCase();
        s = ids.get(text) ?? lower.length;
        if (s === lower.length) {
          ids.set(text, s);
          lower.push(text);
          docs.push([]);
        }
        sub[c] = s;
      }
      const list = docs[s] as number[];
      if (list[list.length - 1] !== i >> 2) list.push(i >> 2);
    }
  }
  return buildSubstring(lower, docs);
}

/** Turns each tool's chunks into BM25F postings, grouped by term. */
function postings(
  n: number,
  vocabulary: number,
  seq: Int32Array,
  bounds: Int32Array,
  split: { start: Int32Array; own: Int32Array; ids: Int32Array },
) {
  const { k1, weight, b } = PARAMS;
  const { start: cs, own, ids } = split;
  // Field lengths in terms, and how many tools hold each term.
  const length = new Float64Array(n * 4);
  const avg = [0, 0, 0, 0];
  const seen = new Int32Array(vocabulary).fill(-1);
  const start = new Int32Array(vocabulary + 1);
  for (let i = 0; i < n * 4; i++) {
    let len = 0;
    for (let j = bounds[i] as number; j < (bounds[i + 1] as number); j++) {
      const c = seq[j] as number;
      len += (own[c] as number) - (cs[c] as number);
      for (let k = cs[c] as number; k < (cs[c + 1] as number); k++) {
        const t = ids[k] as number;
        if (seen[t] !== i >> 2) {
          seen[t] = i >> 2;
          start[t + 1] = (start[t + 1] as number) + 1;
        }
      }
    }
    length[i] = len;
    avg[i & 3] = (avg[i & 3] as number) + len / n;
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
      const i = doc * 4 + f;
      const bf = b[f] as number;
      const w = (weight[f] as number) / (1 - bf + (bf * (length[i] as number)) / ((avg[f] as number) || 1));
      for (let j = bounds[i] as number; j < (bounds[i + 1] as number); j++) {
        const c = seq[j] as number;
        for (let k = cs[c] as number; k < (cs[c + 1] as number); k++) {
          const t = ids[k] as number;
          if (!acc[t]) touched.push(t);
          acc[t] = (acc[t] as number) + w;
          if (f === 0 && !named[t]) {
            named[t] = 1;
            if (k < (own[c] as number)) nameTerms[doc] = (nameTerms[doc] as number) + 1;
          }
        }
      }
    }
    for (const t of touched) {
      const tf = acc[t] as number;
      const at = cursor[t] as number;
      cursor[t] = at + 1;
      docs[at] = doc;
      weights[at] = (named[t] ? -1 : 1) * ((tf * (k1 + 1)) / (k1 + tf));
      acc[t] = named[t] = 0;
    }
    touched.length = 0;
  }
  return { start, docs, weights, nameTerms };
}

/** Each tool's name, description and parameter names as term ids in order, -1 between them, for the second stage. */
function sequences(
  n: number,
  seq: Int32Array,
  bounds: Int32Array,
  split: { start: Int32Array; own: Int32Array; ids: Int32Array },
) {
  const { start: cs, own, ids } = split;
  const sequenceStart = new Int32Array(n + 1);
  let size = 0;
  for (let doc = 0; doc < n; doc++) {
    for (let j = bounds[doc * 4] as number; j < (bounds[doc * 4 + 3] as number); j++) {
      const c = seq[j] as number;
      size += (own[c] as number) - (cs[c] as number);
    }
    size += 2;
  }
  const sequence = new Int32Array(size);
  let at = 0;
  for (let doc = 0; doc < n; doc++) {
    sequenceStart[doc] = at;
    for (let f = 0; f < 3; f++) {
      if (f > 0) sequence[at++] = -1;
      for (let j = bounds[doc * 4 + f] as number; j < (bounds[doc * 4 + f + 1] as number); j++) {
        const c = seq[j] as number;
        for (let k = cs[c] as number; k < (own[c] as number); k++) sequence[at++] = ids[k] as number;
      }
    }
  }
  sequenceStart[n] = at;
  return { sequence, sequenceStart };
}

/** Tool ids by lower-cased name (given each tool's indexed name), for the exact-name boost. */
export function namesOf(toolNames: readonly string[]): Map<string, number[]> {
  const names = new Map<string, number[]>();
  toolNames.forEach((n, id) => {
    const name = n.toLowerCase();
    const same = names.get(name);
    if (same) same.push(id);
    else names.set(name, [id]);
  });
  return names;
}
