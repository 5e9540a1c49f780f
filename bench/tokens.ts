// What the tools block costs the model, with and without the layer (o200k_base via gpt-tokenizer).
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createToolSearch, type Message, SEARCH_TOOL_NAME, type Tool } from 'tool-search-layer';
import type { BenchTool } from './data.ts';
import { searchExchange } from './history.ts';

/** The search tool's definition must stay under this on every catalogue. */
export const SEARCH_TOOL_TOKEN_LIMIT = 2500;

/** Requests for the catalogues that have no labelled queries, written for this benchmark. */
export const discoveryQueries: Readonly<Record<string, readonly string[]>> = {
  'mcp-github': [
    'create a pull request',
    'list open issues in a repository',
    'get the contents of a file',
    'search code across repositories',
    'add a comment to an issue',
    'merge a pull request',
    'list workflow runs',
  ],
  'mcp-npm-capture': [
    'navigate the browser to a url',
    'take a screenshot of the page',
    'read a text file',
    'create entities in the knowledge graph',
    'list the files in a directory',
    'click an element on the page',
    'think step by step about a problem',
  ],
};

/** The tools block as the OpenAI chat API takes it: `[{ type: 'function', function: { name, description, parameters } }]`, as JSON. */
export function openAiToolsJson(tools: readonly Tool[]): string {
  return JSON.stringify(
    tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters ?? undefined },
    })),
  );
}

export const toolsTokens = (tools: readonly Tool[]): number => countTokens(openAiToolsJson(tools));

export interface TokenRow {
  set: string;
  tools: number;
  /** Without the layer every round carries every tool. */
  without: number;
  firstRound: number;
  afterFive: number;
  /** Tools in the block after the discoveries (search tool included). */
  afterFiveTools: number;
  discovered: number;
}

/** Five searches (limit 1, each finding a new tool) fed back as history, as a host does. */
async function discoverFive(tools: readonly BenchTool[], queries: readonly string[]): Promise<Message[]> {
  const searcher = createToolSearch();
  const context = { sessionId: 'tokens', tools };
  const seen = new Set<string>();
  const messages: Message[] = [];
  for (const [i, query] of queries.entries()) {
    if (seen.size === 5) break;
    const exchange = await searchExchange(searcher, context, query, `t${i}`, 1);
    const name = exchange.found[0];
    if (name === undefined || seen.has(name)) continue;
    seen.add(name);
    messages.push(...exchange.messages);
  }
  return messages;
}

/** Tokens of the first round and of the round after five discoveries, with the layer's defaults. */
export async function measureTokens(
  name: string,
  tools: readonly BenchTool[],
  queries: readonly string[],
): Promise<TokenRow> {
  const layer = createToolSearch();
  const first = await layer.prepare({ sessionId: 'first', tools });
  const messages = await discoverFive(tools, queries);
  const after = await layer.prepare({ sessionId: 'after', tools, messages });
  return {
    set: name,
    tools: tools.length,
    without: toolsTokens(tools),
    firstRound: toolsTokens(first.tools),
    afterFive: toolsTokens(after.tools),
    afterFiveTools: after.tools.length,
    discovered: after.discovered.length,
  };
}

export interface SearchToolRow {
  set: string;
  tools: number;
  tokens: number;
  underLimit: boolean;
}

/** The search_tools definition alone (names list included), as the first round of a catalogue carries it. */
export async function measureSearchTool(name: string, tools: readonly BenchTool[]): Promise<SearchToolRow> {
  const { tools: exposed } = await createToolSearch().prepare({ sessionId: 'definition', tools });
  const search = exposed.filter((t) => t.name === SEARCH_TOOL_NAME);
  const tokens = toolsTokens(search);
  return {
    set: name,
    tools: tools.length,
    tokens,
    underLimit: search.length === 1 && tokens < SEARCH_TOOL_TOKEN_LIMIT,
  };
}
