// What search results stopped paying for (SPEC 13): each tool of each bench catalogue as a result carried it before
// (`parameters` with its `$schema`, `parameters: null` for a tool without one) and as it carries it now, in o200k
// tokens. Run with `npx tsx bench/result-tokens.ts` after `npm run build`.
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

// Enough other tools that the layer is not bypassed, named so that no query finds them.
const padding: Tool[] = Array.from({ length: 6 }, (_, i) => ({ name: `zz_padding_${i}` }));

if (import.meta.url === `file://${process.argv[1]}`) {
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
