// The semantic ranker of a layer, with the store the host gave it: a named model's tool vectors are kept in the
// store's shared space too (vector-store.ts), so a cold isolate reads them back instead of embedding the catalogue.
import type { SharedGuardOptions } from '../core/shared-guard.ts';
import type { DiscoveredStore } from '../stores/store.ts';
import type { VectorSource } from './cache.ts';
import type { ResolvedSemantic } from './options.ts';
import { createSemanticRanker, type SemanticRanker } from './ranker.ts';
import { vectorStore } from './vector-store.ts';

/** Where a layer keeps its tool vectors: the store the host gave it, under the layer's store guard. */
export interface VectorPersistence {
  readonly store: DiscoveredStore;
  readonly guard: SharedGuardOptions;
}

/** The ranker of one layer; its vectors persist when the model is named and the host gave a store. */
export function createStoredRanker(
  options: ResolvedSemantic,
  warn: (message: string) => void,
  debug: (message: string) => void,
  persistence: VectorPersistence | undefined,
): SemanticRanker {
  const { model } = options;
  if (model === undefined || !persistence) return createSemanticRanker(options, warn, debug);
  const stored: ResolvedSemantic & VectorSource = {
    ...options,
    stored: vectorStore(persistence.store, persistence.guard, model, warn),
  };
  return createSemanticRanker(stored, warn, debug);
}
