// "Does it find my tools?": the visitor's own queries, each with the tools it should find, ranked by the layer and
// by a plain keyword match, scored the way the benchmark scores (recall@5, and MRR over the first ten).
import type { Tool, ToolSearch } from 'tool-search-layer';

/** One line of the visitor's list: a query and the names it should find. */
export interface GoldenQuery {
  readonly query: string;
  readonly expected: readonly string[];
}

/** How one ranker did on one query. */
export interface QueryScore {
  readonly recall5: number;
  readonly reciprocalRank: number;
  /** The first five names it returned. */
  readonly top: readonly string[];
}

/** Both rankers on one query. */
export interface QueryOutcome extends GoldenQuery {
  readonly layer: QueryScore;
  readonly keyword: QueryScore;
}

/** Averages over every query. */
export interface GoldenReport {
  readonly outcomes: readonly QueryOutcome[];
  readonly layer: { readonly recall5: number; readonly mrr: number };
  readonly keyword: { readonly recall5: number; readonly mrr: number };
}

/** The ranking depth MRR looks at. */
export const MRR_DEPTH = 10;

/**
 * Reads `query → name, name` lines (`->`, `=>` or a tab also separate them); blank lines and `#` comments are
 * skipped. A line without a separator or without names is a problem naming its line number.
 */
export function parseGolden(text: string): { queries: GoldenQuery[]; problems: string[] } {
  const queries: GoldenQuery[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const parts = line.split(/\s*(?:→|->|=>|\t)\s*/);
    const query = parts[0]?.trim() ?? '';
    const expected = (parts[1] ?? '')
      .split(/[,\s]+/)
      .map((name) => name.trim())
      .filter(Boolean);
    if (parts.length !== 2 || query === '' || expected.length === 0) {
      problems.push(`Line ${i + 1}: expected "query → tool_name, other_tool", got "${line}".`);
      return;
    }
    queries.push({ query, expected });
  });
  return { queries, problems };
}

/** Words of a text: lower case, split at anything not a letter or digit and at camelCase humps. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * The baseline a host could write in five minutes: count the query's distinct words found among a tool's name
 * and description words; more is better, ties keep catalogue order. No stemming, no weights.
 */
export function keywordRanker(tools: readonly Tool[]): (query: string) => string[] {
  const bags = tools.map((tool) => new Set(words(`${tool.name} ${tool.description ?? ''}`)));
  return (query) => {
    const asked = [...new Set(words(query))];
    return tools
      .map((tool, i) => ({ name: tool.name, i, hits: asked.filter((w) => bags[i]?.has(w)).length }))
      .filter((entry) => entry.hits > 0)
      .sort((a, b) => b.hits - a.hits || a.i - b.i)
      .slice(0, MRR_DEPTH)
      .map((entry) => entry.name);
  };
}

function scoreOf(ranked: readonly string[], expected: readonly string[]): QueryScore {
  const top = ranked.slice(0, 5);
  const hits = expected.filter((name) => top.includes(name)).length;
  const first = ranked.findIndex((name) => expected.includes(name));
  return { recall5: hits / expected.length, reciprocalRank: first < 0 ? 0 : 1 / (first + 1), top };
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

/** Ranks every query with the layer's search (a throwaway session, no groups) and with the keyword baseline. */
export async function evaluateGolden(
  layer: ToolSearch,
  tools: readonly Tool[],
  queries: readonly GoldenQuery[],
): Promise<GoldenReport> {
  const keyword = keywordRanker(tools);
  const outcomes: QueryOutcome[] = [];
  for (const query of queries) {
    const result = await layer.search(
      { sessionId: 'playground-golden', tools },
      { query: query.query, limit: MRR_DEPTH },
    );
    const ranked = 'tools' in result ? result.tools.map((tool) => tool.name) : [];
    outcomes.push({
      ...query,
      layer: scoreOf(ranked, query.expected),
      keyword: scoreOf(keyword(query.query), query.expected),
    });
  }
  const summary = (pick: (o: QueryOutcome) => QueryScore) => ({
    recall5: mean(outcomes.map((o) => pick(o).recall5)),
    mrr: mean(outcomes.map((o) => pick(o).reciprocalRank)),
  });
  return { outcomes, layer: summary((o) => o.layer), keyword: summary((o) => o.keyword) };
}
