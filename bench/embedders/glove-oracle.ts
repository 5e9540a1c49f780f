// A strong embedding model, made from the labels: the GloVe + SIF vector of a text (glove.ts) beside a 64-d
// identity part, a pseudo-random unit vector per tool text; a labelled query's identity part is the normalised sum of
// its relevant tools' ones, scaled by LEAK. The semantic ranking then knows the answer only partly (the GloVe half
// still pulls towards look-alikes), like a good model that is not perfect. It measures whether the hook lets a good
// model help at its defaults; it is not a model anyone could ship. `--embedder ./bench/embedders/glove-oracle.ts`
import type { Tool } from '../../src/base/types.ts';
import { toolItem } from '../../src/semantic/cache.ts';
import { labelledSets, loadSet } from '../data.ts';
import { embed as glove } from './glove.ts';

const IDENTITY = 64;
// The identity part's weight against the unit GloVe part: at 0.6 a relevant tool's cosine is about 0.3 above a
// look-alike's on average, but a close look-alike can still outrank it.
const LEAK = 0.6;

let relevantTexts: Map<string, string[]> | undefined;

function labels(): Map<string, string[]> {
  if (relevantTexts) return relevantTexts;
  relevantTexts = new Map();
  for (const name of labelledSets) {
    const set = loadSet(name);
    const textOf = new Map(set.tools.map((t) => [t.name, toolItem(t as unknown as Tool).text]));
    for (const q of set.queries) {
      const texts = q.relevant.map((r) => textOf.get(r)).filter((t): t is string => t !== undefined);
      relevantTexts.set(q.query, [...(relevantTexts.get(q.query) ?? []), ...texts]);
    }
  }
  return relevantTexts;
}

function identity(text: string): number[] {
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
  const next = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  return unit(Array.from({ length: IDENTITY }, next));
}

function unit(v: number[]): number[] {
  const norm = Math.hypot(...v);
  return norm > 0 ? v.map((x) => x / norm) : v;
}

export const model = 'glove-oracle';

export async function embed(texts: string[], kind: 'tool' | 'query'): Promise<(number[] | null)[]> {
  const base = await glove(texts);
  return texts.map((text, i) => {
    const g = base[i] ? unit(base[i] as number[]) : new Array<number>(100).fill(0);
    const parts = kind === 'tool' ? [identity(text)] : (labels().get(text) ?? []).map(identity);
    const id = new Array<number>(IDENTITY).fill(0);
    for (const p of parts) for (let j = 0; j < IDENTITY; j++) id[j] = (id[j] as number) + (p[j] as number);
    const out = [...g, ...unit(id).map((x) => x * LEAK)];
    return out.some((x) => x !== 0) ? out : null;
  });
}
