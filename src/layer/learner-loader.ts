// The learner, loaded on the first round of a layer that has the `learn` option: a dynamic import, so bundlers
// make it a chunk of its own and the core entry does not carry it for the layers that never learn.
import type { Learner } from '../learn/learner.ts';
import type { ResolvedLearn } from '../learn/options.ts';
import type { DiscoveredStore } from '../stores/store.ts';

// The learner's module, imported once per isolate: a repeated import() of a loaded module still costs a resolution,
// which a Worker building a layer per request would pay on every request's first search.
let learnerModule: Promise<typeof import('../learn/learner.ts')> | undefined;

const loadLearner = () => {
  learnerModule ??= import('../learn/learner.ts').catch((error: unknown) => {
    // A failed load (a chunk the network lost) is tried again by the next layer.
    learnerModule = undefined;
    throw error;
  });
  return learnerModule;
};

/** The layer's learner, imported and created when first asked for. */
export function lazyLearner(
  options: ResolvedLearn,
  store: DiscoveredStore,
  guard: { timeoutMs: number; retryMs: number },
): () => Promise<Learner> {
  let learner: Promise<Learner> | undefined;
  return () => {
    learner ??= loadLearner().then((m) => m.createLearner(options, store, guard));
    return learner;
  };
}
