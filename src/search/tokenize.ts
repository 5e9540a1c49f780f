import { stemmer } from 'stemmer';
import { isStopword } from './stopwords.ts';

// Han, kana and compatibility ideographs: scripts written without spaces between words.
const CJK = '\\u3040-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff';
let word: RegExp | undefined;
const CAMEL = /(\p{Ll}|\d)(?=\p{Lu})|(\p{Lu})(?=\p{Lu}\p{Ll})/gu;

let segmenter: Intl.Segmenter | null | undefined;
let stems: Map<string, string> | undefined;

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

/** Turns text into search terms: identifiers split, lower-cased, stopwords and one-letter words dropped, stemmed, CJK segmented. */
export function tokenize(text: string, out: string[] = []): string[] {
  word ??= new RegExp(`[${CJK}]+|[^\\s\\p{P}\\p{S}${CJK}]+`, 'gu');
  // The Unicode patterns below cost most of a build; printable ASCII with nothing for CAMEL to split is read by hand.
  if (!/[a-z\d][A-Z]|[A-Z][A-Z][a-z]|[^ -~]/.test(text)) {
    const lower = text.toLowerCase();
    let begin = 0;
    for (let i = 0; i <= lower.length; i++) {
      const c = lower.charCodeAt(i);
      if (!((c > 96 && c < 123) || (c > 47 && c < 58))) {
        if (i > begin) add(lower.slice(begin, i), out);
        begin = i + 1;
      }
    }
    return out;
  }
  for (const w of text.replace(CAMEL, '$1$2 ').toLowerCase().match(word) ?? []) {
    const c = w.charCodeAt(0);
    if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) segment(w, out);
    else add(w, out);
  }
  return out;
}
