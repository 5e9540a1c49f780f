// Quick tuning loop for src/search: quality on the labelled sets, query and build time at seal-tools size.
// Usage: npx tsx bench/recall.ts [--sample N]   (N queries per set, evenly spread, for fast iterations)

import { buildIndex } from '../src/search/build.ts';
import { getToolIndex, rankTools } from '../src/search/index.ts';
import type { Tool } from '../src/types.ts';
import { labelledSets, loadSet } from './data.ts';
import { score } from './metrics.ts';

const arg = process.argv.indexOf('--sample');
const sample = arg > 0 ? Number(process.argv[arg + 1]) : 0;
const pick = <T>(list: readonly T[]): readonly T[] =>
  sample > 0 && sample < list.length ? list.filter((_, i) => i % Math.ceil(list.length / sample) === 0) : list;
const median = (xs: number[]): number => xs.sort((a, b) => a - b)[xs.length >> 1] as number;
const f3 = (x: number): string => x.toFixed(3);

for (const name of labelledSets) {
  const set = loadSet(name);
  const tools = set.tools as unknown as Tool[];
  const index = getToolIndex(tools);
  const queries = pick(set.queries);
  const s = await score(queries, (q) => rankTools(index, q, { take: 10 }).ids.map((id) => tools[id]?.name ?? ''));
  console.log(
    `${name.padEnd(11)} recall@5 ${f3(s.recall5)}  nDCG@5 ${f3(s.ndcg5)}  MRR ${f3(s.mrr)}  (${s.queries} queries)`,
  );
}

const seal = loadSet('seal-tools');
const tools = seal.tools as unknown as Tool[];
const builds: number[] = [];
for (let i = 0; i < 7; i++) {
  const t0 = performance.now();
  buildIndex(tools);
  builds.push(performance.now() - t0);
}
const index = getToolIndex(tools);
const queries = pick(seal.queries).map((q) => q.query);
for (const q of queries) rankTools(index, q, { take: 5 });
const times: number[] = [];
for (const q of queries) {
  const t0 = performance.now();
  rankTools(index, q, { take: 5 });
  times.push(performance.now() - t0);
}
const warm: number[] = [];
const copy: number[] = [];
const json: number[] = [];
const equal = JSON.parse(JSON.stringify(tools)) as Tool[];
getToolIndex(equal);
for (const q of queries.slice(0, 200)) {
  let t0 = performance.now();
  rankTools(getToolIndex(tools), q, { take: 5 });
  warm.push(performance.now() - t0);
  t0 = performance.now();
  rankTools(getToolIndex(tools.slice()), q, { take: 5 });
  copy.push(performance.now() - t0);
}
for (let i = 0; i < 5; i++) {
  const fresh = JSON.parse(JSON.stringify(equal)) as Tool[];
  const t0 = performance.now();
  getToolIndex(fresh);
  json.push(performance.now() - t0);
}
console.log(
  `seal-tools  query median ${median(times).toFixed(3)} ms  build median ${median(builds).toFixed(1)} ms  ` +
    `warm ${median(warm).toFixed(3)} ms  new array ${median(copy).toFixed(3)} ms  equal tools lookup ${median(json).toFixed(1)} ms`,
);
