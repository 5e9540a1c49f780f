// The ranker hook: the host's embedding model, fused with the built-in ranking where it agrees with it (fusion.ts).

import { withTimeout } from '../base/timeout.ts';
import type { Catalogue } from '../core/catalogue.ts';
import { type RankResult, rankTools } from '../search/index.ts';
import { queryItem, toolVectors, vectorKeyOf } from './cache.ts';
import type { Similarities } from './fusion.ts';
import { confidence, FUSION_DEPTH, FUSION_PARAMS, fuseRankings } from './fusion.ts';
import { catalogueVectors, overFloor, sampledSimilarities } from './matrix.ts';
import type { ResolvedSemantic } from './options.ts';

// The option's types and schema live apart, so the core entry validates the option without loading the ranker.
export type { Embed, ResolvedSemantic, SemanticOptions } from './options.ts';
export { semanticSchema } from './options.ts';

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
      try {
        const [queryVector, vectors] = await withTimeout(
          Promise.all([
            toolVectors(options, key, [queryItem(query)], 'query'),
            catalogueVectors(options, key, catalogue, visible),
          ]),
          options.timeoutMs,
          `embed did not answer within ${options.timeoutMs} ms`,
        );
        const q = queryVector[0] as Float32Array;
        // The model abstained on the query: the keywords alone rank it.
        if (q.length === 0) return plain();
        const sims = sampledSimilarities(vectors, q, visible, lexical.ids.slice(0, FUSION_DEPTH));
        // The floor is searched only where the model earned trust (or the keywords found nothing): on noise, the
        // whole catalogue would pass some floor, and the pass over every vector would cost five keyword searches.
        const sure = confidence(sims, lexical.ids);
        const floor = additionFloor(sims, options.minSimilarity, lexical.ids.length);
        // A floor over 1 (the query's mean plus five deviations passes it) admits no unit vector: no pass is made.
        const floorTools =
          (sure > 0 || lexical.ids.length === 0) && floor <= 1
            ? overFloor(vectors, q, visible, sims.cosine, floor)
            : [];
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

/**
 * The cosine from which a tool joins without a keyword match: the option's floor, and, where the keywords found
 * something a weak model could crowd out, far out in the query's own spread too.
 */
function additionFloor(sims: Similarities, minSimilarity: number, matched: number): number {
  if (matched === 0) return minSimilarity;
  return Math.max(minSimilarity, sims.mean + FUSION_PARAMS.zAdd * sims.deviation);
}
