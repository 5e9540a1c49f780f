// Quick tuning loop for src/search: quality on the labelled sets, build and query time at seal-tools size, bundle size.
// Usage: npx tsx bench/recall.ts [--sample N] [--no-speed]   (N queries per set, evenly spread, for fast iterations)

import { brotliCompressSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Tool } from '../src/base/types.ts';
import { buildIndex } from '../src/search/build.ts';
import { toolFields } from '../src/search/fields.ts';
import { getToolIndex, rankTools } from '../src/search/index.ts';
import { labelledSets, loadSet } from './data.ts';
import { score } from './metrics.ts';

const arg = process.argv.indexOf('--sample');
const sample = arg > 0 ? Number(process.argv[arg + 1]) : 0;
const pick = <T>(list: readonly T[]): readonly T[] =>
  sample > 0 && sample < list.length ? list.filter((_, i) => i % Math.ceil(list.length / sample) === 0) : list;
const at = (xs: number[], q: number): number => xs.sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)] as number;
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
if (process.argv.includes('--no-speed')) process.exit(0);

const seal = loadSet('seal-tools');
const tools = seal.tools as unknown as Tool[];
// Fresh clones, so that no string or cache is shared with an earlier build.
const fieldTimes: number[] = [];
const builds: number[] = [];
for (let i = 0; i < 17; i++) {
  const clone = structuredClone(tools);
  const t0 = performance.now();
  const fields = clone.map(toolFields);
  const t1 = performance.now();
  buildIndex(clone, fields);
  const t2 = performance.now();
  if (i >= 2) {
    fieldTimes.push(t1 - t0);
    builds.push(t2 - t1);
  }
}
const index = getToolIndex(tools);
const queries = pick(seal.queries).map((q) => q.query);
// The first pass meets each keyword once, before the per-index memo knows it.
const cold: number[] = [];
for (const q of queries) {
  const t0 = performance.now();
  rankTools(index, q, { take: 5 });
  cold.push(performance.now() - t0);
}
const times: number[] = [];
for (let round = 0; round < 3; round++)
  for (const q of queries) {
    const t0 = performance.now();
    rankTools(index, q, { take: 5 });
    times.push(performance.now() - t0);
  }
const warm: number[] = [];
const copy: number[] = [];
for (const q of queries.slice(0, 200)) {
  let t0 = performance.now();
  rankTools(getToolIndex(tools), q, { take: 5 });
  warm.push(performance.now() - t0);
  t0 = performance.now();
  rankTools(getToolIndex(tools.slice()), q, { take: 5 });
  copy.push(performance.now() - t0);
}
const bundle = await build({
  entryPoints: ['src/search/index.ts'],
  bundle: true,
  minify: true,
  format: 'esm',
  write: false,
  platform: 'neutral',
});
const size = brotliCompressSync((bundle.outputFiles[0] as { contents: Uint8Array }).contents).length;
console.log(
  `seal-tools  build median ${at(builds, 0.5).toFixed(1)} ms (+ toolFields ${at(fieldTimes, 0.5).toFixed(1)} ms)  ` +
    `query median ${f3(at(times, 0.5))} ms  p99 ${f3(at(times, 0.99))} ms  first pass ${f3(at(cold, 0.5))} ms  ` +
    `warm ${f3(at(warm, 0.5))} ms  new array ${f3(at(copy, 0.5))} ms  size ${size} B min+brotli`,
);
