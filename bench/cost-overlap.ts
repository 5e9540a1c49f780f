// Sessions whose searches overlap, as a model's do when it works in one area (pull request reviews, workflow runs):
// each adapter's default exposure and its floor, recorded and priced as bench/cost-run.ts prices the scripted
// sessions, and how many of the definitions the searches return the session already held (sent as `shown`).
// Usage: npm run build && npx tsx bench/cost-overlap.ts
import { createToolSearch, type SearchResult } from 'tool-search-layer';
import type { Provider } from 'tool-search-layer/cost';
import { floorCost } from './cost-run.ts';
import {
  anthropicSession,
  chatSession,
  geminiSession,
  priceRecorded,
  responsesNativeSession,
  type SessionScript,
} from './cost-sessions.ts';
import { type BenchTool, loadSet } from './data.ts';

/** Searches a model might make in one session over the GitHub MCP catalogue, each followed by a call of its best hit. */
const SESSIONS: Record<string, readonly string[]> = {
  'issues, then a pull request': [
    'list open issues in a repository',
    'get issue details',
    'add a comment to an issue',
    'update issue labels',
    'close an issue',
    'create a pull request',
    'request reviewers for a pull request',
    'merge a pull request',
  ],
  'pull request review': [
    'list pull requests',
    'pull request diff',
    'pull request review comments',
    'add review comment',
    'submit review',
    'merge pull request',
  ],
  'workflow runs': [
    'list workflow runs',
    'get workflow run logs',
    'rerun failed jobs',
    'list workflow jobs',
    'cancel workflow run',
  ],
};

const TURNS = 30;

/** The script of a session: a search every few rounds, each calling its query's best hit (repeats allowed). */
async function overlapScript(tools: readonly BenchTool[], queries: readonly string[]): Promise<SessionScript> {
  const layer = createToolSearch();
  const searchAt = new Set(queries.map((_, i) => Math.floor((i * TURNS) / queries.length)));
  const finds: { query: string; name: string }[] = [];
  const pages: number[] = [];
  const returned: BenchTool[] = [];
  for (const query of queries) {
    const best = (await layer.search({ sessionId: 'best', tools }, { query, limit: 1 })) as SearchResult;
    finds.push({ query, name: best.tools[0]?.name as string });
    const page = (await layer.search({ sessionId: 'pages', tools }, { query })) as SearchResult;
    pages.push(page.tools.length);
    returned.push(...(page.tools as BenchTool[]));
  }
  return { turns: TURNS, searchAt, finds, pages, returned };
}

/** How many of the definitions a session's searches return it already held: run in one bridge session. */
async function heldShare(tools: readonly BenchTool[], queries: readonly string[]): Promise<string> {
  const layer = createToolSearch({ exposure: 'bridge' });
  const messages: {
    role: 'assistant' | 'tool';
    toolCalls?: { id: string; name: string }[];
    toolCallId?: string;
    content?: string;
  }[] = [];
  let sent = 0;
  let shown = 0;
  for (const [i, query] of queries.entries()) {
    await layer.prepare({ sessionId: 'held', tools, messages });
    const result = (await layer.search({ sessionId: 'held', tools }, { query })) as SearchResult;
    sent += result.tools.length;
    shown += result.tools.filter((tool) => tool.shown).length;
    messages.push({ role: 'assistant', toolCalls: [{ id: `s${i}`, name: 'search_tools' }] });
    messages.push({ role: 'tool', toolCallId: `s${i}`, content: JSON.stringify(result) });
  }
  return `${shown} of ${sent}`;
}

const tools = loadSet('mcp-github').tools;
const runs: Record<Provider, { run: typeof chatSession; mode: 'bridge' | 'native' }> = {
  anthropic: { run: anthropicSession, mode: 'native' },
  openai: { run: chatSession, mode: 'bridge' },
  gemini: { run: geminiSession, mode: 'bridge' },
};
process.stdout.write(
  `GitHub MCP, ${TURNS} rounds, searches that overlap (default ÷ floor; definitions a search returned that the session held, sent as shown)\n`,
);
for (const [name, queries] of Object.entries(SESSIONS)) {
  const script = await overlapScript(tools, queries);
  const cells: string[] = [];
  for (const [provider, { run, mode }] of Object.entries(runs) as [Provider, (typeof runs)[Provider]][]) {
    const cost = priceRecorded(provider, await run(mode, tools, script)).cost;
    const floor = await floorCost(provider, tools, script);
    cells.push(
      `${provider} ${mode} ${(cost / 1000).toFixed(1)}k / ${(floor / 1000).toFixed(1)}k = ${(cost / floor).toFixed(2)}x`,
    );
  }
  // OpenAI Responses in native mode (not a default: it needs a model with tool_search), for comparison.
  const native = priceRecorded('openai', await responsesNativeSession(tools, script)).cost;
  const floor = await floorCost('openai', tools, script);
  cells.push(`openai responses native ${(native / 1000).toFixed(1)}k = ${(native / floor).toFixed(2)}x`);
  process.stdout.write(
    `${name} (${queries.length} searches; shown ${await heldShare(tools, queries)}): ${cells.join('; ')}\n`,
  );
}
