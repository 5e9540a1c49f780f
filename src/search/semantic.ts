// The ranker hook: the host's embedding model, fused with the built-in ranking by weighted reciprocal rank fusion.
import type { Catalogue } from '../core/catalogue.ts';
import type { Tool } from '../core/types.ts';
import { type RankResult, rankTools } from './index.ts';
import { queryItem, toolItem, toolVectors, vectorKeyOf } from './semantic-cache.ts';
import type { ResolvedSemantic } from './semantic-options.ts';

// The option's types and schema live apart, so the core entry validates the option without loading the ranker.
export type { Embed, ResolvedSemantic, SemanticOptions } from './semantic-options.ts';
export { semanticSchema } from './semantic-options.ts';

/** Reciprocal rank fusion's k: 60, the value of the original paper, which damps the top ranks of either list. */
export const RRF_K = 60;

/** Ranks a search with the built-in ranking fused with the host's embeddings; falls back to the built-in one alone. */
export interface SemanticRanker {
  rank(catalogue: Catalogue, visible: (id: number) => boolean, query: string, take: number): Promise<RankResult>;
}

/**
 * Creates the ranker of one layer. A failing or slow `embed` costs that search its semantic part only,
 * and is warned about once per layer (later failures go to `debug`).
 */
/* @__NO_SIDE_EFFECTS__ */
export function createSemanticRanker(
  options: ResolvedSemantic,
  warn: (message: string) => void,
  debug: (message: string) => void,
): SemanticRanker {
  const key = vectorKeyOf(options);
  let warned = false;
  return {
    async rank(catalogue, visible, query, take) {
      const lexical = rankTools(catalogue.index, query, { visible });
      // An empty query lists the catalogue and a query of stopwords matches nothing: no model is asked.
      if (lexical.keywords.length === 0) return { ...lexical, ids: lexical.ids.slice(0, take) };
      const ids: number[] = [];
      for (let id = 0; id < catalogue.tools.length; id++) if (visible(id)) ids.push(id);
      try {
        const [queryVector, vectors] = await withTimeout(
          Promise.all([
            toolVectors(options, key, [queryItem(query)], 'query'),
            vectorsOf(options, key, catalogue, ids),
          ]),
          options.timeoutMs,
        );
        return fuse(lexical, ids, similarities(queryVector[0] as Float32Array, vectors, ids), options, take);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const message = `the semantic ranker failed (${reason}); this search used the built-in ranking alone`;
        if (warned) debug(message);
        else {
          warned = true;
          warn(`${message} (warned once per layer)`);
        }
        return { ...lexical, ids: lexical.ids.slice(0, take) };
      }
    },
  };
}

// The vectors of a catalogue array's positions, per model: a search over a known array hashes and looks up nothing.
let byArray: WeakMap<readonly Tool[], Map<string, (Float32Array | undefined)[]>> | undefined;

async function vectorsOf(
  options: ResolvedSemantic,
  key: string,
  catalogue: Catalogue,
  ids: readonly number[],
): Promise<readonly (Float32Array | undefined)[]> {
  const { tools } = catalogue;
  byArray ??= new WeakMap();
  const models = byArray.get(tools) ?? new Map<string, (Float32Array | undefined)[]>();
  byArray.set(tools, models);
  const known = models.get(key) ?? new Array<Float32Array | undefined>(tools.length);
  models.set(key, known);
  const missing = ids.filter((id) => known[id] === undefined);
  if (missing.length > 0) {
    const items = missing.map((id) => toolItem(tools[id] as Tool));
    const vectors = await toolVectors(options, key, items, 'tool');
    missing.forEach((id, i) => {
      known[id] = vectors[i];
    });
  }
  return known;
}

/** Rejects when `promise` has not settled within `ms`; the work goes on and fills the cache for later searches. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`embed did not answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Cosine similarity of the query with each of `ids` (vectors are stored at unit length). */
function similarities(
  query: Float32Array,
  vectors: readonly (Float32Array | undefined)[],
  ids: readonly number[],
): Float64Array {
  const out = new Float64Array(ids.length);
  const dimensions = query.length;
  for (let i = 0; i < ids.length; i++) {
    const vector = vectors[ids[i] as number] as Float32Array;
    if (vector.length !== dimensions) {
      throw new Error(`embed returned vectors of ${vector.length} and ${dimensions} dimensions for the same model`);
    }
    let dot = 0;
    for (let j = 0; j < dimensions; j++) dot += (vector[j] as number) * (query[j] as number);
    out[i] = dot;
  }
  return out;
}

/**
 * Weighted reciprocal rank fusion: score = 1 / (k + lexical rank) + weight / (k + semantic rank), ranks from 1.
 * The result set is the built-in one plus the tools at `minSimilarity` or above; ties go to catalogue order,
 * so the order is a pure function of the query, the catalogue and the visible tools.
 */
function fuse(
  lexical: RankResult,
  ids: readonly number[],
  cosine: Float64Array,
  options: ResolvedSemantic,
  take: number,
): RankResult {
  const bySimilarity = ids.map((_, i) => i).sort((a, b) => (cosine[b] as number) - (cosine[a] as number) || a - b);
  const score = new Map<number, number>();
  lexical.ids.forEach((id, rank) => {
    score.set(id, 1 / (RRF_K + rank + 1));
  });
  bySimilarity.forEach((i, rank) => {
    const id = ids[i] as number;
    const lexicalScore = score.get(id);
    if (lexicalScore === undefined && (cosine[i] as number) < options.minSimilarity) return;
    score.set(id, (lexicalScore ?? 0) + options.weight / (RRF_K + rank + 1));
  });
  const fused = [...score.keys()].sort((a, b) => (score.get(b) as number) - (score.get(a) as number) || a - b);
  return { found: fused.length, ids: fused.slice(0, take), keywords: lexical.keywords };
}
