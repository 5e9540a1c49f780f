// Layers with different half-lives over one store and one tools array: each fades the stored credit by its own. The
// memory store hands every layer the very entries it holds, so what a search derives from an entry (its postings'
// faded weights) must be kept per half-life, not only per clock.
import { createMemoryStore, createToolSearch, type ToolSearch } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names } from './fixtures.ts';
import { turn } from './learn-share-fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
// The table alone: the memory of requests does not fade by the half-life.
const layer = (store: ReturnType<typeof createMemoryStore>, halfLife: number) =>
  createToolSearch({ store, logger: quiet, learn: { halfLife, memoryBytes: 0 } });

async function ranked(search: ToolSearch, sessionId: string): Promise<string[]> {
  const result = await search.search({ sessionId, tools }, { query: 'plover quince' });
  if ('error' in result) throw new Error(String(result.error));
  return names(result.tools);
}

describe('layers with different half-lives over one store', () => {
  it('rank by their own half-life, whichever searched first', async () => {
    const store = createMemoryStore();
    const feeder = layer(store, 5000);
    // 30 sessions teach one tool for words no tool holds, then 10 later sessions another, each written on its own.
    for (let i = 0; i < 40; i++) {
      const tool = i < 30 ? 'get_forecast' : 'write_file';
      await feeder.prepare({ sessionId: `s${i}`, tools, messages: turn('plover quince', [tool]) });
      await feeder.flush();
    }
    // Fading by one session, the first 30 are all but gone; by 5,000, they still outweigh the last 10.
    expect(await ranked(layer(store, 1), 'fast')).toEqual(['write_file']);
    expect(await ranked(layer(store, 5000), 'slow')).toEqual(['get_forecast', 'write_file']);
    expect(await ranked(layer(store, 1), 'fast-again')).toEqual(['write_file']);
  });
});
