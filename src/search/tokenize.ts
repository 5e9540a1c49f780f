import { stemmer } from 'stemmer';
import { isStopword } from './stopwords.ts';

// Han, kana and compatibility ideographs: scripts written without spaces between words.
const CJK = '\\u3040-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff';
let word: RegExp | undefined;
const CAMEL = /(\p{Ll}|\d)(?=\p{Lu})|(\p{Lu})(?=\p{Lu}\p{Ll})/gu;
const BRAND =
  /(?<![\p{L}\d])[\p{L}\d]{1,4}(?:&[\p{L}\d]{1,4})+(?![\p{L}\d])|(?<![\p{L}\d])\p{L}{1,2}(?:\+\+|#)(?![\p{L}\d+#])/gu;

let segmenter: Intl.Segmenter | null | undefined;
let stems: Map<string, string> | undefined;
/** Where the tokenizing under way lists the stopwords it drops, each once (tokenize's `stops`); undefined: nowhere. */
let dropped: string[] | undefined;

/** Lists a dropped word if it is a stopword (and the tokenizing under way asked for them). */
function drop(w: string): void {
  if (dropped !== undefined && isStopword(w) && !dropped.includes(w)) dropped.push(w);
}

/** Chooses the CJK word segmenter, null for the bigram fallback (runtimes without Intl.Segmenter); for tests. */
export function useSegmenter(s: Intl.Segmenter | null): void {
  segmenter = s;
}

/** Splits CJK text into words: Intl.Segmenter where the runtime has it, overlapping bigrams otherwise. */
function segment(run: string, out: string[]): void {
  if (segmenter === undefined)
    segmenter =
      typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('zh', { granularity: 'word' }) : null;
  if (segmenter) {
    for (const s of segmenter.segment(run))
      if (s.isWordLike) {
        if (!isStopword(s.segment)) out.push(s.segment);
        else drop(s.segment);
      }
  } else if (run.length < 3) {
    if (!isStopword(run)) out.push(run);
    else drop(run);
  } else {
    for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  }
}

// Words Porter stems into a common, unrelated word ("news" into "new", "general" and "generic" into "generate"'s
// "gener"): kept whole instead.
const KEEP = new Set(['news', 'general', 'generic']);

/** The stem of a lower-cased Latin word, cached. */
function stemOf(w: string): string {
  stems ??= new Map();
  let s = stems.get(w);
  if (s === undefined) {
    // Bounded, so that a stream of odd queries cannot grow it without end.
    if (stems.size > 50_000) stems.clear();
    s = KEEP.has(w) ? w : stemmer(w);
    stems.set(w, s);
  }
  return s;
}

/** Adds a lower-cased Latin word as its stem, unless it is a stopword or a single letter. */
function add(w: string, out: string[]): void {
  if (w.length > 1 && !isStopword(w)) out.push(stemOf(w));
  else drop(w);
}

/**
 * Adds the parts of a split camel-case word and beside them the joined forms the split would lose: the whole word,
 * and a part too weak to stand alone (one letter, a stopword) joined to the next ("iPhoneBackup": "iphone").
 */
function addParts(parts: readonly string[], lower: string, out: string[], joined: number[] | undefined): void {
  for (const part of parts) add(part, out);
  for (let i = 0; i + 2 < parts.length; i++) {
    const part = parts[i] as string;
    if (part.length < 2 || isStopword(part)) {
      joined?.push(out.length);
      out.push(stemOf(part + (parts[i + 1] as string)));
    }
  }
  // Kept even when a part is a stopword or one letter: "YouTube" must not shrink to "tube", nor "eBay" to "bay".
  joined?.push(out.length);
  out.push(stemOf(lower));
}

/** Adds a word that may be camel-case (any script). */
function addWord(w: string, out: string[], joined: number[] | undefined): void {
  const lower = w.toLowerCase();
  const split = w.replace(CAMEL, '$1$2 ');
  if (split.length === w.length) add(lower, out);
  else addParts(split.toLowerCase().split(' '), lower, out, joined);
}

const isUpper = (c: number): boolean => c > 64 && c < 91;
const isLower = (c: number): boolean => c > 96 && c < 123;
const isDigit = (c: number): boolean => c > 47 && c < 58;

/** Adds an ASCII word of letters and digits, split at camel-case boundaries by hand (as CAMEL would). */
function addAscii(text: string, begin: number, end: number, out: string[], joined: number[] | undefined): void {
  let parts: string[] | undefined;
  let from = begin;
  for (let k = begin + 1; k < end; k++) {
    const c = text.charCodeAt(k);
    if (!isUpper(c)) continue;
    const p = text.charCodeAt(k - 1);
    if (isLower(p) || isDigit(p) || (isUpper(p) && k + 1 < end && isLower(text.charCodeAt(k + 1)))) {
      parts ??= [];
      parts.push(text.slice(from, k).toLowerCase());
      from = k;
    }
  }
  const lower = text.slice(begin, end).toLowerCase();
  if (!parts) add(lower, out);
  else {
    parts.push(text.slice(from, end).toLowerCase());
    addParts(parts, lower, out, joined);
  }
}

/**
 * Turns text into search terms: identifiers split, lower-cased, stopwords and one-letter words dropped, stemmed, CJK
 * segmented. `joined` receives the positions in `out` of the joined forms of camel-case words, which the index keeps
 * out of field lengths and prefix matching (they only repeat their parts). `stops`, when given, receives the stopwords
 * dropped, lower-cased, each once (the learner's memory reads them: learn/query-terms.ts).
 */
export function tokenize(text: string, out: string[] = [], joined?: number[], stops?: string[]): string[] {
  if (stops === undefined) return tokenized(text, out, joined);
  dropped = stops;
  try {
    return tokenized(text, out, joined);
  } finally {
    dropped = undefined;
  }
}

function tokenized(text: string, out: string[], joined: number[] | undefined): string[] {
  word ??= new RegExp(`[${CJK}]+|[^\\s\\p{P}\\p{S}${CJK}]+`, 'gu');
  // The Unicode patterns below cost most of a build: printable ASCII without brand-like tokens is read by hand.
  if (!/[^ -~]|[A-Za-z\d][&+#]/.test(text)) {
    let begin = 0;
    for (let i = 0; i <= text.length; i++) {
      const c = text.charCodeAt(i);
      if (!(isLower(c) || isUpper(c) || isDigit(c))) {
        if (i > begin) addAscii(text, begin, i, out, joined);
        begin = i + 1;
      }
    }
    return out;
  }
  // "H&M", "AT&T", "C++", "C#": short names whose parts alone are one-letter words or stopwords, kept whole too.
  if (text.includes('&') || text.includes('+') || text.includes('#'))
    for (const b of text.match(BRAND) ?? []) out.push(b.toLowerCase());
  for (const w of text.match(word) ?? []) {
    const c = w.charCodeAt(0);
    if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) segment(w, out);
    else addWord(w, out, joined);
  }
  return out;
}
