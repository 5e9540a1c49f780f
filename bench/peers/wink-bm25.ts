// wink-bm25-text-search with the wink-nlp-utils pipeline its 3.0.1 example used, default BM25 (k1 1.2, b 0.75, k 1).
import bm25 from 'wink-bm25-text-search';
import nlp from 'wink-nlp-utils';
import { nameWords } from './name-words.ts';
import type { Peer } from './peer.ts';

// The example's pipeline without propagateNegations, which marks words after "not" and suits reviews, not requests.
const prepTasks = [nlp.string.lowerCase, nlp.string.tokenize0, nlp.tokens.removeWords, nlp.tokens.stem];

export const winkBm25Peer: Peer = {
  name: 'wink-bm25',
  settings:
    'fields: name words, description (weight 1 each); prep: lowerCase, tokenize0, removeWords, stem (wink-nlp-utils)',
  createRanker(tools, { limit }) {
    const engine = bm25();
    engine.defineConfig({ fldWeights: { name: 1, description: 1 } });
    engine.definePrepTasks(prepTasks);
    tools.forEach((t, i) => {
      engine.addDoc({ name: nameWords(t.name), description: t.description ?? '' }, i);
    });
    // wink refuses to consolidate fewer than three documents.
    if (tools.length >= 3) engine.consolidate();
    else return () => [];
    return (query) =>
      (engine.search(query, limit) as [number, number][]).map(([id]) => (tools[id] as { name: string }).name);
  },
};
