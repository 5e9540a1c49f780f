import { stemmer } from 'stemmer';
import { isStopword } from './stopwords.ts';

// Han, kana and compatibility ideographs: scripts written without spaces between words.
const CJK = '\\u3040-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff';
let word: RegExp | undefined;
const CAMEL = /(\p{Ll}|\d)(?=\p{Lu})|(\p{Lu})(?=\p{Lu}\p{Ll})/gu;

let segmenter: Intl.Segmenter | null | undefined;
let stems: Map<string, string> | undefined;

/** Splits CJK text into words: Intl.Segmenter where the runtime has it, overlapping bigrams otherwise. */
function segment(run: string, out: string[]): void {
  segmenter ??=
    typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('zh', { granularity: 'word' }) : null;
  if (segmenter) {
    for (const s of segmenter.segment(run)) if (s.isWordLike && !isStopword(s.segment)) out.push(s.segment);
  } else if (run.length < 3) {
    if (!isStopword(run)) out.push(run);
  } else {
    for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  }
}

/** Adds a lower-cased Latin word as its stem, unless it is a stopword or a single letter. */
function add(w: string, out: string[]): void {
  stems ??= new Map();
  let s = stems.get(w);
  if (s === undefined) {
    // Bounded, so that a stream of odd queries cannot grow it without end.
    if (stems.size > 50_000) stems.clear();
    s = w.length < 2 || isStopword(w) ? '' : stemmer(w);
    stems.set(w, s);
  }
  if (s) out.push(s);
}

const code = (text: string, i: number): number => (i < text.length ? text.charCodeAt(i) : 0);
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAlnum = (c: number): boolean => isUpper(c) || isLower(c) || isDigit(c);

/** Turns text into search terms: identifiers split, lower-cased, stopwords and one-letter words dropped, stemmed, CJK segmented. */
export function tokenize(text: string, out: string[] = []): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII text takes the fast path below.
  if (/[^\x00-\x7f]/.test(text)) {
    word ??= new RegExp(`[${CJK}]+|[^\\s\\p{P}\\p{S}${CJK}]+`, 'gu');
    for (const w of text.replace(CAMEL, '$1$2 ').toLowerCase().match(word) ?? []) {
      const c = w.charCodeAt(0);
      if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) segment(w, out);
      else add(w, out);
    }
    return out;
  }
  // The same words as the regular expressions above, for ASCII, without them: catalogue builds are mostly ASCII.
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = code(text, i);
    const prev = code(text, i - 1);
    const camel = isUpper(c) && (isLower(prev) || isDigit(prev) || (isUpper(prev) && isLower(code(text, i + 1))));
    if (start >= 0 && (!isAlnum(c) || camel)) {
      add(text.slice(start, i).toLowerCase(), out);
      start = -1;
    }
    if (start < 0 && isAlnum(c)) start = i;
  }
  return out;
}
