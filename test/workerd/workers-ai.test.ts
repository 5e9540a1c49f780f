// workersAiEmbed inside workerd, over a service binding (`AI`, test/workerd/main.ts's FakeAi) that answers as
// Workers AI's text embedding models do: the semantic option in one line, its vectors shared by model name.
import { env } from 'cloudflare:test';
import { createMemoryStore, createToolSearch, type SearchResult } from 'tool-search-layer';
import { type WorkersAiBinding, workersAiEmbed } from 'tool-search-layer/workers-ai';
import { describe, expect, it } from 'vitest';

type Call = { model: string; texts: string[]; pooling?: string };
const ai = (env as unknown as { AI: WorkersAiBinding & { calls(): Promise<Call[]> } }).AI;

const tools = ['get_forecast', 'send_mail', 'read_inbox', 'list_files', 'create_event', 'translate_text'].map(
  (name) => ({ name, description: name.replace('_', ' ') }),
);

// The runtime's own binding type fits (checked by tsc -p test/workerd): `Ai` of @cloudflare/workers-types.
const fromEnv = (environment: { AI: Ai }) => workersAiEmbed(environment.AI, '@cf/baai/bge-small-en-v1.5');

describe('workersAiEmbed (a Workers AI binding)', () => {
  it('embeds through env.AI.run(model, { text }) and names the vectors by the model', async () => {
    expect(fromEnv({ AI: ai as unknown as Ai }).model).toBe('@cf/baai/bge-small-en-v1.5');
    await ai.calls();
    const semantic = workersAiEmbed(ai, '@cf/baai/bge-small-en-v1.5');
    expect(semantic.model).toBe('@cf/baai/bge-small-en-v1.5');
    const vectors = await semantic.embed(['weather forecast', 'send mail'], 'tool');
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(8);
    expect(await ai.calls()).toEqual([
      { model: '@cf/baai/bge-small-en-v1.5', texts: ['weather forecast', 'send mail'] },
    ]);

    const cls = workersAiEmbed(ai, '@cf/baai/bge-base-en-v1.5', { pooling: 'cls' });
    expect(cls.model).toBe('@cf/baai/bge-base-en-v1.5:cls');
    await cls.embed(['x'], 'query');
    expect(await ai.calls()).toEqual([{ model: '@cf/baai/bge-base-en-v1.5', texts: ['x'], pooling: 'cls' }]);
    expect(workersAiEmbed(ai, '@cf/google/embeddinggemma-300m', { name: 'gemma-v1' }).model).toBe('gemma-v1');
  });

  it('takes the binding per request: a layer created once asks the current request’s binding', async () => {
    await ai.calls();
    let current: WorkersAiBinding | undefined;
    const layer = createToolSearch({
      store: createMemoryStore(),
      semantic: workersAiEmbed(() => {
        if (!current) throw new Error('no request');
        return current;
      }, `@cf/baai/bge-m3-${crypto.randomUUID()}`),
    });
    current = ai;
    const result = (await layer.search({ sessionId: 's', tools }, { query: 'forecast', limit: 1 })) as SearchResult;
    expect(result.tools.map((tool) => tool.name)).toEqual(['get_forecast']);
    const calls = await ai.calls();
    expect(calls.flatMap((call) => call.texts)).toHaveLength(tools.length + 1);
  });

  it('fails the search’s semantic part alone, with a warning, on an answer without embeddings', async () => {
    const lines: string[] = [];
    const layer = createToolSearch({
      logger: { warn: (line) => void lines.push(line) },
      semantic: workersAiEmbed(
        { run: async () => ({ request_id: 'queued' }) },
        `@cf/baai/bge-large-en-v1.5-${crypto.randomUUID()}`,
      ),
    });
    const result = (await layer.search({ sessionId: 's', tools }, { query: 'forecast', limit: 1 })) as SearchResult;
    expect(result.tools.map((tool) => tool.name)).toEqual(['get_forecast']);
    expect(lines.join('\n')).toMatch(/answered without 1 embeddings|answered without 6 embeddings/);
  });
});
