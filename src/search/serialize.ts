// A Worker pays CPU time for every new isolate that builds its index: the index is made once at deploy time,
// stored as text beside the code, and loaded in a fraction of a build, after checking it was made from the same tools.
import { ToolSearchError } from '../errors.ts';
import type { Tool } from '../types.ts';
import { type BuiltIndex, buildIndex, namesOf, PARAMS } from './build.ts';
import { seedToolIndex } from './cache.ts';
import { type Fields, toolFields } from './fields.ts';
import { seedVocabulary, sortedVocabulary } from './rank.ts';
import { loadSubstring } from './substring.ts';

// Bumped whenever the tokeniser or the index layout changes; the ranking constants are part of the version too.
const FORMAT = 'tool-search-layer/index@1';
const version = (): string => `${FORMAT} ${JSON.stringify([PARAMS.k1, PARAMS.weight, PARAMS.b])}`;

interface Serialized {
  version: string;
  fingerprint: string;
  size: number;
  terms: string[];
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
] as const;

/** A 64-bit FNV-1a hash (two 32-bit lanes) of every searchable text, as hex. */
export function fingerprint(fields: readonly Fields[]): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const f of fields) {
    for (const text of f) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
      }
      // A separator no text can hold, so that ["ab", ""] and ["a", "b"] differ.
      a = Math.imul(a ^ 0xffff1, 0x01000193);
      b = Math.imul(b ^ 0xffff1, 0x5bd1e995) ^ (b >>> 15);
    }
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}:${fields.length}`;
}

// Typed arrays travel as base64 of their bytes (little-endian, as every runtime this library targets is).
function encode(array: ArrayBufferView): string {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(binary);
}

function decode(text: string): ArrayBuffer {
  let binary: string;
  try {
    binary = atob(text);
  } catch (cause) {
    throw new ToolSearchError('loadIndex: serialized is damaged (an array is not base64)', { cause });
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** Serialises the search index of these tools (for example at deploy time), to be loaded with `loadIndex`. */
export function serializeIndex(tools: readonly Tool[]): string {
  if (!Array.isArray(tools)) throw new ToolSearchError('serializeIndex: tools must be an array of tools');
  const fields = tools.map(toolFields);
  const ix = buildIndex(tools, fields);
  const out: Serialized = {
    version: version(),
    fingerprint: fingerprint(fields),
    size: ix.size,
    terms: [...ix.terms.keys()],
    arrays: {
      start: encode(ix.start),
      docs: encode(ix.docs),
      weights: encode(ix.weights),
      nameTerms: encode(ix.nameTerms),
      whole: encode(ix.whole),
      sequence: encode(ix.sequence),
      sequenceStart: encode(ix.sequenceStart),
      starts: encode(ix.substring.starts),
      docStart: encode(ix.substring.docStart),
      docIds: encode(ix.substring.docIds),
      vocabulary: encode(sortedVocabulary(ix).ids),
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
    !Array.isArray(v.terms) ||
    typeof v.text !== 'string' ||
    typeof v.arrays !== 'object' ||
    v.arrays === null ||
    ARRAYS.some((k) => typeof v.arrays?.[k] !== 'string')
  )
    throw new ToolSearchError('loadIndex: serialized is not an index made by serializeIndex');
  return v as Serialized;
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
  const fields = tools.map(toolFields);
  if (s.fingerprint !== fingerprint(fields)) return false;
  const a = s.arrays;
  const terms = new Map<string, number>();
  s.terms.forEach((term, t) => {
    terms.set(term, t);
  });
  const array = <T>(make: (buffer: ArrayBuffer) => T, text: string): T => {
    try {
      return make(decode(text));
    } catch (cause) {
      if (ToolSearchError.isInstance(cause)) throw cause;
      throw new ToolSearchError('loadIndex: serialized is damaged (an array has a partial element)', { cause });
    }
  };
  const i32 = (text: string): Int32Array => array((b) => new Int32Array(b), text);
  const index: BuiltIndex = {
    size: s.size,
    terms,
    start: i32(a.start),
    docs: i32(a.docs),
    weights: array((b) => new Float32Array(b), a.weights),
    nameTerms: array((b) => new Uint16Array(b), a.nameTerms),
    whole: array((b) => new Uint8Array(b), a.whole),
    sequence: i32(a.sequence),
    sequenceStart: i32(a.sequenceStart),
    names: namesOf(fields),
    substring: loadSubstring(s.text, i32(a.starts), i32(a.docStart), i32(a.docIds)),
    fields,
  };
  if (
    index.start.length !== terms.size + 1 ||
    index.docs.length !== index.weights.length ||
    index.nameTerms.length !== s.size ||
    index.whole.length !== terms.size ||
    index.sequenceStart.length !== s.size + 1
  )
    throw new ToolSearchError('loadIndex: serialized is damaged (its arrays do not fit together)');
  const vocabulary = i32(a.vocabulary);
  if (vocabulary.some((t) => t < 0 || t >= terms.size))
    throw new ToolSearchError('loadIndex: serialized is damaged (its vocabulary does not fit)');
  seedVocabulary(index, vocabulary, s.terms);
  seedToolIndex(tools, index);
  return true;
}
