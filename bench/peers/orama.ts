// Orama 3 with its defaults: BM25 (k 1.2, b 0.75, d 0.5), threshold 1 (any term), prefix matching, no stemming.
import { create, insertMultiple, search } from '@orama/orama';
import { nameWords } from './name-words.ts';
import type { Peer } from './peer.ts';

export const oramaPeer: Peer = {
  name: 'Orama',
  settings: 'schema: name words, description (strings); default tokenizer (English, no stemming), BM25 and threshold',
  async createRanker(tools, { limit }) {
    const db = create({ schema: { name: 'string', description: 'string' } as const });
    await insertMultiple(
      db,
      tools.map((t) => ({ id: t.name, name: nameWords(t.name), description: t.description ?? '' })),
    );
    return async (query) => {
      const result = await search(db, { term: query, properties: ['name', 'description'], limit });
      return result.hits.map((h) => h.id);
    };
  },
};
