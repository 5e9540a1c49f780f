// Checking a loaded index against its tools must cost far less than a build: the searchable texts are hashed as they
// are read from the tool objects, with no field strings joined and no arrays of them kept (those were most of the check).
import type { Tool } from '../base/types.ts';
import { descriptionOf, nameOf, partsOf, type SchemaSink, walkSchema } from './fields.ts';

// A separator no text can hold, so that ["ab", ""] and ["a", "b"] differ.
const END = 0xffff1;
const SEED_A = 0x811c9dc5;
const SEED_B = 0x01000193;

// Three running hashes of two 32-bit lanes each: the tools' texts, and a tool's parameter names and parameter texts,
// which its schema gives interleaved (each is folded into the first at the end of its tool).
const lanes = new Int32Array(6);
const TOOLS = 0;
const NAMES = 2;
const TEXTS = 4;

function code(at: number, c: number): void {
  lanes[at] = Math.imul((lanes[at] as number) ^ c, 0x01000193);
  const b = lanes[at + 1] as number;
  lanes[at + 1] = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
}

// Two characters a step (UTF-16 units fill 16 bits each): half the multiplications of one a step. The length goes
// first, so that a last lone character and the same character followed by a NUL differ.
function feed(at: number, text: string): void {
  code(at, text.length);
  let x = lanes[at] as number;
  let y = lanes[at + 1] as number;
  const end = text.length - 1;
  let i = 0;
  for (; i < end; i += 2) {
    const c = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    x = Math.imul(x ^ c, 0x01000193);
    y = Math.imul(y ^ c, 0x5bd1e995) ^ (y >>> 15);
  }
  if (i === end) {
    const c = text.charCodeAt(i);
    x = Math.imul(x ^ c, 0x01000193);
    y = Math.imul(y ^ c, 0x5bd1e995) ^ (y >>> 15);
  }
  lanes[at] = x;
  lanes[at + 1] = y;
}

/** The host's keywords as `toolFields` appends them to the description: each string after a line break. */
function feedKeywords(keywords: unknown): void {
  if (typeof keywords === 'string') {
    if (keywords) {
      code(TOOLS, 10);
      feed(TOOLS, keywords);
    }
  } else if (Array.isArray(keywords) && keywords.some((k) => typeof k === 'string')) {
    code(TOOLS, 10);
    for (const k of keywords) {
      if (typeof k !== 'string') continue;
      code(TOOLS, 10);
      feed(TOOLS, k);
    }
  }
}

// The schema's names and texts go straight into their hashes, in order, as `toolFields` joins them.
const hasher: SchemaSink = {
  left: 0,
  name(key) {
    feed(NAMES, key);
  },
  text(value) {
    feed(TEXTS, value);
  },
};

/**
 * A 64-bit FNV-1a-style hash (two 32-bit lanes) of every searchable text of the tools, as hex, with the tool count:
 * each tool's name, description with keywords, parameter names and parameter texts, as `toolFields` reads them.
 */
export function fingerprintTools(tools: readonly Tool[]): string {
  lanes[TOOLS] = SEED_A;
  lanes[TOOLS + 1] = SEED_B;
  for (const tool of tools) {
    const t = partsOf(tool);
    feed(TOOLS, nameOf(t));
    code(TOOLS, END);
    feed(TOOLS, descriptionOf(t));
    if (t.keywords !== undefined) feedKeywords(t.keywords);
    code(TOOLS, END);
    lanes[NAMES] = lanes[TEXTS] = SEED_A;
    lanes[NAMES + 1] = lanes[TEXTS + 1] = SEED_B;
    walkSchema(t.parameters, hasher);
    for (let at = NAMES; at < 6; at++) code(TOOLS, lanes[at] as number);
    code(TOOLS, END);
  }
  const hex = (at: number) => ((lanes[at] as number) >>> 0).toString(16).padStart(8, '0');
  return `${hex(TOOLS)}${hex(TOOLS + 1)}:${tools.length}`;
}
