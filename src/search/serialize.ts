// A Worker pays CPU time for every new isolate that builds its index: the index is made once at deploy time,
// stored as text beside the code, and loaded in a fraction of a build, after checking it was made from the same tools.
import { ToolSearchError } from '../base/errors.ts';
import type { Tool } from '../base/types.ts';
import { type BuiltIndex, buildIndex, PARAMS } from './build.ts';
import { seedToolIndex } from './cache.ts';
import { type Fields, nameOf, partsOf, toolFields } from './fields.ts';
import { fingerprintTools } from './fingerprint.ts';
import { loadSubstring } from './substring.ts';
import { fitsSlots, nameTable, termSlots, termTable } from './term-table.ts';
import { seedVocabulary, sortedVocabulary } from './vocabulary.ts';

// Bumped whenever the tokeniser or the index layout changes; the ranking constants are part of the version too.
// @2: the terms travel as one string (parsing 10,000s of JSON strings cost more than splitting one), integer
// arrays as 16 bits when their values fit, weights as a palette, and hash tables of the terms and names come along.
// @3: each tool's term sequence holds its parameter names too (the second stage reads them).
const FORMAT = 'tool-search-layer/index@3';
const version = (): string => `${FORMAT} ${JSON.stringify([PARAMS.k1, PARAMS.weight, PARAMS.b])}`;

// Terms come from chunks split at every character up to the space, so none holds a line break.
const TERM_SEPARATOR = '\n';

interface Serialized {
  version: string;
  fingerprint: string;
  size: number;
  terms: string;
  arrays: Record<(typeof ARRAYS)[number], string>;
  text: string;
}

const ARRAYS = [
  'start',
  'docs',
  'weights',
  'nameTerms',
  'whole',
  'sequence',
  'sequenceStart',
  'starts',
  'docStart',
  'docIds',
  'vocabulary',
  'slots',
  'nameSlots',
  'nameStart',
  'nameIds',
] as const;

// Typed arrays travel as base64 of their bytes (little-endian, as every runtime this library targets is).
function encode(array: ArrayBufferView): string {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(binary);
}

const damaged = (why: string, cause?: unknown): ToolSearchError =>
  new ToolSearchError(`loadIndex: serialized is damaged (${why})`, cause === undefined ? undefined : { cause });

/** The bytes of a base64 text, one per character. */
function binaryOf(text: string): string {
  try {
    return atob(text);
  } catch (cause) {
    throw damaged('an array is not base64', cause);
  }
}

function bytesOf(text: string): Uint8Array {
  const binary = binaryOf(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The little-endian 32-bit words of a base64 text, assembled a word at a time (a byte at a time cost twice as much). */
function wordsOf(binary: string): Int32Array {
  if (binary.length % 4) throw damaged('an array has a partial element');
  const out = new Int32Array(binary.length >> 2);
  for (let k = 0, i = 0; k < out.length; k++, i += 4)
    out[k] =
      binary.charCodeAt(i) |
      (binary.charCodeAt(i + 1) << 8) |
      (binary.charCodeAt(i + 2) << 16) |
      (binary.charCodeAt(i + 3) << 24);
  return out;
}

function nameTerms(buffer: ArrayBuffer): Uint16Array {
  if (buffer.byteLength % 2) throw damaged('an array has a partial element');
  return new Uint16Array(buffer);
}

// Integer arrays whose values all lie in [-1, 65534] (most ids of a catalogue) travel as 16 bits each, value + 1,
// marked '2'; others as 32 bits, marked '4': every byte decoded is load time.
function encodeInts(array: Int32Array): string {
  return array.every((v) => v >= -1 && v < 0xffff)
    ? `2${encode(Uint16Array.from(array, (v) => v + 1))}`
    : `4${encode(array)}`;
}

function decodeInts(text: string): Int32Array {
  const width = text.charCodeAt(0);
  if (width === 52) return wordsOf(binaryOf(text.slice(1)));
  if (width !== 50) throw damaged('an array has no width');
  const binary = binaryOf(text.slice(1));
  if (binary.length % 2) throw damaged('an array has a partial element');
  const out = new Int32Array(binary.length >> 1);
  for (let k = 0, i = 0; k < out.length; k++, i += 2)
    out[k] = (binary.charCodeAt(i) | (binary.charCodeAt(i + 1) << 8)) - 1;
  return out;
}

// The saturated weights repeat (5,003 distinct among 58,217 postings at 4,076 tools): when they fit, they travel as a
// palette of their bit patterns (exact, -0 and NaN included) and a 16-bit index per posting, marked 'p'; else as
// 32-bit words, marked '4'.
function encodeWeights(weights: Float32Array): string {
  const bits = new Int32Array(weights.buffer, weights.byteOffset, weights.length);
  const palette = new Map<number, number>();
  const indices = new Uint16Array(bits.length);
  for (let i = 0; i < bits.length; i++) {
    const b = bits[i] as number;
    let p = palette.get(b);
    if (p === undefined) {
      p = palette.size;
      if (p > 0xffff) return `4${encode(weights)}`;
      palette.set(b, p);
    }
    indices[i] = p;
  }
  return `p${encode(Int32Array.from(palette.keys()))}:${encode(indices)}`;
}

function decodeWeights(text: string): Float32Array {
  if (text.charCodeAt(0) === 52) return new Float32Array(wordsOf(binaryOf(text.slice(1))).buffer);
  const colon = text.indexOf(':');
  if (text.charCodeAt(0) !== 112 || colon < 0) throw damaged('the weights have no palette');
  const palette = wordsOf(binaryOf(text.slice(1, colon)));
  const binary = binaryOf(text.slice(colon + 1));
  if (binary.length % 2) throw damaged('an array has a partial element');
  const out = new Int32Array(binary.length >> 1);
  for (let k = 0, i = 0; k < out.length; k++, i += 2) {
    const p = binary.charCodeAt(i) | (binary.charCodeAt(i + 1) << 8);
    if (p >= palette.length) throw damaged('a weight is not in the palette');
    out[k] = palette[p] as number;
  }
  return new Float32Array(out.buffer);
}

/** The name lookup as a table: the distinct lower-cased names' slots, and their tools name by name. */
function encodeNames(names: Map<string, number[]>) {
  const start = new Int32Array(names.size + 1);
  const ids: number[] = [];
  let g = 0;
  for (const same of names.values()) {
    for (const id of same) ids.push(id);
    start[++g] = ids.length;
  }
  return {
    nameSlots: encodeInts(termSlots([...names.keys()])),
    nameStart: encodeInts(start),
    nameIds: encodeInts(Int32Array.from(ids)),
  };
}

/** Serialises the search index of these tools (for example at deploy time), to be loaded with `loadIndex`. */
export function serializeIndex(tools: readonly Tool[]): string {
  if (!Array.isArray(tools)) throw new ToolSearchError('serializeIndex: tools must be an array of tools');
  const ix = buildIndex(tools);
  const terms = [...ix.terms.keys()];
  if (terms.some((t) => t.includes(TERM_SEPARATOR)))
    throw new ToolSearchError('serializeIndex: a term holds a line break, which the format cannot carry');
  const out: Serialized = {
    version: version(),
    fingerprint: fingerprintTools(tools),
    size: ix.size,
    terms: terms.join(TERM_SEPARATOR),
    arrays: {
      start: encodeInts(ix.start),
      docs: encodeInts(ix.docs),
      weights: encodeWeights(ix.weights),
      nameTerms: encode(ix.nameTerms),
      whole: encode(ix.whole),
      sequence: encodeInts(ix.sequence),
      sequenceStart: encodeInts(ix.sequenceStart),
      starts: encodeInts(ix.substring.starts),
      docStart: encodeInts(ix.substring.docStart),
      docIds: encodeInts(ix.substring.docIds),
      vocabulary: encodeInts(sortedVocabulary(ix).ids),
      slots: encodeInts(termSlots(terms)),
      ...encodeNames(ix.names as Map<string, number[]>),
    },
    text: ix.substring.text,
  };
  return JSON.stringify(out);
}

function parse(serialized: string): Serialized {
  let value: unknown;
  try {
    value = typeof serialized === 'string' ? JSON.parse(serialized) : undefined;
  } catch (cause) {
    throw new ToolSearchError('loadIndex: serialized is not the JSON that serializeIndex returns', { cause });
  }
  const v = value as Partial<Serialized> | undefined;
  if (
    typeof v !== 'object' ||
    v === null ||
    typeof v.version !== 'string' ||
    !v.version.startsWith('tool-search-layer/index@') ||
    typeof v.fingerprint !== 'string' ||
    typeof v.size !== 'number' ||
    typeof v.terms !== 'string' ||
    typeof v.text !== 'string' ||
    typeof v.arrays !== 'object' ||
    v.arrays === null ||
    ARRAYS.some((k) => typeof v.arrays?.[k] !== 'string')
  )
    throw new ToolSearchError('loadIndex: serialized is not an index made by serializeIndex');
  return v as Serialized;
}

/** The loaded name lookup, checked to fit these tools (whose names the fingerprint has checked). */
function names(a: Serialized['arrays'], tools: readonly Tool[]) {
  const start = decodeInts(a.nameStart);
  const ids = decodeInts(a.nameIds);
  const slots = decodeInts(a.nameSlots);
  const groups = start.length - 1;
  let fits = groups >= 0 && start[0] === 0 && start[groups] === ids.length && ids.length === tools.length;
  for (let g = 0; fits && g < groups; g++) fits = (start[g] as number) < (start[g + 1] as number);
  if (!fits || ids.some((id) => id < 0 || id >= tools.length) || !fitsSlots(slots, groups))
    throw damaged('its name table does not fit');
  return nameTable(slots, start, ids, (id) => nameOf(partsOf(tools[id] as Tool)).toLowerCase());
}

/**
 * Puts a serialised index in the search cache when it was made from tools with the same searchable content, by this
 * version of the library; returns false (and changes nothing, so the first search builds as usual) when not.
 * Throws a ToolSearchError when `serialized` is not an index made by `serializeIndex`.
 */
export function loadIndex(serialized: string, tools: readonly Tool[]): boolean {
  const s = parse(serialized);
  if (!Array.isArray(tools)) throw new ToolSearchError('loadIndex: tools must be an array of tools');
  if (s.version !== version() || s.size !== tools.length) return false;
  if (s.fingerprint !== fingerprintTools(tools)) return false;
  const a = s.arrays;
  const list = s.terms === '' ? [] : s.terms.split(TERM_SEPARATOR);
  const slots = decodeInts(a.slots);
  if (!fitsSlots(slots, list.length)) throw damaged('its term table does not fit');
  const terms = termTable(list, slots);
  const bytes = (text: string): ArrayBuffer => bytesOf(text).buffer as ArrayBuffer;
  const i32 = decodeInts;
  // The texts are read again only when a new array of other tool objects asks the cache for an equal catalogue.
  const copy = tools.slice();
  let fields: readonly Fields[] | undefined;
  const index: BuiltIndex = {
    size: s.size,
    terms,
    start: i32(a.start),
    docs: i32(a.docs),
    weights: decodeWeights(a.weights),
    nameTerms: nameTerms(bytes(a.nameTerms)),
    whole: new Uint8Array(bytes(a.whole)),
    sequence: i32(a.sequence),
    sequenceStart: i32(a.sequenceStart),
    names: names(a, copy),
    substring: loadSubstring(s.text, i32(a.starts), i32(a.docStart), i32(a.docIds)),
    get fields() {
      fields ??= copy.map(toolFields);
      return fields;
    },
  };
  if (
    index.start.length !== terms.size + 1 ||
    index.docs.length !== index.weights.length ||
    index.nameTerms.length !== s.size ||
    index.whole.length !== terms.size ||
    index.sequenceStart.length !== s.size + 1
  )
    throw damaged('its arrays do not fit together');
  const vocabulary = i32(a.vocabulary);
  if (vocabulary.some((t) => t < 0 || t >= terms.size)) throw damaged('its vocabulary does not fit');
  seedVocabulary(index, vocabulary, list);
  seedToolIndex(copy, index);
  return true;
}
