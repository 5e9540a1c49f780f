// What search results stopped paying for (SPEC 13): each tool of each bench catalogue as a result carried it before
// (`parameters` with its `$schema`, `parameters: null` for a tool without one) and as it carries it now, in o200k
// tokens. Run with `npx tsx bench/result-tokens.ts` after `npm run build`; with `--results`, the whole results of each
// set's queries (bridge, no limit): tokens, definitions and the tokens besides them.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createToolSearch, type SearchResult, type Tool } from 'tool-search-layer';
import { labelledSets, loadSet } from './data.ts';

export interface ResultTokensRow {
  readonly set: string;
  readonly tools: number;
  readonly before: number;
  readonly after: number;
}

/** Tokens of every tool of a catalogue as one search result each, before and after SPEC 13. */
export async function measureResultTokens(set: string, tools: readonly Tool[]): Promise<ResultTokensRow> {
  const layer = createToolSearch({ logger: { warn() {} }, maxSearchResults: 0, showToolNames: false });
  let before = 0;
  let after = 0;
  for (const tool of tools) {
    const result = (await layer.search(
      { sessionId: set, tools: [tool, ...padding] },
      { query: tool.name },
    )) as SearchResult;
    const found = result.tools.find((t) => t.name === tool.name);
    if (!found) continue;
    after += countTokens(JSON.stringify(found));
    const old = { name: found.name, description: found.description, parameters: tool.parameters ?? null };
    before += countTokens(JSON.stringify(old));
  }
  return { set, tools: tools.length, before, after };
}

export interface ResultSizeRow {
  readonly set: string;
  readonly searches: number;
  /** Mean tokens of a whole search result as the model reads it (bridge exposure, JSON). */
  readonly tokens: number;
  /** Mean full definitions per result. */
  readonly definitions: number;
  /** Mean tokens of a result besides its tools' definitions: found, pagination, related, hint. */
  readonly filler: number;
}

/** The search results of a set's queries (no `limit`, bridge exposure, a fresh session each), as the model reads them. */
export async function measureResults(set: string, tools: readonly Tool[], queries: readonly string[]) {
  const layer = createToolSearch({ logger: { warn() {} }, exposure: 'bridge' });
  let tokens = 0;
  let definitions = 0;
  let filler = 0;
  for (const [i, query] of queries.entries()) {
    const result = (await layer.search({ sessionId: `${set}-${i}`, tools }, { query })) as SearchResult;
    const all = countTokens(JSON.stringify(result));
    tokens += all;
    definitions += result.tools.length;
    filler += all - countTokens(JSON.stringify({ tools: result.tools }));
  }
  const n = queries.length || 1;
  const row: ResultSizeRow = {
    set,
    searches: queries.length,
    tokens: tokens / n,
    definitions: definitions / n,
    filler: filler / n,
  };
  return row;
}

// Enough other tools that the layer is not bypassed, named so that no query finds them.
const padding: Tool[] = Array.from({ length: 6 }, (_, i) => ({ name: `zz_padding_${i}` }));

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--results')) {
  const { discoveryQueries } = await import('./tokens.ts');
  const sets = [...labelledSets, 'mcp-github'];
  for (const name of sets) {
    const set = loadSet(name);
    const queries =
      name === 'mcp-github'
        ? (discoveryQueries[name] ?? [])
        : set.queries.filter((_, i) => i % Math.ceil(set.queries.length / 300) === 0).map((q) => q.query);
    const row = await measureResults(name, set.tools as readonly Tool[], queries);
    process.stdout.write(
      `${name}: ${row.searches} searches, ${row.tokens.toFixed(0)} tokens a result, ${row.definitions.toFixed(2)} definitions, ${row.filler.toFixed(1)} tokens besides them\n`,
    );
  }
} else if (import.meta.url === `file://${process.argv[1]}`) {
  let before = 0;
  let after = 0;
  for (const name of [...labelledSets, 'mcp-github', 'mcp-npm-capture']) {
    const row = await measureResultTokens(name, loadSet(name).tools as readonly Tool[]);
    before += row.before;
    after += row.after;
    const saved = row.before - row.after;
    process.stdout.write(
      `${name}: ${row.tools} tools, ${row.before} -> ${row.after} tokens (${saved} saved, ${((saved / row.before) * 100).toFixed(1)}%, ${(saved / row.tools).toFixed(2)} per tool)\n`,
    );
  }
  process.stdout.write(`all: ${before} -> ${after} (${(((before - after) / before) * 100).toFixed(1)}% saved)\n`);
}
