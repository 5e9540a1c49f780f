// Runs the cost sessions through the real adapters and checks the estimator against them (npm run bench:cost,
// and `npm run bench` through costSection).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { type CostMode, estimateSessionCost, type Provider } from 'tool-search-layer/cost';
import {
  breakEvenTable,
  type CatalogueShape,
  COST_SESSIONS,
  type CostCheck,
  type CostRow,
  catalogueShape,
  costTable,
  estimateRows,
  headlineCostTable,
  shapeInput,
} from './cost.ts';
import {
  anthropicSession,
  chatSession,
  geminiSession,
  pricedRequests,
  priceRecorded,
  type Recorded,
  responsesNativeSession,
  type SessionScript,
  SYSTEM,
  sessionScript,
} from './cost-sessions.ts';
import { type BenchTool, loadSet } from './data.ts';
import { anthropicCostLine, updateReadme } from './readme.ts';
import { renderMarkdown, type Table } from './table.ts';
import { discoveryQueries, toolsTokens } from './tokens.ts';

interface CostCatalogue {
  name: string;
  tools: readonly BenchTool[];
  queries: readonly string[];
}

/** Which adapter records each provider's sessions in each mode (Gemini: its own adapter and client, no native mode). */
function sessionsFor(provider: Provider): { mode: CostMode; adapter: string; run: typeof chatSession }[] {
  if (provider === 'anthropic') {
    return (['none', 'tools', 'bridge', 'native'] as const).map((mode) => ({
      mode,
      adapter: 'anthropic',
      run: anthropicSession,
    }));
  }
  if (provider === 'gemini') {
    return (['none', 'tools', 'bridge'] as const).map((mode) => ({ mode, adapter: 'gemini', run: geminiSession }));
  }
  const chat = (['none', 'tools', 'bridge'] as const).map((mode) => ({
    mode,
    adapter: 'openai chat',
    run: chatSession,
  }));
  return [
    ...chat,
    { mode: 'native', adapter: 'openai responses', run: (_m, tools, script) => responsesNativeSession(tools, script) },
  ];
}

/**
 * The session's shape as the estimator takes it, read off the recorded session without the layer (no searches):
 * the system prompt, the tokens each round appends, and the reply's tokens.
 */
function measuredShape(none: readonly Recorded[], catalogueTokens: number) {
  const priced = pricedRequests(none);
  const first = priced[0]?.tokens ?? 0;
  const last = priced.at(-1)?.tokens ?? first;
  return {
    systemTokens: countTokens(SYSTEM),
    turnTokens: Math.round((last - first) / Math.max(1, priced.length - 1)),
    outputTokens: Math.round(none.reduce((s, r) => s + r.outputTokens, 0) / Math.max(1, none.length)),
    // What the first request holds beyond the tools and the system prompt: the first user message.
    firstTokens: first - catalogueTokens,
  };
}

/**
 * The floor of a session: the host knew which tools it would use and sent only those, inline, from the first
 * request; the same script run with no layer over those tools alone, recorded and priced like the others.
 */
export async function floorCost(provider: Provider, tools: readonly BenchTool[], script: SessionScript) {
  const used = tools.filter((t) => script.finds.some((f) => f.name === t.name));
  const run = provider === 'anthropic' ? anthropicSession : provider === 'gemini' ? geminiSession : chatSession;
  return priceRecorded(provider, await run('none', used, script)).cost;
}

/** Every session measured and estimated; the table rows get the measured costs beside the estimates. */
export async function measureCost(
  catalogues: readonly CostCatalogue[],
  sessions: readonly { turns: number; discoveries: number }[] = COST_SESSIONS,
): Promise<{ rows: CostRow[]; checks: CostCheck[]; shapes: CatalogueShape[] }> {
  const shapes: CatalogueShape[] = [];
  for (const c of catalogues) shapes.push(await catalogueShape(c.name, c.tools, c.queries));
  const rows = estimateRows(shapes, sessions);
  const checks: CostCheck[] = [];
  for (const [i, c] of catalogues.entries()) {
    const shape = shapes[i] as CatalogueShape;
    for (const session of sessions) {
      const script = await sessionScript(c.tools, c.queries, session.turns, session.discoveries);
      for (const provider of ['anthropic', 'openai', 'gemini'] as const) {
        const row = rows.find(
          (r) =>
            r.catalogue === c.name &&
            r.turns === session.turns &&
            r.discoveries === session.discoveries &&
            r.provider === provider,
        ) as CostRow;
        row.measured = {};
        let measuredInput: ReturnType<typeof measuredShape> | undefined;
        for (const { mode, adapter, run } of sessionsFor(provider)) {
          const recorded = await run(mode, c.tools, script);
          measuredInput ??= measuredShape(recorded, shape.catalogueTokens);
          const { firstTokens: _, ...rest } = measuredInput;
          const measured = priceRecorded(provider, recorded).cost;
          const estimate =
            estimateSessionCost({
              provider,
              ...session,
              ...shapeInput(shape),
              ...rest,
              // The recorded session's own pages, in order (a page is as long as its search's confidence allows),
              // and the mean size of the tools they return.
              toolsPerSearch: script.pages,
              foundToolTokens: Math.round(toolsTokens(script.returned) / Math.max(1, script.returned.length)),
            }).modes[mode]?.cost ?? 0;
          row.measured[mode] = measured;
          // The table shows the estimate of the session as recorded (its system prompt, rounds and replies).
          row.estimated[mode] = estimate;
          checks.push({
            catalogue: c.name,
            ...session,
            provider,
            mode,
            adapter,
            measured,
            estimated: estimate,
            gap: ((estimate - measured) / measured) * 100,
          });
        }
        row.floor = await floorCost(provider, c.tools, script);
        const priced = Object.entries(row.estimated).filter((e): e is [CostMode, number] => e[1] !== null);
        row.cheapest = priced.reduce((best, e) => (e[1] < best[1] ? e : best))[0];
      }
    }
  }
  return { rows, checks, shapes };
}

/**
 * The cost section of the bench: GitHub MCP and a 1,000-tool slice of seal-tools, every session shape, measured and
 * estimated. With `write`, the README's headline table and docs/cost.md's tables and check line are rewritten.
 */
export async function costSection(write: boolean): Promise<{ tables: Table[]; summary: string }> {
  const seal = loadSet('seal-tools');
  const { rows, checks, shapes } = await measureCost([
    { name: 'mcp-github', tools: loadSet('mcp-github').tools, queries: discoveryQueries['mcp-github'] ?? [] },
    { name: 'seal-tools 1,000', tools: seal.tools.slice(0, 1000), queries: seal.queries.map((q) => q.query) },
  ]);
  const shape = shapes[0];
  const tables = [costTable(rows), ...(shape ? [breakEvenTable(shape.catalogueTokens / shape.toolCount)] : [])];
  const misses = checks.filter((c) => Math.abs(c.gap) >= 10);
  const summary = `The estimate is within 10% of the measured session in ${checks.length - misses.length} of ${checks.length} sessions.${misses.length ? ` Off by more: ${misses.map((c) => `${c.catalogue}, ${c.turns} rounds / ${c.discoveries} discoveries, ${c.provider} ${c.mode} (${c.gap > 0 ? '+' : ''}${c.gap.toFixed(1)}%)`).join('; ')}.` : ''}`;
  if (write) {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    const headline = renderMarkdown(headlineCostTable(rows, 'mcp-github', 30, 6)).replace(/^### \n+/, '');
    updateReadme(join(root, 'README.md'), { cost: headline });
    const anthropic = headlineCostTable(rows, 'mcp-github', 30, 6).rows.find((row) => row[0] === 'anthropic');
    if (anthropic) updateReadme(join(root, 'docs', 'anthropic.md'), { 'anthropic-cost': anthropicCostLine(anthropic) });
    updateReadme(join(root, 'docs', 'cost.md'), {
      'cost-table': tables.map((t) => renderMarkdown(t)).join('\n\n'),
      'cost-checks': summary,
    });
  }
  return { tables, summary };
}
