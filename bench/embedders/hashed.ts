// A deterministic, offline stand-in for an embedding model: words and character trigrams hashed into 256
// dimensions. It knows no meaning (it is a fuzzy lexical signal), so it measures the mechanics of the hook,
// not what a real model brings. `npm run bench -- --only=quality --embedder ./bench/embedders/hashed.ts`
const DIMENSIONS = 256;

function bucket(feature: string): number {
  let h = 2166136261;
  for (let i = 0; i < feature.length; i++) h = Math.imul(h ^ feature.charCodeAt(i), 16777619);
  return (h >>> 0) % DIMENSIONS;
}

function vectorOf(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (word.length < 3) continue;
    vector[bucket(word)] = (vector[bucket(word)] as number) + 1;
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const b = bucket(padded.slice(i, i + 3));
      vector[b] = (vector[b] as number) + 0.3;
    }
  }
  return vector;
}

export const model = 'hashed-trigrams-256';
export const minSimilarity = 0.6;

export async function embed(texts: string[]): Promise<number[][]> {
  return texts.map(vectorOf);
}
