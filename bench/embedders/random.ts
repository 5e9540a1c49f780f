// An adversarial stand-in for an embedding model: a pseudo-random vector per text (seeded by the text, so runs
// repeat), every component in [0, 1), so cosines sit near 0.75, above the hook's default floor. It carries no
// signal at all: the hook must notice and rank by keywords alone. `--embedder ./bench/embedders/random.ts`
const DIMENSIONS = 256;

function vectorOf(text: string): number[] {
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
  // mulberry32
  const next = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: DIMENSIONS }, next);
}

export const model = 'random-256';

export async function embed(texts: string[]): Promise<number[][]> {
  return texts.map(vectorOf);
}
