// The cost estimator against sessions run through the real adapters: the request bodies they send, counted
// with o200k and priced by the same rules, agree with the estimate within 10% (bench/cost-run.ts).
import { describe, expect, it } from 'vitest';
import { floorRatio } from '../../bench/cost.ts';
import { measureCost } from '../../bench/cost-run.ts';
import { loadSet } from '../../bench/data.ts';
import { discoveryQueries } from '../../bench/tokens.ts';

describe('cost estimator against recorded sessions', () => {
  it('agrees within 10% with the GitHub MCP sessions of every adapter but OpenAI native', async () => {
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
    for (const check of checks) {
      // OpenAI's native tool_search carries no names list, which the estimate counts (documented in docs/cost.md).
      const bound = check.provider === 'openai' && check.mode === 'native' ? 15 : 10;
      expect(Math.abs(check.gap), `${check.provider} ${check.mode}`).toBeLessThan(bound);
    }
    // The recorded sessions rank the modes as the estimator does: 'tools' rewrites, the bridge does not.
    const anthropic = rows.find((r) => r.provider === 'anthropic');
    expect(anthropic?.measured?.bridge).toBeLessThan(anthropic?.measured?.none as number);
    // The floor (only the used tools, inline, no search) is below every mode, and each default is priced against it.
    for (const row of rows) {
      expect(row.floor, row.provider).toBeGreaterThan(0);
      for (const cost of Object.values(row.measured ?? {})) {
        if (typeof cost === 'number') expect(row.floor, row.provider).toBeLessThan(cost);
      }
      expect(floorRatio(row), row.provider).toBeGreaterThan(1);
    }
  }, 60_000);
});
