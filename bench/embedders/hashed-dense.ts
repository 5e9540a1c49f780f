// The hashed stand-in turned dense: its vectors through a fixed orthogonal transform (random signs, then the
// Walsh-Hadamard transform), so every cosine is the hashed model's but no component is zero. It measures the hook's
// speed with a trusted model whose vectors are dense, as a real embedding model's are.
import { minSimilarity as floor, embed as hashed } from './hashed.ts';

const DIMENSIONS = 256;
const SIGNS = Array.from({ length: DIMENSIONS }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 31 ? -1 : 1));

function rotate(vector: number[]): number[] {
  const out = vector.map((x, i) => x * (SIGNS[i] as number));
  for (let h = 1; h < DIMENSIONS; h *= 2) {
    for (let i = 0; i < DIMENSIONS; i += 2 * h) {
      for (let j = i; j < i + h; j++) {
        const a = out[j] as number;
        const b = out[j + h] as number;
        out[j] = a + b;
        out[j + h] = a - b;
      }
    }
  }
  return out.map((x) => x / Math.sqrt(DIMENSIONS));
}

export const model = 'hashed-trigrams-256-dense';
export const minSimilarity = floor;

export async function embed(texts: string[]): Promise<number[][]> {
  return (await hashed(texts)).map(rotate);
}
