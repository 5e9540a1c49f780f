// bench/semantic.ts on a tiny labelled set: the embedder module loads by path, both rankings are scored,
// the tools are embedded once, and the table renders. The figures are the benchmark's business.
import { describe, expect, it } from 'vitest';
import type { BenchSet } from '../../bench/data.ts';
import { loadEmbedder, measureSemantic, semanticTable } from '../../bench/semantic.ts';
import { renderText } from '../../bench/table.ts';

const tool = (name: string, description: string) => ({ name, description, parameters: null });
const tiny: BenchSet = {
  name: 'tiny',
  tools: [
    tool('getWeatherForecast', 'Get the weather forecast for a city'),
    tool('sendEmail', 'Send an email message to a recipient'),
    tool('createEvent', 'Create a calendar event'),
    tool('readFile', 'Read a file from disk'),
    tool('translateText', 'Translate text between languages'),
    tool('stockPrice', 'Latest stock price for a ticker'),
  ],
  queries: [
    { query: 'will it rain in Paris tomorrow (weather)', relevant: ['getWeatherForecast'] },
    { query: 'email my boss', relevant: ['sendEmail'] },
    { query: 'put a meeting in my calendar', relevant: ['createEvent'] },
  ],
};

describe('bench/semantic', () => {
  it('loads an embedder module by path and scores the labelled set with and without the hook', async () => {
    const embedder = await loadEmbedder('./bench/embedders/hashed.ts');
    expect(embedder.model).toBe('hashed-trigrams-256');
    const rows = await measureSemantic([tiny], embedder, { limit: 10 });
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.queries).toBe(3);
    expect(row?.without.recall5).toBeGreaterThan(0);
    expect(row?.with.recall5).toBeGreaterThan(0);
    expect(row?.fallbacks).toBe(0);
    // One call for the six tools, then one per query.
    expect(row?.calls).toBe(1 + 3);
    expect(row?.texts).toBe(6 + 3);
    const text = renderText(semanticTable(rows, './bench/embedders/hashed.ts'));
    expect(text).toContain('R@5 hook');
    expect(text).toContain('tiny');
  });

  it('says clearly when a module has no embed function', async () => {
    await expect(loadEmbedder('./bench/table.ts')).rejects.toThrow(/does not export an embed function/);
  });
});
