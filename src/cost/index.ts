// tool-search-layer/cost: what a session costs in each exposure mode under a provider's cache rules, and
// which mode is cheapest. Pure arithmetic over published rules: no network, no tokenizer.
import * as v from 'valibot';
import { ToolSearchError } from '../base/errors.ts';
import { count, parseOptions } from '../base/validate.ts';
import { priceRequests, type SessionPrice } from './price.ts';
import { CACHE_RULES, minCacheableFor, type Provider } from './rules.ts';
import { type CostMode, type ResolvedShape, sessionRequests } from './session.ts';

export type { PricedRequest, PriceOptions, SessionPrice } from './price.ts';
export { priceRequests } from './price.ts';
export type { CacheRules, Provider } from './rules.ts';
export { CACHE_RULES, minCacheableFor } from './rules.ts';
export type { CostMode } from './session.ts';

/** A session's shape: the catalogue, how long it runs and how often the model discovers tools. */
export interface SessionCostInput {
  readonly provider: Provider;
  /** Tokens of the whole tools block sent without the layer. */
  readonly catalogueTokens: number;
  /** Model rounds the session would have without the layer (each discovery adds one search round). */
  readonly turns: number;
  /** Searches that find new tools, spread evenly over the session. */
  readonly discoveries: number;
  /** Tokens each turn appends to the conversation (user text, tool results, the reply). Default 400. */
  readonly turnTokens?: number;
  /** Tokens of the system prompt. Default 800. */
  readonly systemTokens?: number;
  /** Tokens the model writes per turn (priced at the output multiplier). Default 150. */
  readonly outputTokens?: number;
  /** Tools in the catalogue. Default: one per 220 catalogue tokens (the GitHub MCP server's average). */
  readonly toolCount?: number;
  /** OpenAI native mode's namespaces, whose names and descriptions stay in the prefix. Default: one per 9 tools. */
  readonly groupCount?: number;
  /**
   * Tools one search returns, all of which join the discovered set. Default 5 (`maxSearchResults`). A list gives
   * each search's count in order, its last repeating: a search without `limit` stops where the ranking is confident,
   * so a session's pages differ in size, and the order matters under a provider's minimum cacheable length.
   */
  readonly toolsPerSearch?: number | readonly number[];
  /** Tokens of a tool a search finds. Default: the catalogue's average; searches tend to find the larger tools. */
  readonly foundToolTokens?: number;
  /** The layer's `maxDiscoveredKeep`. Default 20. */
  readonly maxDiscoveredKeep?: number;
  /** Tokens of the search tool's definition with its names list. Default: 120 plus 5 per tool, at most 1,620. */
  readonly searchToolTokens?: number;
  /** Search results as name, description and a one-line summary (`searchResults: 'compact'`). Default false. */
  readonly compactResults?: boolean;
  /** The model, for its minimum cacheable length (e.g. 'claude-opus-4-5', 'gemini-2.5-flash'). */
  readonly model?: string;
  /** Anthropic's cache lifetime. Default '5m'. */
  readonly ttl?: '5m' | '1h';
  /** The model's cached-input price over its input price, when it differs from the provider's newest. */
  readonly readMultiplier?: number;
  /** The model's output price over its input price. */
  readonly outputMultiplier?: number;
  /**
   * The modes the host's request shape offers, for `recommendExposure` to choose among (leaving the layer off is
   * always among them): OpenAI's Chat Completions has no native deferral, its Responses API has. Default: every mode
   * the provider's rules price.
   */
  readonly modes?: readonly ('tools' | 'bridge' | 'native')[];
}

/** The cost of one session in every mode; `null` where the provider has no such mode. */
export interface SessionCost {
  readonly provider: Provider;
  readonly minCacheable: number;
  readonly modes: Readonly<Record<CostMode, SessionPrice | null>>;
  /** Where the rules come from. */
  readonly sources: readonly string[];
}

/** The cheapest mode for a session, every mode's cost, and one sentence saying why. */
export interface ExposureAdvice {
  readonly exposure: CostMode;
  readonly costs: Readonly<Record<CostMode, number | null>>;
  readonly reason: string;
}

const tokens = (fallback?: number) =>
  fallback === undefined
    ? v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(0, 'must be 0 or more'))
    : count(fallback);
const ratio = v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must be 0 or more'), v.finite()));

const inputSchema = v.strictObject({
  provider: v.picklist(['anthropic', 'openai', 'gemini'], 'must be "anthropic", "openai" or "gemini"'),
  catalogueTokens: tokens(),
  turns: v.pipe(tokens(), v.minValue(1, 'must be 1 or more')),
  discoveries: tokens(),
  turnTokens: tokens(400),
  systemTokens: tokens(800),
  outputTokens: tokens(150),
  toolCount: v.optional(v.pipe(tokens(), v.minValue(1, 'must be 1 or more'))),
  groupCount: v.optional(tokens()),
  toolsPerSearch: v.optional(
    v.union(
      [tokens(), v.pipe(v.array(tokens()), v.minLength(1, 'must not be empty'))],
      'must be an integer of 0 or more, or a non-empty list of them',
    ),
    5,
  ),
  foundToolTokens: v.optional(tokens()),
  maxDiscoveredKeep: tokens(20),
  searchToolTokens: v.optional(tokens()),
  compactResults: v.optional(v.boolean('must be true or false'), false),
  model: v.optional(v.string('must be a string')),
  ttl: v.optional(v.picklist(['5m', '1h'], 'must be "5m" or "1h"'), '5m'),
  readMultiplier: ratio,
  outputMultiplier: ratio,
  modes: v.optional(
    v.pipe(
      v.array(v.picklist(['tools', 'bridge', 'native'], 'must hold "tools", "bridge" or "native" only')),
      v.minLength(1, 'must not be empty'),
    ),
  ),
});

const MODES: readonly CostMode[] = ['none', 'tools', 'bridge', 'native'];

/** Resolves the defaults; throws ToolSearchError naming each bad field. */
function resolveInput(input: SessionCostInput, where: string) {
  const parsed = parseOptions(inputSchema, input, where);
  if (parsed.discoveries > parsed.turns) {
    throw new ToolSearchError(`${where}: invalid option "discoveries": must be at most "turns" (${parsed.turns})`);
  }
  const toolCount = parsed.toolCount ?? Math.max(1, Math.round(parsed.catalogueTokens / 220));
  const shape: ResolvedShape = {
    ...parsed,
    toolCount,
    groupCount: parsed.groupCount ?? Math.ceil(toolCount / 9),
    foundToolTokens: parsed.foundToolTokens ?? parsed.catalogueTokens / toolCount,
    searchToolTokens: parsed.searchToolTokens ?? 120 + Math.min(1500, 5 * toolCount),
  };
  return { parsed, shape };
}

/**
 * Prices a session in every mode under the provider's published cache rules, in token-equivalents at the
 * base input price (a cache read of 100 tokens at 0.1x costs 10).
 * @example
 * estimateSessionCost({ provider: 'anthropic', catalogueTokens: 25_700, turns: 30, discoveries: 6 }).modes.bridge?.cost
 */
export function estimateSessionCost(input: SessionCostInput): SessionCost {
  const { parsed, shape } = resolveInput(input, 'estimateSessionCost');
  const rules = CACHE_RULES[parsed.provider];
  const minCacheable = minCacheableFor(rules, parsed.model);
  const price = (mode: CostMode) =>
    mode === 'native' && !rules.nativeDeferral
      ? null
      : priceRequests(sessionRequests(mode, shape), {
          rules,
          minCacheable,
          ttl: parsed.ttl,
          ...(parsed.readMultiplier === undefined ? {} : { readMultiplier: parsed.readMultiplier }),
          ...(parsed.outputMultiplier === undefined ? {} : { outputMultiplier: parsed.outputMultiplier }),
        });
  const modes = Object.fromEntries(MODES.map((mode) => [mode, price(mode)])) as Record<CostMode, SessionPrice | null>;
  return { provider: parsed.provider, minCacheable, modes, sources: rules.sources };
}

const NAMES: Readonly<Record<CostMode, string>> = {
  none: 'sending every tool every turn (no layer)',
  tools: "'tools' (the tools block grows at each discovery)",
  bridge: "'bridge' (a constant tools block; schemas arrive in search results)",
  native: "'native' (the provider's own deferral; loaded tools are appended)",
};

const round = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * The cheapest mode for a session among those its request shape offers (`modes`), with every mode's cost and the
 * reason in one sentence.
 */
export function recommendExposure(input: SessionCostInput): ExposureAdvice {
  const estimate = estimateSessionCost(input);
  const { modes: offered } = input;
  const costs = Object.fromEntries(MODES.map((mode) => [mode, estimate.modes[mode]?.cost ?? null])) as Record<
    CostMode,
    number | null
  >;
  // Ties go to the earlier mode of this order: append-only first, then the layer's own, then no layer.
  const order = (['native', 'bridge', 'tools', 'none'] as const).filter(
    (mode) => mode === 'none' || !offered || offered.includes(mode),
  );
  let best: CostMode = 'none';
  for (const mode of order) {
    const cost = costs[mode];
    if (cost !== null && cost < (costs[best] ?? Number.POSITIVE_INFINITY) - 1e-9) best = mode;
  }
  const none = costs.none as number;
  const runnerUp = order
    .filter((mode) => mode !== best && costs[mode] !== null)
    .sort((a, b) => (costs[a] as number) - (costs[b] as number))[0];
  const bestCost = costs[best] as number;
  const reason = !runnerUp
    ? `Sending every tool (${round(none)} token-equivalents) is the only choice here: ${estimate.provider}'s rules price none of the modes offered.`
    : best === 'none'
      ? `Sending every tool is cheapest here (${round(none)} token-equivalents against ${round(costs[runnerUp] as number)} for ${NAMES[runnerUp]}): the catalogue is small enough that the layer's search rounds cost more than its cached tools, so leave the layer off for sessions like this.`
      : `${NAMES[best]} is cheapest at ${round(bestCost)} token-equivalents, ${Math.round((1 - bestCost / none) * 100)}% below sending every tool (${round(none)}) and ${round((costs[runnerUp] as number) - bestCost)} below the next best, ${NAMES[runnerUp]}.`;
  return { exposure: best, costs, reason };
}
