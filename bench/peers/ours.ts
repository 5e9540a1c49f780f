// This library through its public API, as a user imports it (the package self-reference, dist/).
import { createToolSearch } from 'tool-search-layer';
import { loadIndex, serializeIndex } from 'tool-search-layer/cold-start';
import type { Peer } from './peer.ts';

export const oursPeer: Peer = {
  name: 'tool-search-layer',
  settings:
    'createToolSearch({ maxSearchResults: 0 }); layer.search(ctx, { query, limit }); the index is built lazily, so build = the first search (query: the first tool name)',
  async createRanker(tools, { limit }) {
    const layer = createToolSearch({ maxSearchResults: 0 });
    const context = { sessionId: 'bench', tools };
    const first = tools[0];
    if (first) await layer.search(context, { query: first.name, limit: 1 });
    return async (query) => {
      const result = (await layer.search(context, { query, limit })) as { tools?: { name: string }[] };
      return result.tools?.map((t) => t.name) ?? [];
    };
  },
};

/** The same layer in a new isolate that loads the index serialised at deploy time instead of building it. */
export const oursLoadedPeer: Peer = {
  name: 'tool-search-layer (loadIndex)',
  settings:
    'as tool-search-layer, after loadIndex(serializeIndex(tools), tools); serializeIndex runs untimed (deploy time), so build = loadIndex + the first search',
  deploy: (tools) => serializeIndex(tools),
  async createRanker(tools, options) {
    if (typeof options.deployed !== 'string' || !loadIndex(options.deployed, tools))
      throw new Error('[bench] [ours-loaded] the serialised index did not load');
    return oursPeer.createRanker(tools, options);
  },
};
