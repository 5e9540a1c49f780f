// FlexSearch 0.8 Document index with its defaults (strict tokenizer, resolution 9, default encoder).
import { Document } from 'flexsearch';
import { nameWords } from './name-words.ts';
import type { Peer } from './peer.ts';

export const flexSearchPeer: Peer = {
  name: 'FlexSearch',
  settings:
    'Document over name words + description, default tokenizer and encoder; search with suggest: true (without it a multi-word query must match every word) and merge: true across fields',
  createRanker(tools, { limit }) {
    const index = new Document({ document: { id: 'id', index: ['name', 'description'] } });
    tools.forEach((t, i) => {
      index.add({ id: i, name: nameWords(t.name), description: t.description ?? '' });
    });
    return (query) => {
      const hits = index.search(query, { limit, suggest: true, merge: true }) as { id: number }[];
      return hits.slice(0, limit).map((h) => (tools[h.id] as { name: string }).name);
    };
  },
};
