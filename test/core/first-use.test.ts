// The search's code (the lexical index, the tokenizer, the stemmer) loads with a layer's first search or refused
// call: whichever comes first in a fresh module finds it there. This file runs alone in its module graph (vitest
// isolates files in Node), so nothing has loaded the search before these calls.
import { createToolSearch } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, recordingLogger } from './fixtures.ts';

const context = { sessionId: 'first', tools: catalogue };

describe('the search code loads on first use', () => {
  it('answers a refused call of an unknown name, as the first act of a fresh layer, with the closest names', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    const check = await layer.checkCall(context, 'forecast_get');
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.result.closest).toContain('get_forecast');
  });

  it('ranks a search from a second layer, and a prepare before any search exposes without ranking', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    const prepared = await layer.prepare(context);
    expect(prepared.bypassed).toBe(false);
    const result = await layer.search(context, { query: 'weather forecast', limit: 1 });
    expect('tools' in result && result.tools.map((t) => t.name)).toEqual(['get_forecast']);
  });
});
