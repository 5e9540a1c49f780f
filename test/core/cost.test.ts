// The cost entry: prices checked by hand, the advisor on both sides of a break-even, and its input errors.

import { ToolSearchError } from 'tool-search-layer';
import { CACHE_RULES, estimateSessionCost, priceRequests, recommendExposure } from 'tool-search-layer/cost';
import { describe, expect, it } from 'vitest';

const requests = [
  { tokens: 2000, sharedTokens: 0 },
  { tokens: 2500, sharedTokens: 2000 },
  { tokens: 3000, sharedTokens: 100 },
];

describe('priceRequests', () => {
  it("prices Anthropic's breakpoint cache: a whole previous prompt is read, a changed start loses it all", () => {
    const price = priceRequests(requests, { rules: CACHE_RULES.anthropic, minCacheable: 1024 });
    // written 2000 + 500 + 3000 at 1.25, read 2000 at 0.1
    expect(price).toEqual({ cost: 7075, written: 5500, read: 2000, uncached: 0, output: 0, requests: 3 });
    const hour = priceRequests(requests, { rules: CACHE_RULES.anthropic, minCacheable: 1024, ttl: '1h' });
    expect(hour.cost).toBe(5500 * 2 + 200);
  });

  it("prices OpenAI's automatic cache: the longest seen prefix in 128-token steps past 1,024, writes free", () => {
    const price = priceRequests(requests, { rules: CACHE_RULES.openai, minCacheable: 1024 });
    // read 1024 + 7 * 128 = 1920 of the shared 2000; the rest at the full price
    expect(price).toEqual({ cost: 5580 + 192, written: 5580, read: 1920, uncached: 0, output: 0, requests: 3 });
  });

  it('pays prompts under the minimum in full and caches nothing from them', () => {
    const short = [
      { tokens: 900, sharedTokens: 0 },
      { tokens: 1000, sharedTokens: 900, outputTokens: 10 },
    ];
    const price = priceRequests(short, { rules: CACHE_RULES.anthropic, minCacheable: 1024 });
    expect(price).toEqual({ cost: 1900 + 50, written: 0, read: 0, uncached: 1900, output: 10, requests: 2 });
  });
});

describe('estimateSessionCost', () => {
  // Two turns, one discovery of one tool, on Anthropic (min 1,024): priced here by hand.
  const small = {
    provider: 'anthropic',
    catalogueTokens: 2200,
    toolCount: 10,
    turns: 2,
    discoveries: 1,
    turnTokens: 100,
    systemTokens: 1000,
    outputTokens: 0,
    toolsPerSearch: 1,
    searchToolTokens: 200,
  } as const;

  it('prices a small session by hand in each mode', () => {
    const { modes } = estimateSessionCost(small);
    // none: 3200 written, then 3300 (3200 read, 100 written)
    expect(modes.none?.cost).toBeCloseTo(3300 * 1.25 + 3200 * 0.1);
    // bridge: block 200 + 90; search round 1290 (written), its call 30 output at 5x; the result adds the call,
    // 100 of overhead and the found tool escaped inside the message (220 x 1.1): 372; turn 0 sends 1662
    // (1290 read), turn 1 sends 1762 (1662 read)
    expect(modes.bridge?.cost).toBeCloseTo((1290 + 372 + 100) * 1.25 + (1290 + 1662) * 0.1 + 30 * 5);
    // tools: the found tool (220) joins the block after the search, so turn 0 rewrites everything:
    // search 1200 written; turn 0 sends 200 + 220 + 1000 + 372 = 1792 written; turn 1 1892 (1792 read)
    expect(modes.tools?.cost).toBeCloseTo((1200 + 1792 + 100) * 1.25 + 1792 * 0.1 + 30 * 5);
    expect(modes.native).not.toBeNull();
  });

  it('takes the page size of each search in order, the last repeating, and names a bad list', () => {
    const pages = (toolsPerSearch: number | readonly number[]) =>
      estimateSessionCost({ ...small, turns: 6, discoveries: 3, toolsPerSearch }).modes.bridge?.cost;
    // The same three pages in any form cost the same; a list of one is the number itself.
    expect(pages([1, 5, 5])).toBeCloseTo(pages([1, 5]) as number);
    expect(pages([2])).toBeCloseTo(pages(2) as number);
    // A first page of one tool leaves less in the history for every later request than a first page of five.
    expect(pages([1, 5, 5])).toBeLessThan(pages([5, 5, 1]) as number);
    expect(() => estimateSessionCost({ ...small, toolsPerSearch: [] })).toThrow(/toolsPerSearch.*must not be empty/);
    expect(() => estimateSessionCost({ ...small, toolsPerSearch: [1.5] as never })).toThrow(/toolsPerSearch/);
  });

  it('has no native mode on Gemini, and cites a source for each provider', () => {
    expect(estimateSessionCost({ ...small, provider: 'gemini' }).modes.native).toBeNull();
    for (const rules of Object.values(CACHE_RULES)) {
      expect(rules.sources.length).toBeGreaterThan(0);
      for (const source of rules.sources) expect(source).toMatch(/^https:\/\//);
    }
  });

  it('uses the minimum cacheable length of the model', () => {
    expect(estimateSessionCost({ ...small, model: 'claude-opus-4-5-20251101' }).minCacheable).toBe(4096);
    expect(estimateSessionCost({ ...small, provider: 'gemini', model: 'gemini-2.5-flash' }).minCacheable).toBe(2048);
  });

  it('throws naming the field for bad input', () => {
    const bad = (input: unknown) => () => estimateSessionCost(input as never);
    expect(bad({ ...small, provider: 'mistral' })).toThrow(/"provider": must be "anthropic", "openai" or "gemini"/);
    expect(bad({ ...small, turns: 0 })).toThrow(/"turns": must be 1 or more/);
    expect(bad({ ...small, catalogueTokens: -1 })).toThrow(/"catalogueTokens": must be 0 or more/);
    expect(bad({ ...small, discoveries: 3 })).toThrow(/"discoveries": must be at most "turns"/);
    expect(bad({ ...small, extra: 1 })).toThrow(ToolSearchError);
    expect(bad(null)).toThrow(/expected an object/);
  });
});

describe('recommendExposure', () => {
  const session = { provider: 'anthropic', turns: 30, discoveries: 6 } as const;

  it('leaves the layer off for a small catalogue and says so', () => {
    const advice = recommendExposure({ ...session, catalogueTokens: 1500, toolCount: 8, turns: 10, discoveries: 2 });
    expect(advice.exposure).toBe('none');
    expect(advice.reason).toMatch(/^Sending every tool is cheapest/);
    expect(advice.costs.none).toBeLessThan(advice.costs.bridge as number);
  });

  it('picks an append-only mode for a large catalogue, on every provider', () => {
    for (const provider of ['anthropic', 'openai', 'gemini'] as const) {
      const advice = recommendExposure({ ...session, provider, catalogueTokens: 25_688, toolCount: 117 });
      expect(['bridge', 'native']).toContain(advice.exposure);
      const cheapest = Math.min(...Object.values(advice.costs).filter((c): c is number => c !== null));
      expect(advice.costs[advice.exposure]).toBe(cheapest);
      expect(advice.costs.tools).toBeGreaterThan(cheapest);
      expect(advice.reason.split('. ').length).toBe(1);
    }
  });

  it('chooses among the modes the request shape offers: Chat Completions has no native deferral', () => {
    const chat = { ...session, provider: 'openai', catalogueTokens: 25_688, toolCount: 117 } as const;
    const every = recommendExposure(chat);
    expect(every.exposure).toBe('native');
    const offered = recommendExposure({ ...chat, modes: ['tools', 'bridge'] });
    expect(offered.exposure).toBe('bridge');
    // The costs are every mode's still; the sentence compares only what is offered.
    expect(offered.costs).toEqual(every.costs);
    expect(offered.reason).not.toContain("'native'");
    expect(offered.reason).toMatch(/^'bridge' .* is cheapest at [\d,]+ token-equivalents/);
    // Gemini prices no native mode: offered only that, leaving the layer off is the one choice.
    const gemini = recommendExposure({ ...chat, provider: 'gemini', modes: ['native'] });
    expect(gemini.exposure).toBe('none');
    expect(gemini.reason).toMatch(/^Sending every tool \([\d,]+ token-equivalents\) is the only choice here: gemini/);
    expect(() => recommendExposure({ ...chat, modes: [] })).toThrow('invalid option "modes": must not be empty');
    expect(() => recommendExposure({ ...chat, modes: ['deferred' as 'native'] })).toThrow(
      'must hold "tools", "bridge" or "native" only',
    );
  });

  it('crosses over from none to the layer as the catalogue grows', () => {
    const pick = (catalogueTokens: number) => recommendExposure({ ...session, catalogueTokens }).exposure;
    expect(pick(1000)).toBe('none');
    expect(pick(50_000)).not.toBe('none');
  });
});
