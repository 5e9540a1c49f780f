// The semantic ranker, loaded on the first search of a layer that has the `semantic` option: a dynamic import,
// so bundlers make it a chunk of its own and the core entry does not carry it for the layers that never use it.

import type { RankResult } from '../search/index.ts';
import type { ResolvedSemantic } from '../search/semantic-options.ts';
import type { VectorPersistence } from '../search/semantic-stored.ts';
import type { Catalogue } from './catalogue.ts';

/** Ranks one search with the host's embeddings fused in. */
export interface LazyRanker {
  rank(catalogue: Catalogue, visible: (id: number) => boolean, query: string, take: number): Promise<RankResult>;
}

/** A ranker that imports the semantic ranker when it is first asked to rank; `persistence` keeps its vectors. */
export function lazySemanticRanker(
  options: ResolvedSemantic,
  warn: (message: string) => void,
  debug: (message: string) => void,
  persistence?: VectorPersistence,
): LazyRanker {
  let ranker: Promise<LazyRanker> | undefined;
  return {
    async rank(catalogue, visible, query, take) {
      ranker ??= import('../search/semantic-stored.ts').then((m) =>
        m.createStoredRanker(options, warn, debug, persistence),
      );
      return (await ranker).rank(catalogue, visible, query, take);
    },
  };
}
