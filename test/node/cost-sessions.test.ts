// The cost estimator against sessions run through the real adapters: the request bodies they send, counted
// with o200k and priced by the same rules, agree with the estimate within 10% (bench/cost-run.ts).
import { describe, expect, it } from 'vitest';
import { floorRatio } from '../../bench/cost.ts';
import { measureCost } from '../../bench/cost-run.ts';
import { loadSet } from '../../bench/data.ts';
import { discoveryQueries } from '../../bench/tokens.ts';

describe('cost estimator against recorded sessions', () => {
  it('agrees within 10% with the GitHub MCP sessions of every adapter and mode', async () => {
    const { checks, rows } = await measureCost(
      [{ name: 'mcp-github', tools: loadSet('mcp-github').tools, queries: discoveryQueries['mcp-github'] ?? [] }],
      [{ turns: 10, discoveries: 2 }],
    );
    expect(checks.map((c) => `${c.provider} ${c.mode}`)).toEqual([
      'anthropic none',
      'anthropic tools',
      'anthropic bridge',
      'anthropic native',
      'openai none',
      'openai tools',
      'openai bridge',
      'openai native',
      'gemini none',
      'gemini tools',
      'gemini bridge',
    ]);
    for (const check of checks) expect(Math.abs(check.gap), `${check.provider} ${check.mode}`).toBeLessThan(10);
    // The recorded sessions rank the modes as the estimator does: 'tools' rewrites, the bridge does not.
    const anthropic = rows.find((r) => r.provider === 'anthropic');
    expect(anthropic?.measured?.bridge).toBeLessThan(anthropic?.measured?.none as number);
    // The floor (only the used tools, inline, no search) is below every mode, and each default is priced against it.
    // Gemini caches nothing under 4,096 tokens: the floor's short requests pay full price there, and a bridge whose
    // longer requests are read from the cache may come within a few percent of it, or under it (docs/cost.md).
    for (const row of rows) {
      expect(row.floor, row.provider).toBeGreaterThan(0);
      const margin = row.provider === 'gemini' ? 0.95 : 1;
      for (const cost of Object.values(row.measured ?? {})) {
        if (typeof cost === 'number') expect(row.floor, row.provider).toBeLessThan(cost / margin);
      }
      expect(floorRatio(row), row.provider).toBeGreaterThan(margin);
    }
  }, 60_000);
});
