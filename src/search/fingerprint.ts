// Checking a loaded index against its tools must cost far less than a build: the searchable texts are hashed as they
// are read from the tool objects, with no field strings joined and no arrays of them kept (those were most of the check).
import type { Tool } from '../types.ts';
import { descriptionOf, nameOf, partsOf, schemaTexts } from './fields.ts';

// A separator no text can hold, so that ["ab", ""] and ["a", "b"] differ.
const END = 0xffff1;

// The two 32-bit lanes of the running hash, and the parameter texts of the tool being read (reused, tool after tool).
let a = 0;
let b = 0;
const names: string[] = [];
const texts: string[] = [];

// Two characters a step (UTF-16 units fill 16 bits each): half the multiplications of one a step. The length goes
// first, so that a last lone character and the same character followed by a NUL differ.
function feed(text: string): void {
  code(text.length);
  let x = a;
  let y = b;
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
  a = x;
  b = y;
}

function code(c: number): void {
  a = Math.imul(a ^ c, 0x01000193);
  b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
}

/** Hashes the strings (as `toolFields` joins them with spaces), then the separator. */
function feedJoined(list: readonly string[]): void {
  for (let i = 0; i < list.length; i++) {
    if (i > 0) code(32);
    feed(list[i] as string);
  }
  code(END);
}

/** The host's keywords as `toolFields` appends them to the description: each string after a line break. */
function feedKeywords(keywords: unknown): void {
  if (typeof keywords === 'string') {
    if (keywords) {
      code(10);
      feed(keywords);
    }
  } else if (Array.isArray(keywords) && keywords.some((k) => typeof k === 'string')) {
    code(10);
    for (const k of keywords) {
      if (typeof k !== 'string') continue;
      code(10);
      feed(k);
    }
  }
}

/**
 * A 64-bit FNV-1a-style hash (two 32-bit lanes) of every searchable text of the tools, as hex, with the tool count:
 * each of `toolFields(tool)`'s four texts in turn, read in its parts, each followed by a separator.
 */
export function fingerprintTools(tools: readonly Tool[]): string {
  a = 0x811c9dc5;
  b = 0x01000193;
  for (const tool of tools) {
    const t = partsOf(tool);
    feed(nameOf(t));
    code(END);
    feed(descriptionOf(t));
    if (t.keywords !== undefined) feedKeywords(t.keywords);
    code(END);
    schemaTexts(t.parameters, names, texts);
    feedJoined(names);
    feedJoined(texts);
  }
  names.length = texts.length = 0;
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}:${tools.length}`;
}
