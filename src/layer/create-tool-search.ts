// The layer: options resolved once into the state its verbs share (parts.ts), then one file per verb: prepare,
// search, and checkCall / callTool (call.ts); clear, flush and the learned credit are here.

import { ToolSearchError } from '../base/errors.ts';
import { callTool, createCheckCall } from './call.ts';
import type { ToolSearchOptions } from './options.ts';
import { createLayer } from './parts.ts';
import { createPrepare } from './prepare.ts';
import { createSearch } from './search.ts';
import type { ToolSearch } from './tool-search.ts';

export type { PrepareInput, PrepareResult, SearchContext, ToolSearch } from './tool-search.ts';

/**
 * Creates a tool-search layer. Creation is cheap (indexes are cached across layers), so a Worker may create one per request.
 * @example
 * const layer = createToolSearch({ maxDirectTools: 5, alwaysDirectTools: ['web_search'] })
 * const { tools } = await layer.prepare({ sessionId, tools: allTools, messages })
 */
export function createToolSearch(options?: ToolSearchOptions): ToolSearch {
  const layer = createLayer(options);
  const { learner } = layer;
  return {
    options: layer.resolved,
    prepare: createPrepare(layer),
    search: createSearch(layer),
    checkCall: createCheckCall(layer),
    ...layer.sessions.control,

    callTool(context, args, callOptions) {
      return callTool(layer, (...call) => this.checkCall(...call), context, args, callOptions);
    },

    async clear(sessionId) {
      if (sessionId !== undefined && typeof sessionId !== 'string') {
        throw new ToolSearchError('clear: sessionId must be a string, or omitted to clear every session');
      }
      // Credit still being written would land after the store is cleared.
      if (sessionId === undefined && learner) await (await learner()).drop();
      await layer.store.delete(sessionId);
      layer.held.forget(sessionId);
      if (sessionId === undefined && learner) (await learner()).clearMemory();
    },

    async flush() {
      if (learner) await (await learner()).flush();
    },

    async inspectLearned() {
      if (!learner) return [];
      return (await learner()).inspect(layer.warn);
    },

    async forgetLearned(scope) {
      if (scope !== undefined && (typeof scope !== 'string' || scope === '')) {
        throw new ToolSearchError("forgetLearned: scope must be a non-empty string, or omitted for this layer's own");
      }
      if (!learner) throw new ToolSearchError('forgetLearned: this layer has no `learn` option, so it learns nothing');
      await (await learner()).forget(scope);
    },
  };
}
