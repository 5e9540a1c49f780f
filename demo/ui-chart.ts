// The numbers across rounds: the tools block's tokens in each mode against the plain list, and what the session
// so far costs in each mode under the provider's cache rules, from `tool-search-layer/cost`.
import {
  type CostMode,
  type Provider as CostProvider,
  estimateSessionCost,
  recommendExposure,
  type SessionCostInput,
} from 'tool-search-layer/cost';
import { toolTokens } from './catalogues.ts';
import { type ChartData, drawChart, type Line } from './chart.ts';
import { CORE_MODES, type Round } from './host.ts';
import { PROVIDERS, type Provider } from './providers.ts';
import { byId, formatCount } from './view.ts';

const COLORS: Record<CostMode, string> = { none: '#b42318', tools: '#3538cd', bridge: '#027a48', native: '#8a4b00' };
const LABELS: Record<CostMode, string> = {
  none: 'without the layer',
  tools: 'mode tools',
  bridge: 'mode bridge',
  native: 'mode native',
};

/** The cost model's provider for a request shape. */
const costProvider = (provider: Provider): CostProvider =>
  provider === 'anthropic' || provider === 'gemini' ? provider : 'openai';

const CACHE_RULES: Record<CostProvider, string> = { anthropic: "Anthropic's", openai: "OpenAI's", gemini: "Gemini's" };

/** Tokens of the tools block per round: the plain list, then each core mode the library has. */
export function tokenData(rounds: readonly Round[]): ChartData {
  const line = (mode: 'none' | (typeof CORE_MODES)[number]): Line => ({
    key: mode,
    label: LABELS[mode],
    color: COLORS[mode],
    ...(mode === 'none' && { dash: [6, 4] }),
    values: rounds.map((round) => toolTokens(round.blocks[mode]) ?? null),
  });
  return { rounds: rounds.map((r) => r.number), unit: 'tokens', lines: [line('none'), ...CORE_MODES.map(line)] };
}

/**
 * The cost of the session up to each round, in each mode: `turns` are the rounds that were not searches,
 * `discoveries` the searches that found something, the catalogue is the visible tools' plain list, and the
 * search tool's size is measured, not assumed. Null while the tokenizer loads.
 */
export function costData(rounds: readonly Round[], provider: Provider, keep: Keep): ChartData {
  const estimates = rounds.map((round) => {
    const input = costInput(round, provider, keep);
    return input && estimateSessionCost(input);
  });
  const offered = new Set<string>(['none', ...PROVIDERS[provider].modes]);
  const lines = (['none', 'tools', 'bridge', 'native'] as const)
    .filter((mode) => offered.has(mode) && estimates.some((e) => e?.modes[mode]))
    .map((mode) => ({
      key: mode,
      label: LABELS[mode],
      color: COLORS[mode],
      ...(mode === 'none' && { dash: [6, 4] }),
      values: estimates.map((e) => (e?.modes[mode] ? Math.round(e.modes[mode].cost) : null)),
    }));
  return { rounds: rounds.map((r) => r.number), unit: 'token-equivalents', lines };
}

/** What the search returns and the set keeps, for the cost model. */
export interface Keep {
  readonly perSearch: number;
  readonly keep: number;
}

/**
 * The cost model's input for the session up to a round: `turns` are the rounds that were not searches,
 * `discoveries` the searches that found something, the catalogue is the visible tools' plain list, and the
 * search tool's size is measured, not assumed. Undefined while the tokenizer loads.
 */
export function costInput(round: Round, provider: Provider, keep: Keep): SessionCostInput | undefined {
  const catalogueTokens = toolTokens(round.blocks.none);
  const searchTool = round.blocks.tools[0];
  const searchToolTokens = searchTool && toolTokens([searchTool]);
  if (catalogueTokens === undefined || searchToolTokens === undefined) return undefined;
  const turns = Math.max(1, round.number - round.searches);
  return {
    provider: costProvider(provider),
    catalogueTokens,
    toolCount: Math.max(1, round.blocks.none.length),
    turns,
    discoveries: Math.min(round.searches, turns),
    toolsPerSearch: keep.perSearch,
    maxDiscoveredKeep: keep.keep,
    searchToolTokens,
  };
}

/** The modes of the cost model a provider's adapter offers (what the visitor can switch to). */
const offeredBy = (provider: Provider) =>
  PROVIDERS[provider].modes.filter((mode): mode is 'tools' | 'bridge' | 'native' => mode !== 'inline');

/**
 * The cheapest mode the provider's adapter offers, as `recommendExposure` says it given the modes offered. Its pick
 * among every mode can be one of another request shape under the same cache rules (native for Chat Completions,
 * which only Responses has): that one is named as another provider's, never recommended.
 */
export function advise(input: SessionCostInput, provider: Provider): { mode: CostMode; text: string } {
  const { label } = PROVIDERS[provider];
  const advice = recommendExposure({ ...input, modes: offeredBy(provider) });
  const { exposure: elsewhere, costs } = recommendExposure(input);
  const shapes = (Object.keys(PROVIDERS) as Provider[]).filter(
    (other) => costProvider(other) === costProvider(provider) && (offeredBy(other) as CostMode[]).includes(elsewhere),
  );
  const cheaper = (costs[elsewhere] as number) < (costs[advice.exposure] as number) && shapes.length > 0;
  const aside = cheaper
    ? ` '${elsewhere}' would cost ${formatCount(Math.round(costs[elsewhere] as number))}, but only with another request shape: ${shapes.map((p) => PROVIDERS[p].label).join(', ')}; ${label} does not offer it.`
    : '';
  const reason = advice.reason.replace(/^Sending/, 'sending');
  return { mode: advice.exposure, text: `of the modes ${label} offers, ${reason}${aside}` };
}

/** Draws both charts and the one-line headline about the last round. */
export function renderCharts(
  rounds: readonly Round[],
  provider: Provider,
  keep: { perSearch: number; keep: number },
): void {
  const tokens = tokenData(rounds);
  drawChart(byId('tokens-chart'), byId<HTMLTableElement>('tokens-table'), tokens);
  const cost = costData(rounds, provider, keep);
  drawChart(byId('cost-chart'), byId<HTMLTableElement>('cost-table'), cost);
  byId('cost-caption').textContent =
    `What the session so far costs in each mode under ${CACHE_RULES[costProvider(provider)]} cache rules (token-equivalents at the base input price, from tool-search-layer/cost)`;
  const last = rounds.at(-1);
  const input = last && costInput(last, provider, keep);
  const advice = byId('cost-advice');
  advice.hidden = !input;
  if (input) {
    const { mode, text } = advise(input, provider);
    advice.textContent = `For a session shaped like this one: ${text}`;
    advice.dataset.mode = mode;
  }
  const value = (key: string) => tokens.lines.find((l) => l.key === key)?.values.at(-1);
  const none = value('none');
  const headline = byId('chart-headline');
  if (!last || none === undefined || none === null) {
    headline.textContent = last ? 'Counting tokens…' : 'No round yet: play the script or search by hand.';
    return;
  }
  const parts = CORE_MODES.map((mode) => {
    const tokens = value(mode) ?? 0;
    // A mode can cost more than sending every tool (a small catalogue): the sign says which way.
    const change = Math.round((tokens / Math.max(1, none) - 1) * 100);
    return `${formatCount(tokens)} in mode ${mode} (${change > 0 ? '+' : '−'}${Math.abs(change)}%)`;
  });
  headline.textContent = `Round ${last.number}: the tools block is ${parts.join(', ')}, against ${formatCount(none)} tokens for all ${formatCount(last.blocks.none.length)} visible tools sent directly.`;
}
