// Fast tuning loop: recall@5, nDCG@5 and MRR of src/search (straight from the source, no build) against the tuned
// BM25 baseline on every labelled set, and the mean margin. No speed sections.
// Usage: npx tsx bench/quality-only.ts [--sample N] [--sets a,b]

import type { Tool } from '../src/base/types.ts';
import { getToolIndex, rankTools } from '../src/search/index.ts';
import { labelledSets, loadSet } from './data.ts';
import { score } from './metrics.ts';
import { winkBm25TunedPeer } from './peers/wink-bm25-tuned.ts';
import { sampleEvenly } from './sample.ts';

const args = process.argv.slice(2);
const value = (flag: string): string | undefined => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const sample = Number(value('--sample') ?? 0);
const names = value('--sets')?.split(',') ?? labelledSets;
const f3 = (x: number): string => x.toFixed(3);
const margins: number[] = [];
console.log(`${'set'.padEnd(17)} ours R@5  tuned R@5  margin   ours nDCG  ours MRR  queries`);
for (const name of names) {
  const set = loadSet(name);
  const tools = set.tools as unknown as Tool[];
  const queries = sample > 0 ? sampleEvenly(set.queries, sample) : set.queries;
  const index = getToolIndex(tools);
  const ours = await score(queries, (q) => rankTools(index, q, { take: 100 }).ids.map((id) => tools[id]?.name ?? ''));
  const tuned = await score(queries, await winkBm25TunedPeer.createRanker(set.tools, { limit: 100 }));
  const margin = ours.recall5 - tuned.recall5;
  margins.push(margin);
  console.log(
    `${name.padEnd(17)} ${f3(ours.recall5)}     ${f3(tuned.recall5)}      ${margin >= 0 ? '+' : ''}${(100 * margin).toFixed(1).padStart(5)}   ${f3(ours.ndcg5)}      ${f3(ours.mrr)}     ${queries.length}`,
  );
}
const mean = margins.reduce((a, b) => a + b, 0) / (margins.length || 1);
console.log(`mean margin ${(100 * mean).toFixed(2)} points; min ${(100 * Math.min(...margins)).toFixed(1)}`);
