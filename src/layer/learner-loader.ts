// The learner, loaded on the first round of a layer that has the `learn` option: a dynamic import, so bundlers
// make it a chunk of its own and the core entry does not carry it for the layers that never learn.
import { once } from '../base/once.ts';
import type { Learner } from '../learn/learner.ts';
import type { ResolvedLearn } from '../learn/options.ts';
import type { DiscoveredStore } from '../stores/store.ts';

// The learner's module, imported once per isolate: a Worker building a layer per request would otherwise pay the
// import's resolution on every request's first search.
const loadLearner = once(() => import('../learn/learner.ts'));

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
