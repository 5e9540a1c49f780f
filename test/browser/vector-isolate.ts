// A cold isolate in the browser: a module Worker loads its own copy of the library, searches once over an
// IndexedDB store with a counting model, and posts back what the model was asked (test/browser/indexeddb.test.ts).
import { createToolSearch, type SearchResult, type Tool } from 'tool-search-layer';
import { createIndexedDbStore } from 'tool-search-layer/indexeddb';
import { countingModel } from '../stores/counting-model.ts';

/** What the page sends: the database, the model's name and the catalogue. */
export interface ColdSearch {
  readonly dbName: string;
  readonly model: string;
  readonly tools: readonly Tool[];
}

self.onmessage = async (event: MessageEvent<ColdSearch>) => {
  const { dbName, model, tools } = event.data;
  const { asked, embed } = countingModel();
  const lines: string[] = [];
  const layer = createToolSearch({
    store: createIndexedDbStore({ dbName }),
    storeTimeoutMs: 10_000,
    logger: { warn: (line) => void lines.push(line) },
    semantic: { embed, model },
  });
  const result = await layer.search({ sessionId: 's', tools: [...tools] }, { query: 'weather forecast', limit: 3 });
  self.postMessage({ asked, lines, names: (result as SearchResult).tools.map((tool) => tool.name) });
};
