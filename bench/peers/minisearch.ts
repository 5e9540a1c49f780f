// MiniSearch with its defaults: BM25+ (k 1.2, b 0.7, d 0.5), OR of terms, no prefix or fuzzy match.
import MiniSearch from 'minisearch';
import { nameWords } from './name-words.ts';
import type { Peer } from './peer.ts';

export const miniSearchPeer: Peer = {
  name: 'MiniSearch',
  settings: 'fields: name words, description; default tokenizer, BM25 and OR combination; no boosts, prefix or fuzzy',
  createRanker(tools, { limit }) {
    const index = new MiniSearch<{ id: string; name: string; description: string }>({
      fields: ['name', 'description'],
    });
    index.addAll(tools.map((t) => ({ id: t.name, name: nameWords(t.name), description: t.description ?? '' })));
    return (query) =>
      index
        .search(query)
        .slice(0, limit)
        .map((r) => r.id as string);
  },
};
