// The substring floor of the contract: a tool whose name or description contains a keyword is always found.
// Keywords hold no spaces, so a text contains one exactly when one of its space-free chunks does: the distinct
// lower-cased chunks are joined into one string, and a table of where each trigram occurs in it narrows a lookup.
// The table is made once lookups have scanned the string as often as making it costs: a new Worker isolate that
// answers a few searches never pays for it.

/** The joined chunks, where each starts, the tools holding each, and trigram positions grouped by a hash. */
export interface SubstringIndex {
  readonly text: string;
  /** Chunk c is at [starts[c], starts[c + 1] - 1) of `text`. */
  readonly starts: Int32Array;
  /** The tools holding chunk c are at [docStart[c], docStart[c + 1]) of `docIds`. */
  readonly docStart: Int32Array;
  readonly docIds: Int32Array;
  /** The trigram table, once made: positions of the trigrams with hash g are at [heads[g], heads[g + 1]) of `positions`. */
  table?: { readonly heads: Int32Array; readonly positions: Int32Array };
  /** Characters scanned by lookups made without the table. */
  scanned: number;
}

const BITS = 14;
// Making the table costs about as much as scanning the string this many times (a native indexOf per keyword).
const SCANS = 12;

// A hash collision only adds candidates, which are verified anyway.
const gram = (s: string, i: number): number =>
  Math.imul(s.charCodeAt(i) ^ Math.imul(s.charCodeAt(i + 1), 31) ^ Math.imul(s.charCodeAt(i + 2), 961), 0x9e3779b1) >>>
  (32 - BITS);

/** Indexes distinct lower-cased chunks (none holding a space), given the tools holding each. */
export function buildSubstring(chunks: readonly string[], docs: readonly (readonly number[])[]): SubstringIndex {
  const text = chunks.join(' ');
  const starts = new Int32Array(chunks.length + 1);
  for (let c = 0; c < chunks.length; c++) starts[c + 1] = (starts[c] as number) + (chunks[c] as string).length + 1;
  const docStart = new Int32Array(docs.length + 1);
  for (let c = 0; c < docs.length; c++) docStart[c + 1] = (docStart[c] as number) + (docs[c] as number[]).length;
  const docIds = new Int32Array(docStart[docs.length] as number);
  for (let c = 0; c < docs.length; c++) docIds.set(docs[c] as number[], docStart[c] as number);
  return loadSubstring(text, starts, docStart, docIds);
}

/** The substring floor over joined chunks; its trigram table is made when lookups need it, never stored (it is larger than the text). */
export function loadSubstring(
  text: string,
  starts: Int32Array,
  docStart: Int32Array,
  docIds: Int32Array,
): SubstringIndex {
  return { text, starts, docStart, docIds, scanned: 0 };
}

/** Where each trigram of the text occurs, grouped by the trigram's hash. */
function trigramTable(text: string): { heads: Int32Array; positions: Int32Array } {
  const heads = new Int32Array((1 << BITS) + 1);
  const grams = new Int32Array(Math.max(0, text.length - 2));
  for (let i = 0; i < grams.length; i++) {
    const g = gram(text, i);
    grams[i] = g;
    heads[g + 1] = (heads[g + 1] as number) + 1;
  }
  for (let g = 0; g < 1 << BITS; g++) heads[g + 1] = (heads[g + 1] as number) + (heads[g] as number);
  const cursor = heads.slice();
  const positions = new Int32Array(heads[1 << BITS] as number);
  for (let i = 0; i < grams.length; i++) {
    const g = grams[i] as number;
    positions[cursor[g] as number] = i;
    cursor[g] = (cursor[g] as number) + 1;
  }
  return { heads, positions };
}

/** The tools whose name or description contains the lower-cased keyword, each once. */
export function findSubstring(index: SubstringIndex, keyword: string, size: number): number[] {
  const { text, starts, docStart, docIds } = index;
  if (!index.table && keyword.length > 2 && index.scanned >= SCANS * text.length) index.table = trigramTable(text);
  const { heads, positions } = index.table ?? { heads: undefined, positions: undefined };
  // The keyword's rarest trigram gives the candidate positions; without the table, or for a keyword under three
  // characters, the text is scanned: both find every occurrence, in order.
  let best = -1;
  let offset = 0;
  for (let j = 0; heads && j + 2 < keyword.length; j++) {
    const g = gram(keyword, j);
    if (
      best < 0 ||
      (heads[g + 1] as number) - (heads[g] as number) < (heads[best + 1] as number) - (heads[best] as number)
    ) {
      best = g;
      offset = j;
    }
  }
  const seen = new Uint8Array(size);
  const out: number[] = [];
  let chunk = 0;
  const hit = (at: number): void => {
    let hi = starts.length - 2;
    while (chunk < hi) {
      const mid = (chunk + hi + 1) >> 1;
      if ((starts[mid] as number) <= at) chunk = mid;
      else hi = mid - 1;
    }
    for (let i = docStart[chunk] as number; i < (docStart[chunk + 1] as number); i++) {
      const d = docIds[i] as number;
      if (!seen[d]) {
        seen[d] = 1;
        out.push(d);
      }
    }
  };
  if (best < 0 || !heads || !positions) {
    index.scanned += text.length;
    for (let at = text.indexOf(keyword); at >= 0; at = text.indexOf(keyword, at + 1)) hit(at);
  } else
    for (let i = heads[best] as number; i < (heads[best + 1] as number); i++) {
      const at = (positions[i] as number) - offset;
      if (at >= 0 && text.startsWith(keyword, at)) hit(at);
    }
  return out;
}
