// How many full definitions a search without `limit` returns (SPEC 14: maxSearchResults is an upper bound): the
// confident cut of src/core/search-tool.ts, fitted under leave-one-set-out (bench/TUNING.md) on the labelled sets.
// For each set: recall@5 (today's page of five) against the recall of the page as the cut returns it, and the
// page's mean size. A fold's threshold is the one that returns the fewest definitions on the seven training sets
// while no training set loses more than half a point of recall (the rule's budget is one point; half is the
// margin for the set the fold has not seen). Ties go to the larger page. Usage: npx tsx bench/result-page.ts [--quick]

import type { Tool } from '../src/base/types.ts';
import { type ConfidentCut, confidentCount } from '../src/core/search-run.ts';
import { getToolIndex, rankTools } from '../src/search/index.ts';
import { labelledSets, loadSet } from './data.ts';
import { discoveryQueries } from './tokens.ts';

const CAP = 5;
const PER_SET = process.argv.includes('--quick') ? 300 : 4000;
/** A training set may lose at most this many points of recall against today's page of five. */
const BUDGET = 0.5;

interface Ranked {
  /** Per query: 1-based positions (in the top 5) of the relevant tools, and how many are relevant. */
  readonly hits: readonly number[][];
  readonly relevant: readonly number[];
  /** Per query: how many tools the page of five holds (fewer when fewer match). */
  readonly count: readonly number[];
  readonly scores: readonly (readonly number[])[];
  readonly whole: readonly boolean[];
  readonly held: readonly (readonly number[])[];
}

function rankSet(name: string): Ranked {
  const set = loadSet(name);
  const tools = set.tools as unknown as Tool[];
  const index = getToolIndex(tools);
  const step = Math.ceil(set.queries.length / PER_SET);
  const queries = set.queries.filter((_, i) => i % step === 0);
  const hits: number[][] = [];
  const relevant: number[] = [];
  const count: number[] = [];
  const scores: number[][] = [];
  const whole: boolean[] = [];
  const held: number[][] = [];
  for (const q of queries) {
    const ranked = rankTools(index, q.query, { take: CAP });
    const names = ranked.ids.map((id) => tools[id]?.name);
    const wanted = new Set(q.relevant);
    hits.push(names.flatMap((n, i) => (n !== undefined && wanted.has(n) ? [i + 1] : [])));
    relevant.push(wanted.size);
    count.push(ranked.ids.length);
    scores.push([...(ranked.scores ?? [])]);
    whole.push(ranked.whole === true);
    held.push([...(ranked.held ?? [])]);
  }
  return { hits, relevant, count, scores, whole, held };
}

/** Recall of the page as returned (in points) and its mean size, under a cut (undefined: today's five). */
function evaluate(r: Ranked, cut: ConfidentCut | undefined): { recall: number; size: number } {
  let recall = 0;
  let size = 0;
  for (let i = 0; i < r.hits.length; i++) {
    const k = cut ? confidentCount(r.scores[i] as number[], CAP, cut, r.whole[i], r.held[i]) : CAP;
    const hits = (r.hits[i] as number[]).filter((p) => p <= k).length;
    recall += (r.relevant[i] as number) ? hits / (r.relevant[i] as number) : 0;
    size += Math.min(k, r.count[i] as number);
  }
  const n = r.hits.length || 1;
  return { recall: (recall / n) * 100, size: size / n };
}

const GRID: ConfidentCut[] = [];
for (const ratio of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8]) {
  for (const whole of [undefined, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01]) {
    // The name-held axis: none, or a name the query holds with at most 0 to 8 other words (64: any number).
    for (const held of [undefined, 0, 1, 2, 3, 4, 5, 6, 8, 64]) {
      for (const rule of ['best', 'gap'] as const) {
        GRID.push({ rule, ratio, ...(whole !== undefined && { whole }), ...(held !== undefined && { held }) });
      }
    }
  }
}

const sets = labelledSets.map((name) => ({ name, ranked: rankSet(name) }));
const today = new Map(sets.map((s) => [s.name, evaluate(s.ranked, undefined)]));
const table = new Map(sets.map((s) => [s.name, GRID.map((cut) => evaluate(s.ranked, cut))]));

/** The cut a fit on `train` picks: fewest definitions with every training set within the budget; none if none is. */
function fitCut(train: readonly string[]): number | undefined {
  let best: number | undefined;
  let bestSize = Number.POSITIVE_INFINITY;
  for (let g = 0; g < GRID.length; g++) {
    let ok = true;
    let size = 0;
    for (const name of train) {
      const row = (table.get(name) as { recall: number; size: number }[])[g] as { recall: number; size: number };
      if ((today.get(name)?.recall ?? 0) - row.recall > BUDGET) ok = false;
      size += row.size / train.length;
    }
    if (ok && size < bestSize - 1e-9) {
      best = g;
      bestSize = size;
    }
  }
  return best;
}

if (process.argv.includes('--grid')) {
  for (const [g, cut] of GRID.entries()) {
    const cells = sets.map((s) => {
      const row = (table.get(s.name) as { recall: number; size: number }[])[g] as { recall: number; size: number };
      return `${(row.recall - (today.get(s.name)?.recall ?? 0)).toFixed(1)}/${row.size.toFixed(2)}`;
    });
    process.stdout.write(`${cut.rule} ${cut.ratio} ${cut.whole ?? '-'} ${cut.held ?? '-'}: ${cells.join('  ')}\n`);
  }
}
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const show = (g: number | undefined) =>
  g === undefined
    ? 'none (five)'
    : `${GRID[g]?.rule} ${GRID[g]?.ratio}${GRID[g]?.whole === undefined ? '' : `, whole ${GRID[g]?.whole}`}${GRID[g]?.held === undefined ? '' : `, held ${GRID[g]?.held}`}`;
process.stdout.write(
  `Leave one set out (${PER_SET} queries per set at most; recall in points)\n\nheld out | cut fitted on the others | recall@5 today | recall in page | change | definitions per search\n`,
);
let heldRecall = 0;
let heldSize = 0;
for (const s of sets) {
  const g = fitCut(labelledSets.filter((n) => n !== s.name));
  const base = today.get(s.name) as { recall: number; size: number };
  const got = g === undefined ? base : ((table.get(s.name) as { recall: number; size: number }[])[g] as typeof base);
  heldRecall += (got.recall - base.recall) / sets.length;
  heldSize += got.size / sets.length;
  process.stdout.write(
    `${s.name} | ${show(g)} | ${f1(base.recall)} | ${f1(got.recall)} | ${f1(got.recall - base.recall)} | ${f2(got.size)}\n`,
  );
}
process.stdout.write(`mean of the held-out folds: recall change ${f2(heldRecall)}, ${f2(heldSize)} definitions\n\n`);
const all = fitCut(labelledSets);
process.stdout.write(`fitted on all eight (ships): ${show(all)}\n`);
for (const s of sets) {
  const base = today.get(s.name) as { recall: number; size: number };
  const got =
    all === undefined ? base : ((table.get(s.name) as { recall: number; size: number }[])[all] as typeof base);
  process.stdout.write(`${s.name}: ${f1(base.recall)} -> ${f1(got.recall)}, ${f2(got.size)} definitions\n`);
}

// Not fitted on, only reported: the short queries a model writes when it searches (bench/tokens.ts).
for (const [name, queries] of Object.entries(discoveryQueries)) {
  const tools = loadSet(name).tools as unknown as Tool[];
  const index = getToolIndex(tools);
  const cut = all === undefined ? undefined : GRID[all];
  const sizes = queries.map((q) => {
    const r = rankTools(index, q, { take: CAP });
    const k = cut ? confidentCount(r.scores ?? [], CAP, cut, r.whole, r.held) : CAP;
    return Math.min(k, r.ids.length);
  });
  process.stdout.write(
    `${name} discovery queries: ${sizes.join(', ')} (${f2(sizes.reduce((a, b) => a + b, 0) / sizes.length)} per search)\n`,
  );
}
