// The cost table of `npm run bench`: scripted sessions priced by tool-search-layer/cost in every mode and
// provider, on the GitHub MCP catalogue and a 1,000-tool slice of seal-tools, with the break-even points.
// bench/cost-sessions.ts runs the same sessions through the real adapters and prices the recorded bodies;
// this file compares the two.

import { createToolSearch, SEARCH_TOOL_NAME, type Tool } from 'tool-search-layer';
import { type CostMode, estimateSessionCost, type Provider, recommendExposure } from 'tool-search-layer/cost';
import type { BenchTool } from './data.ts';
import type { Table } from './table.ts';
import { toolsTokens } from './tokens.ts';

export const COST_PROVIDERS: readonly Provider[] = ['anthropic', 'openai', 'gemini'];
export const COST_MODES: readonly CostMode[] = ['none', 'tools', 'bridge', 'native'];
export const COST_SESSIONS = [
  { turns: 10, discoveries: 2 },
  { turns: 10, discoveries: 6 },
  { turns: 30, discoveries: 2 },
  { turns: 30, discoveries: 6 },
] as const;

/** What the estimator needs to know about a catalogue, measured with o200k. */
export interface CatalogueShape {
  name: string;
  catalogueTokens: number;
  toolCount: number;
  /** Namespaces OpenAI's native mode makes: each group in runs of at most 9, ungrouped tools likewise. */
  groupCount: number;
  searchToolTokens: number;
  /** The average tokens of the tools the catalogue's queries find (searches favour the larger tools). */
  foundToolTokens: number;
  /** The definitions a search of the catalogue's queries returns, on average (at most 5; fewer when confident). */
  toolsPerSearch: number;
}

/** Measures a catalogue the way the estimator takes it: the whole tools block, the search tool, what searches find. */
export async function catalogueShape(
  name: string,
  tools: readonly BenchTool[],
  queries: readonly string[],
): Promise<CatalogueShape> {
  const layer = createToolSearch();
  const { tools: exposed } = await layer.prepare({ sessionId: 'cost', tools });
  const found: Tool[] = [];
  const searched = queries.slice(0, 20);
  for (const query of searched) {
    const result = await layer.search({ sessionId: 'cost', tools }, { query });
    if ('tools' in result) found.push(...(result.tools as readonly Tool[]));
  }
  const sizes = new Map<string, number>();
  for (const tool of tools) {
    const group = tool.groups?.[0] ?? '';
    sizes.set(group, (sizes.get(group) ?? 0) + 1);
  }
  return {
    name,
    catalogueTokens: toolsTokens(tools),
    toolCount: tools.length,
    groupCount: [...sizes.values()].reduce((sum, n) => sum + Math.ceil(n / 9), 0),
    searchToolTokens: toolsTokens(exposed.filter((t) => t.name === SEARCH_TOOL_NAME)),
    foundToolTokens: Math.round(toolsTokens(found) / Math.max(1, found.length)),
    toolsPerSearch: Math.max(1, Math.round(found.length / Math.max(1, searched.length))),
  };
}

export interface CostRow {
  catalogue: string;
  turns: number;
  discoveries: number;
  provider: Provider;
  estimated: Record<CostMode, number | null>;
  /** Filled by bench/cost-sessions.ts: the recorded sessions priced the same way. */
  measured?: Partial<Record<CostMode, number | null>>;
  /**
   * Filled by bench/cost-run.ts: the floor, the same recorded session with only the tools it uses sent inline from
   * the first request (no search, no extra round), priced the same way. No layer can cost less.
   */
  floor?: number;
  cheapest: CostMode;
}

/** Every scripted session priced by the estimator. */
export function estimateRows(
  shapes: readonly CatalogueShape[],
  sessions: readonly { turns: number; discoveries: number }[] = COST_SESSIONS,
): CostRow[] {
  const rows: CostRow[] = [];
  for (const shape of shapes) {
    for (const session of sessions) {
      for (const provider of COST_PROVIDERS) {
        const advice = recommendExposure({ provider, ...session, ...shapeInput(shape) });
        rows.push({ catalogue: shape.name, ...session, provider, estimated: advice.costs, cheapest: advice.exposure });
      }
    }
  }
  return rows;
}

export const shapeInput = (shape: CatalogueShape) => ({
  catalogueTokens: shape.catalogueTokens,
  toolCount: shape.toolCount,
  groupCount: shape.groupCount,
  searchToolTokens: shape.searchToolTokens,
  foundToolTokens: shape.foundToolTokens,
  toolsPerSearch: shape.toolsPerSearch,
});

/**
 * The smallest catalogue (in tokens, tools of the GitHub catalogue's average size) from which the cheapest
 * layer mode beats sending every tool, for a session shape: found by bisection.
 */
export function breakEven(provider: Provider, turns: number, discoveries: number, tokensPerTool: number): number {
  const layerWins = (catalogueTokens: number) => {
    const input = {
      provider,
      turns,
      discoveries,
      catalogueTokens,
      toolCount: Math.max(1, Math.round(catalogueTokens / tokensPerTool)),
    };
    const { modes } = estimateSessionCost(input);
    const none = modes.none?.cost ?? 0;
    return (['tools', 'bridge', 'native'] as const).some((m) => (modes[m]?.cost ?? Number.POSITIVE_INFINITY) < none);
  };
  let low = 0;
  let high = 1_000_000;
  if (!layerWins(high)) return Number.POSITIVE_INFINITY;
  while (high - low > 50) {
    const mid = Math.floor((low + high) / 2);
    if (layerWins(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/** The exposure each provider's adapter uses when the host names none (Anthropic native, OpenAI and Gemini bridge). */
export const DEFAULT_EXPOSURE: Readonly<Record<Provider, CostMode>> = {
  anthropic: 'native',
  openai: 'bridge',
  gemini: 'bridge',
};

/** The measured cost of a row's default exposure over its floor; undefined before both are measured. */
export function floorRatio(row: CostRow): number | undefined {
  const cost = row.measured?.[DEFAULT_EXPOSURE[row.provider]];
  return cost === null || cost === undefined || !row.floor ? undefined : cost / row.floor;
}

const k = (n: number | null | undefined) => (n === null || n === undefined ? '–' : `${(n / 1000).toFixed(1)}k`);

/** The cost table: one row per catalogue, session and provider; estimated (and measured) cost per mode. */
export function costTable(rows: readonly CostRow[]): Table {
  const measured = rows.some((r) => r.measured);
  const floored = rows.some((r) => r.floor !== undefined);
  const ratio = (row: CostRow) => {
    const r = floorRatio(row);
    return r === undefined ? '–' : `${r.toFixed(2)}x (${DEFAULT_EXPOSURE[row.provider]})`;
  };
  const cell = (row: CostRow, mode: CostMode) => {
    const estimate = k(row.estimated[mode]);
    const recorded = row.measured?.[mode];
    return measured && recorded !== undefined ? `${estimate} / ${k(recorded)}` : estimate;
  };
  return {
    title: 'Cost of a session per exposure mode (token-equivalents at the base input price)',
    columns: [
      'catalogue',
      'rounds',
      'discoveries',
      'provider',
      ...COST_MODES,
      'cheapest',
      ...(floored ? ['floor', 'default ÷ floor'] : []),
    ],
    rows: rows.map((r) => [
      r.catalogue,
      String(r.turns),
      String(r.discoveries),
      r.provider,
      ...COST_MODES.map((m) => cell(r, m)),
      r.cheapest,
      ...(floored ? [k(r.floor), ratio(r)] : []),
    ]),
    notes: [
      "none: every tool sent every round (no layer); tools, bridge, native: the exposure modes of SPEC 11 (native: the provider's own deferral; Gemini has none).",
      "Priced by tool-search-layer/cost under each provider's published cache rules (Anthropic: writes 1.25x, reads 0.1x, output 5x; OpenAI: reads 0.1x in 128-token steps from 1,024, output 8x; Gemini: reads 0.1x from 4,096, output 6x); as many tools per search as the session's searches return, in order (at most 5; fewer where the ranking is confident), of those tools' mean size.",
      ...(floored
        ? [
            "floor: the same recorded session with only the tools it calls, sent inline from the first request (no search, no extra round), priced the same way; no tool-search layer can cost less. default ÷ floor: the measured cost of the adapter's default exposure (in brackets) over the floor.",
          ]
        : []),
      ...(measured
        ? [
            "Each cell: estimated / measured. Measured: the session run through the real adapter (Anthropic; OpenAI Chat Completions, and Responses for native; Gemini through tool-search-layer/gemini and the real @google/genai client, its request bodies as the client sends them), each request body recorded, counted with o200k (tool references expanded, deferred tools left out) and priced by the same rules. Estimated: estimateSessionCost given the catalogue's sizes and the recorded session's system prompt, tokens per round and reply length.",
          ]
        : [
            'Defaults of estimateSessionCost: 400 tokens appended and 150 written per round, an 800-token system prompt.',
          ]),
    ],
  };
}

/** Break-even catalogue sizes per provider and session shape. */
export function breakEvenTable(tokensPerTool: number): Table {
  const rows: string[][] = [];
  for (const session of COST_SESSIONS) {
    rows.push([
      `${session.turns} rounds, ${session.discoveries} discoveries`,
      ...COST_PROVIDERS.map((p) => {
        const tokens = breakEven(p, session.turns, session.discoveries, tokensPerTool);
        return Number.isFinite(tokens) ? `${tokens.toLocaleString('en-US')} tokens` : 'never';
      }),
    ]);
  }
  return {
    title: 'Break-even: the smallest catalogue from which the layer is cheaper than sending every tool',
    columns: ['session', ...COST_PROVIDERS],
    rows,
    notes: [
      `Tools of ${Math.round(tokensPerTool)} tokens each (the GitHub MCP catalogue's average); the estimator's defaults otherwise (400 tokens appended and 150 written per round, an 800-token system prompt).`,
    ],
  };
}

/** One measured session against the estimator fed the same shape: the gap, in percent of the measured cost. */
export interface CostCheck {
  catalogue: string;
  turns: number;
  discoveries: number;
  provider: Provider;
  mode: CostMode;
  adapter: string;
  measured: number;
  estimated: number;
  gap: number;
}

/** The README's short table: one catalogue and session, the measured cost per provider and mode. */
export function headlineCostTable(
  rows: readonly CostRow[],
  catalogue: string,
  turns: number,
  discoveries: number,
): Table {
  const picked = rows.filter((r) => r.catalogue === catalogue && r.turns === turns && r.discoveries === discoveries);
  const cell = (row: CostRow, mode: CostMode) => {
    const value = row.measured?.[mode];
    if (value === null || value === undefined) return '–';
    const none = row.measured?.none ?? 0;
    const share = mode === 'none' || !none ? '' : ` (${Math.round((value / none) * 100)}%)`;
    return `${Math.round(value).toLocaleString('en-US')}${share}`;
  };
  // The floor (only the tools the session calls, inline, no search) and the default's multiple of it.
  const floor = (row: CostRow) => (row.floor ? Math.round(row.floor).toLocaleString('en-US') : '–');
  const ratio = (row: CostRow) => {
    const r = floorRatio(row);
    return r === undefined ? '–' : `${r.toFixed(2)}x (${DEFAULT_EXPOSURE[row.provider]})`;
  };
  return {
    title: '',
    columns: ['provider', 'every tool, no layer', "'tools'", "'bridge'", "'native'", 'floor', 'default ÷ floor'],
    rows: picked.map((r) => [r.provider, ...COST_MODES.map((m) => cell(r, m)), floor(r), ratio(r)]),
  };
}
