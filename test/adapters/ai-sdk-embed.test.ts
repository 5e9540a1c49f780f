// embedWith: the `semantic` option from an AI SDK embedding model, through embedMany and the SDK's own mock model.

import { MockEmbeddingModelV4 } from 'ai/test';
import { createToolSearch, type SearchResult } from 'tool-search-layer';
import { embedWith } from 'tool-search-layer/ai-sdk';
import { describe, expect, it } from 'vitest';

/** Two dimensions: how much a text is about weather, and how much about mail. */
const vectorOf = (text: string): number[] => [
  /weather|forecast|rain/i.test(text) ? 1 : 0.05,
  /mail/i.test(text) ? 1 : 0.05,
];

function mockModel(maxEmbeddingsPerCall = 100) {
  return new MockEmbeddingModelV4({
    provider: 'mock-provider',
    modelId: 'mock-embedding',
    maxEmbeddingsPerCall,
    doEmbed: async ({ values }) => ({ embeddings: values.map(vectorOf), warnings: [] }),
  });
}

describe('embedWith (AI SDK embedding models)', () => {
  it('gives an embed over embedMany and a stable model name', async () => {
    const model = mockModel();
    const semantic = embedWith(model);
    expect(Object.keys(semantic).sort()).toEqual(['embed', 'model']);
    expect(semantic.model).toBe('mock-provider/mock-embedding');
    expect(embedWith(model, { dimensions: 256 }).model).toBe('mock-provider/mock-embedding@256');
    expect(embedWith(model, { model: 'mine-v2' }).model).toBe('mine-v2');
    expect(embedWith('openai/text-embedding-3-small').model).toBe('openai/text-embedding-3-small');
    expect(await semantic.embed(['rain tomorrow', 'send mail'], 'tool')).toEqual([
      [1, 0.05],
      [0.05, 1],
    ]);
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([['rain tomorrow', 'send mail']]);
  });

  it('passes dimensions, and provider options per kind of text', async () => {
    const model = mockModel();
    const semantic = embedWith(model, {
      dimensions: 2,
      providerOptions: (kind) => ({
        google: { taskType: kind === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT' },
      }),
    });
    await semantic.embed(['a tool'], 'tool');
    await semantic.embed(['a query'], 'query');
    const calls = model.doEmbedCalls.map(({ dimensions, providerOptions }) => ({ dimensions, providerOptions }));
    expect(calls).toEqual([
      { dimensions: 2, providerOptions: { google: { taskType: 'RETRIEVAL_DOCUMENT' } } },
      { dimensions: 2, providerOptions: { google: { taskType: 'RETRIEVAL_QUERY' } } },
    ]);
  });

  it('ranks a layer’s search in one line, batches split to the model’s own limit by embedMany', async () => {
    const model = mockModel(3);
    const layer = createToolSearch({ semantic: { ...embedWith(model), model: `mock-${crypto.randomUUID()}` } });
    const tools = ['get_forecast', 'send_mail', 'read_inbox', 'list_files', 'create_event', 'translate_text'].map(
      (name) => ({ name, description: name.replace('_', ' ') }),
    );
    const result = (await layer.search({ sessionId: 's', tools }, { query: 'forecast', limit: 1 })) as SearchResult;
    expect(result.tools.map((tool) => tool.name)).toEqual(['get_forecast']);
    // Six tools in calls of at most three, and the query.
    expect(model.doEmbedCalls.map((call) => call.values.length).sort()).toEqual([1, 3, 3]);
  });
});
