// What `related` costs and holds per search, on the labelled sets: names and characters it adds to each result, and
// the share of the relevant tools the top 5 missed that it names (a follow-up search the model can skip).
// Usage: npm run build && npx tsx bench/related.ts   (writes bench/results/related.json)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolSearch, type SearchResult, type Tool } from 'tool-search-layer';
import { type BenchSet, loadSet } from './data.ts';

/** A set, and how its tools are grouped. */
interface Case {
  readonly label: string;
  readonly set: string;
  readonly regroup?: (tool: Tool) => string[] | undefined;
}

const cases: Case[] = [
  // One group per RapidAPI tool (`<api>_for_<tool>`): 811 small servers, as an MCP catalogue is one group per server.
  {
    label: 'stabletoolbench, one group per API server',
    set: 'stabletoolbench',
    regroup: (tool) => [tool.name.slice(tool.name.lastIndexOf('_for_') + 5)],
  },
  { label: 'stabletoolbench, by category', set: 'stabletoolbench' },
  { label: 'bfcl', set: 'bfcl' },
  { label: 'acebench-zh', set: 'acebench-zh' },
  { label: 'api-bank', set: 'api-bank' },
  { label: 'seal-tools', set: 'seal-tools' },
];

export interface RelatedRow {
  label: string;
  searches: number;
  /** Names and characters (of the JSON array) per search. */
  names: number;
  chars: number;
  /** Relevant tools the top 5 missed, and how many of them `related` named. */
  missed: number;
  held: number;
}

/** Runs every query of a case, each in a fresh session, and counts what `related` holds. */
export async function measureRelated(c: Case, set: BenchSet = loadSet(c.set)): Promise<RelatedRow> {
  const tools = (set.tools as unknown as Tool[]).map((tool) =>
    c.regroup ? { ...tool, groups: c.regroup(tool) } : tool,
  ) as Tool[];
  const layer = createToolSearch();
  const row: RelatedRow = { label: c.label, searches: 0, names: 0, chars: 0, missed: 0, held: 0 };
  for (const [i, q] of set.queries.entries()) {
    const result = (await layer.search({ sessionId: `q${i}`, tools }, { query: q.query, limit: 5 })) as SearchResult;
    const top = new Set(result.tools.map((tool) => tool.name));
    const names = result.related ?? [];
    const related = new Set(names);
    row.searches++;
    row.names += names.length;
    row.chars += names.length === 0 ? 0 : JSON.stringify(names).length;
    for (const name of q.relevant) {
      if (top.has(name)) continue;
      row.missed++;
      if (related.has(name)) row.held++;
    }
  }
  return row;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: RelatedRow[] = [];
  console.log('| set | names per search | characters per search | missed relevant held |');
  console.log('| --- | --- | --- | --- |');
  for (const c of cases) {
    const row = await measureRelated(c);
    rows.push(row);
    const per = (x: number) => (x / row.searches).toFixed(1);
    const share = row.missed ? ((100 * row.held) / row.missed).toFixed(1) : '0';
    console.log(`| ${row.label} | ${per(row.names)} | ${per(row.chars)} | ${row.held} of ${row.missed} (${share}%) |`);
  }
  writeFileSync(join(import.meta.dirname, 'results', 'related.json'), `${JSON.stringify(rows, null, 2)}\n`);
}
