// The ranker hook: the host's embedding model, fused with the built-in ranking where it agrees with it (fusion.ts).
import * as v from 'valibot';
import type { Catalogue } from '../core/catalogue.ts';
import { count } from '../core/validate.ts';
import { confidence, FUSION_DEPTH, fuseRankings } from './fusion.ts';
import { type RankResult, rankTools } from './index.ts';
import { queryItem, toolVectors, vectorKeyOf } from './semantic-cache.ts';
import { catalogueVectors, overFloor, sampledSimilarities } from './semantic-matrix.ts';

/**
 * One vector per text, in order, or null for a text the model cannot embed (another language, say): a query it
 * abstains on is ranked by keywords alone, a tool it abstains on keeps its keyword rank. `kind` lets asymmetric
 * models prefix queries and documents differently.
 */
export type Embed = (
  texts: string[],
  kind: 'tool' | 'query',
) => Promise<readonly (readonly number[] | Float32Array | null)[]>;

/** The `semantic` option: the host's embedding function and how much its ranking counts. */
export interface SemanticOptions {
  /** Embeds texts (tools in batches of up to 64, or one query); no model is bundled and nothing is fetched by the library. */
  readonly embed: Embed;
  /** Weight of the semantic ranking in the fusion, scaled by its agreement with the keywords on each query; the built-in ranking weighs 1. Default 0.25. */
  readonly weight?: number;
  /** Cosine similarity from which a tool joins the result set without a keyword match. Default 0.5. */
  readonly minSimilarity?: number;
  /** How long a search waits for `embed` before answering with the built-in ranking alone. Default 2,000 ms. */
  readonly timeoutMs?: number;
  /** Names the model for the vector cache, so a per-request `embed` (a Worker's `env.AI`) shares vectors. Default: the identity of `embed`. */
  readonly model?: string;
}

/** The semantic option with its defaults applied. */
export interface ResolvedSemantic {
  readonly embed: Embed;
  readonly weight: number;
  readonly minSimilarity: number;
  readonly timeoutMs: number;
  readonly model: string | undefined;
}

/** The valibot schema of the `semantic` option (its output keeps `model` optional). */
export const semanticSchema: v.GenericSchema<
  unknown,
  (Omit<ResolvedSemantic, 'model'> & { readonly model?: string | undefined }) | undefined
> = v.optional(
  v.strictObject(
    {
      embed: v.custom<Embed>((value) => typeof value === 'function', 'must be a function'),
      weight: v.optional(
        v.pipe(v.number('must be a number'), v.finite('must be finite'), v.minValue(0, 'must be 0 or more')),
        0.25,
      ),
      minSimilarity: v.optional(
        v.pipe(v.number('must be a number'), v.minValue(-1, 'must be -1 or more'), v.maxValue(1, 'must be 1 or less')),
        0.5,
      ),
      timeoutMs: count(2000, 1),
      model: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'))),
    },
    'is not an option',
  ),
);

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
      const members = new Uint8Array(catalogue.tools.length);
      const lexical = rankTools(catalogue.index, query, { visible, take: Math.max(take, FUSION_DEPTH), members });
      const plain = (): RankResult => ({ ...lexical, ids: lexical.ids.slice(0, take) });
      // An empty query lists the catalogue and a query of stopwords matches nothing: no model is asked.
      if (lexical.keywords.length === 0) return plain();
      const ids: number[] = [];
      for (let id = 0; id < catalogue.tools.length; id++) if (visible(id)) ids.push(id);
      try {
        const [queryVector, vectors] = await withTimeout(
          Promise.all([
            toolVectors(options, key, [queryItem(query)], 'query'),
            catalogueVectors(options, key, catalogue, ids),
          ]),
          options.timeoutMs,
        );
        const q = queryVector[0] as Float32Array;
        // The model abstained on the query: the keywords alone rank it.
        if (q.length === 0) return plain();
        const sims = sampledSimilarities(vectors, q, ids, lexical.ids.slice(0, FUSION_DEPTH));
        // The floor is searched only where the model earned trust (or the keywords found nothing): on noise, the
        // whole catalogue would pass some floor, and the pass over every vector would cost five keyword searches.
        const sure = confidence(sims, lexical.ids);
        const floorTools =
          sure > 0 || lexical.ids.length === 0 ? overFloor(vectors, q, ids, sims.cosine, options.minSimilarity) : [];
        return fuseRankings(lexical, members, floorTools, sims, options.weight * sure, take);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const message = `the semantic ranker failed (${reason}); this search used the built-in ranking alone`;
        if (warned) debug(message);
        else {
          warned = true;
          warn(`${message} (warned once per layer)`);
        }
        return plain();
      }
    },
  };
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
