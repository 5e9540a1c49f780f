// The substring floor of the contract: a tool whose name or description contains a keyword is always found.
// Keywords hold no white space, so a text contains one exactly when one of its white-space chunks does:
// the index keeps the distinct lower-cased chunks and a trigram index over them, so a lookup verifies a few chunks, not every text.

/** Distinct lower-cased chunks, the tools holding each, and the chunks holding each trigram. */
export interface SubstringIndex {
  readonly chunks: readonly string[];
  readonly docs: readonly (readonly number[])[];
  readonly grams: ReadonlyMap<number, readonly number[]>;
}

// A trigram's key is folded into a small integer; a collision only adds candidates, which are verified anyway.
const gram = (s: string, i: number): number =>
  ((s.charCodeAt(i) * 961 + s.charCodeAt(i + 1) * 31 + s.charCodeAt(i + 2)) & 0x3fffffff);

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
  return { chunks, docs, grams };
}

/** Calls `hit` with every tool whose text contains the lower-cased keyword (a tool may come more than once). */
export function findSubstring(index: SubstringIndex, keyword: string, hit: (doc: number) => void): void {
  const { chunks, docs, grams } = index;
  // Keywords under three characters have no trigram; they are rare once stopwords and one-letter words are gone.
  let candidates: readonly number[] | undefined;
  for (let i = 0; i + 2 < keyword.length; i++) {
    const list = grams.get(gram(keyword, i));
    if (!list) return;
    if (!candidates || list.length < candidates.length) candidates = list;
  }
  const check = (id: number): void => {
    if ((chunks[id] as string).includes(keyword)) for (const doc of docs[id] as number[]) hit(doc);
  };
  if (candidates) for (const id of candidates) check(id);
  else for (let id = 0; id < chunks.length; id++) check(id);
}
