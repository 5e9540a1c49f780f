// The substring floor of the contract: a tool whose name or description contains a keyword is always found.
// Keywords hold no white space, so a text contains one exactly when one of its white-space chunks does:
// the index keeps the distinct lower-cased chunks and an n-gram index over them, so a lookup verifies a few chunks, not every text.

/** Distinct lower-cased chunks, the tools holding each, and the chunks holding each trigram. */
export interface SubstringIndex {
  readonly chunks: readonly string[];
  readonly docs: readonly (readonly number[])[];
  readonly grams: ReadonlyMap<number, readonly number[]>;
  /** Chunks by each substring of one and two characters, built when a short keyword first needs them. */
  readonly short: Map<string, number[]>[];
}

// A trigram's key is folded into a small integer; a collision only adds candidates, which are verified anyway.
const gram = (s: string, i: number): number =>
  (s.charCodeAt(i) * 961 + s.charCodeAt(i + 1) * 31 + s.charCodeAt(i + 2)) & 0x3fffffff;

/** Indexes the distinct lower-cased chunks of names and descriptions, given the tools holding each. */
export function buildSubstring(chunks: readonly string[], docs: readonly (readonly number[])[]): SubstringIndex {
  const grams = new Map<number, number[]>();
  chunks.forEach((chunk, id) => {
    for (let i = 0; i + 2 < chunk.length; i++) {
      const g = gram(chunk, i);
      const list = grams.get(g);
      if (!list) grams.set(g, [id]);
      else if (list[list.length - 1] !== id) list.push(id);
    }
  });
  return { chunks, docs, grams, short: [] };
}

/** Chunks holding a keyword of one or two characters, from an index of such substrings made on first use. */
function shortCandidates(index: SubstringIndex, keyword: string): readonly number[] {
  let map = index.short[keyword.length];
  if (!map) {
    map = index.short[keyword.length] = new Map();
    for (let id = 0; id < index.chunks.length; id++) {
      const chunk = index.chunks[id] as string;
      for (let i = 0; i + keyword.length <= chunk.length; i++) {
        const part = chunk.slice(i, i + keyword.length);
        const list = map.get(part);
        if (!list) map.set(part, [id]);
        else if (list[list.length - 1] !== id) list.push(id);
      }
    }
  }
  return map.get(keyword) ?? [];
}

/** The chunks that contain the lower-cased keyword: read `docs[id]` for the tools holding each. */
export function findSubstring(index: SubstringIndex, keyword: string): number[] {
  const { chunks, grams } = index;
  let candidates = keyword.length < 3 ? shortCandidates(index, keyword) : undefined;
  for (let i = 0; i + 2 < keyword.length; i++) {
    const list = grams.get(gram(keyword, i));
    if (!list) return [];
    if (!candidates || list.length < candidates.length) candidates = list;
  }
  // Short keywords were looked up exactly; trigram keys may collide, and longer keywords need every trigram.
  return keyword.length < 3
    ? (candidates as number[])
    : (candidates ?? []).filter((id) => (chunks[id] as string).includes(keyword));
}
