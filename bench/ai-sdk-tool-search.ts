// Recall of the AI SDK's own toolSearch with its default word match, and with `search: rankWith(layer, { tools })`,
// on the labelled sets: what a host gains by ranking the SDK's deferred tools with this library.
// Usage: npm run build && npx tsx bench/ai-sdk-tool-search.ts   (writes bench/results/ai-sdk-tool-search.json)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolSearch, type Tool } from 'tool-search-layer';
import { fromLayerTools, rankWith } from 'tool-search-layer/ai-sdk';
import { labelledSets, loadSet } from './data.ts';
import { type Scores, score } from './metrics.ts';

// The SDK's default search as `ai` 7.0.173 runs it when `toolSearch()` has no `search` (src/tool-search/
// prepare-tool-search.ts): a query term in the name scores 2, in the description 1; zero scores are dropped.
function tokenize(text: string): string[] {
  return (
    text
      .replace(/([a-z\d])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}
function sdkDefault(query: string, tools: readonly { name: string; description?: string }[]): string[] {
  const terms = [...new Set(tokenize(query))];
  return tools
    .map(({ name, description }) => {
      const nameTerms = tokenize(name);
      const descriptionTerms = tokenize(description ?? '');
      const points = terms.reduce(
        (sum, term) => sum + (nameTerms.includes(term) ? 2 : 0) + (descriptionTerms.includes(term) ? 1 : 0),
        0,
      );
      return { name, points };
    })
    .filter((match) => match.points > 0)
    .sort((a, b) => b.points - a.points)
    .map((match) => match.name);
}

console.log('| set | tools | queries | SDK default | rankWith(layer) | rankWith(layer, { tools }) |');
console.log('| --- | --- | --- | --- | --- | --- |');
const rows: { set: string; tools: number; queries: number; sdk: Scores; listed: Scores; layer: Scores }[] = [];
for (const name of labelledSets) {
  const set = loadSet(name);
  const tools = set.tools as unknown as Tool[];
  // What the SDK passes the callback: each deferred tool's name and description.
  const listed = tools.map((tool) => ({ name: tool.name, description: tool.description ?? '' }));
  const { tools: toolSet } = fromLayerTools(tools, () => undefined);
  const withTools = rankWith(createToolSearch(), { tools: toolSet });
  const withListed = rankWith(createToolSearch());
  const sdk = await score(set.queries, (query) => sdkDefault(query, listed));
  const only = await score(set.queries, (query) => withListed({ query, tools: listed }));
  const layer = await score(set.queries, (query) => withTools({ query, tools: listed }));
  rows.push({ set: name, tools: tools.length, queries: set.queries.length, sdk, listed: only, layer });
  const f = (s: Scores) => `${s.recall5.toFixed(3)} (MRR ${s.mrr.toFixed(3)})`;
  console.log(`| ${name} | ${tools.length} | ${set.queries.length} | ${f(sdk)} | ${f(only)} | ${f(layer)} |`);
}
writeFileSync(join(import.meta.dirname, 'results', 'ai-sdk-tool-search.json'), `${JSON.stringify(rows, null, 2)}\n`);
