// The semantic ranker, loaded on the first search of a layer that has the `semantic` option: a dynamic import,
// so bundlers make it a chunk of its own and the core entry does not carry it for the layers that never use it.

import { once } from '../base/once.ts';
import type { ResolvedSemantic } from '../semantic/options.ts';
// A type only: the ranker itself stays in its chunk.
import type { SemanticRanker } from '../semantic/ranker.ts';
import type { VectorPersistence } from '../semantic/stored.ts';

// The module, imported once per isolate (a Worker builds a layer per request).
const loadStored = once(() => import('../semantic/stored.ts'));

/** A ranker that imports the semantic ranker when it is first asked to rank; `persistence` keeps its vectors. */
export function lazySemanticRanker(
  options: ResolvedSemantic,
  warn: (message: string) => void,
  debug: (message: string) => void,
  persistence?: VectorPersistence,
): SemanticRanker {
  let ranker: Promise<SemanticRanker> | undefined;
  return {
    async rank(catalogue, visible, query, take) {
      ranker ??= loadStored().then((m) => m.createStoredRanker(options, warn, debug, persistence));
      return (await ranker).rank(catalogue, visible, query, take);
    },
  };
}
