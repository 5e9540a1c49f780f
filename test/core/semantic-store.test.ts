// Tool vectors in a store that fails: the search goes on with the model, warned once, as the store guard promises.
import { createMemoryStore, createToolSearch, type DiscoveredStore, type SearchResult } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { countingModel } from '../stores/counting-model.ts';

const tools = ['get_forecast', 'send_mail', 'read_inbox', 'list_files', 'create_event', 'translate_text'].map(
  (name) => ({ name, description: name.replace('_', ' ') }),
);

/** A memory store whose shared space fails every call (quota, a closed connection). */
function failingShared(): DiscoveredStore {
  const store = createMemoryStore();
  const fail = async (): Promise<never> => {
    throw new Error('quota exceeded');
  };
  return { ...store, name: 'failing', shared: { get: fail, update: fail, delete: fail } };
}

describe('tool vectors in a failing store', () => {
  it('answers with the model’s vectors, warning once, and keeps asking nothing of the model again', async () => {
    const lines: string[] = [];
    const { asked, embed } = countingModel();
    const layer = createToolSearch({
      store: failingShared(),
      logger: { warn: (line) => void lines.push(line) },
      semantic: { embed, model: `model-${crypto.randomUUID()}` },
    });
    const first = (await layer.search({ sessionId: 's', tools }, { query: 'forecast', limit: 1 })) as SearchResult;
    const again = (await layer.search({ sessionId: 's', tools }, { query: 'send mail', limit: 1 })) as SearchResult;
    expect([first.tools[0]?.name, again.tools[0]?.name]).toEqual(['get_forecast', 'send_mail']);
    expect(asked.tool).toHaveLength(tools.length);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/store "failing" failed on a shared value \(quota exceeded\)/);
  });
});
