// The learning section of `npm run bench`: recall@5 before and after feeding (bench/learn-sim.ts) with the
// leave-one-set-out folds, at half and at a quarter of the queries fed, and what learning costs prepare and search
// at 4,076 tools, learn on and fed against off, interleaved in one run.
import type { Message, Tool } from '../src/core/types.ts';
import { createMemoryStore, createToolSearch } from '../src/index.ts';
import { labelledSets, loadSet } from './data.ts';
import { leaveOneSetOut, runSet, type SetRun, WEIGHTS } from './learn-sim.ts';
import { sampleEvenly } from './sample.ts';
import { median, timeMs } from './stats.ts';
import type { Table } from './table.ts';

const pts = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;

/** A fed session's history: the request, a search with its result, two tools called with results. */
function history(query: string, found: readonly string[]): Message[] {
  return [
    { role: 'user', content: query },
    { role: 'assistant', toolCalls: [{ id: 's', name: 'search_tools', arguments: JSON.stringify({ query }) }] },
    { role: 'tool', toolCallId: 's', content: JSON.stringify({ tools: found.map((name) => ({ name })) }) },
    { role: 'assistant', toolCalls: found.slice(0, 2).map((name, i) => ({ id: `c${i}`, name, arguments: '{}' })) },
    ...found.slice(0, 2).map((_, i): Message => ({ role: 'tool', toolCallId: `c${i}`, content: 'ok' })),
  ];
}

/** Median prepare (a fed session's round, replayed) and search times, learn off and on, and their ratios. */
export async function learnSpeed(rounds: number): Promise<{ off: number[]; on: number[]; ratio: number[] }> {
  const seal = loadSet('seal-tools');
  const tools = seal.tools as unknown as Tool[];
  const queries = sampleEvenly(seal.queries, 400);
  const quiet = { warn() {} };
  const off = createToolSearch({ logger: quiet });
  const on = createToolSearch({ logger: quiet, learn: true, store: createMemoryStore({ maxSessions: 10_000 }) });
  const histories = queries.map((q) => history(q.query, q.relevant));
  // Fed: every sampled query's session taught the layer once.
  for (const [i, messages] of histories.entries()) await on.prepare({ sessionId: `feed-${i}`, tools, messages });
  await on.flush();
  const times = {
    prepareOff: [] as number[],
    prepareOn: [] as number[],
    searchOff: [] as number[],
    searchOn: [] as number[],
  };
  // Both layers have seen every session once, so every timed prepare replays a known history.
  for (const [i, messages] of histories.entries()) await off.prepare({ sessionId: `feed-${i}`, tools, messages });
  // Each call timed in a loop of its own kind, so one kind's garbage is not collected during the other's timing.
  const timed = async (call: (i: number) => Promise<unknown>, into: number[]) => {
    const t: number[] = [];
    for (let i = 0; i < histories.length; i++) t.push(await timeMs(() => call(i)));
    into.push(median(t));
  };
  const prepare = (layer: typeof on) => (i: number) =>
    layer.prepare({ sessionId: `feed-${i}`, tools, messages: histories[i] as Message[] });
  const search = (layer: typeof on) => (i: number) =>
    layer.search({ sessionId: `ask-${i}`, tools }, { query: queries[i]?.query });
  for (let r = 0; r < rounds; r++) {
    await timed(prepare(off), times.prepareOff);
    await timed(prepare(on), times.prepareOn);
    await timed(search(off), times.searchOff);
    await timed(search(on), times.searchOn);
  }
  const ratios = (a: number[], b: number[]) => median(a.map((x, i) => x / (b[i] as number)));
  return {
    off: [median(times.prepareOff), median(times.searchOff)],
    on: [median(times.prepareOn), median(times.searchOn)],
    ratio: [ratios(times.prepareOn, times.prepareOff), ratios(times.searchOn, times.searchOff)],
  };
}

/** The learning tables: recall per set with the held-out folds at two feed sizes, and the speed. */
export async function learnSection(quick: boolean): Promise<Table[]> {
  const sets = quick ? ['metatool', 'restbench', 'acebench-zh'] : labelledSets;
  // The speed first, on a heap the simulations below have not filled (metatool alone feeds 10,523 sessions).
  const speed = await learnSpeed(quick ? 3 : 7);
  const byFraction: SetRun[][] = [];
  for (const fraction of [1, 0.5]) {
    const runs: SetRun[] = [];
    for (const name of sets) runs.push(await runSet(name, fraction, WEIGHTS));
    byFraction.push(runs);
  }
  const [half, quarter] = byFraction.map(leaveOneSetOut) as [
    ReturnType<typeof leaveOneSetOut>,
    ReturnType<typeof leaveOneSetOut>,
  ];
  const rows = sets.map((name, i) => {
    const run = byFraction[0]?.[i] as SetRun;
    const h = half[i] as { weight: number; gain: number };
    const q = quarter[i] as { weight: number; gain: number };
    return [
      name,
      `${run.fed} / ${run.tested}`,
      (run.off * 100).toFixed(1),
      `${pts(h.gain)} (w ${h.weight})`,
      `${pts(q.gain)} (w ${q.weight})`,
    ];
  });
  const mean = (folds: { gain: number }[]) => folds.reduce((s, f) => s + f.gain, 0) / folds.length;
  rows.push(['held-out mean', '', '', pts(mean(half)), pts(mean(quarter))]);
  rows.push([
    'held-out worst',
    '',
    '',
    pts(Math.min(...half.map((f) => f.gain))),
    pts(Math.min(...quarter.map((f) => f.gain))),
  ]);
  return [
    {
      title: 'Learning from use: recall@5 on each set’s test half, learn on and fed against off (points)',
      columns: ['set', 'fed / tested', 'R@5 off', 'fed half', 'fed a quarter'],
      rows,
      notes: [
        'Each set’s queries (all of them) split by a fixed seed; feed sessions search and call the needed tools through prepare; the test half is searched in fresh sessions.',
        `The weight of each held-out set is the one that did best on the other sets (grid ${WEIGHTS.join(', ')}; bench/TUNING.md). Shipped default: 12, the fit on all sets at half fed.`,
      ],
    },
    {
      title: 'Learning’s cost at 4,076 tools (seal-tools), fed with 400 sessions: median per call',
      columns: ['call', 'learn off', 'learn on', 'on / off'],
      rows: [
        [
          'prepare (a fed session’s round again)',
          `${speed.off[0]?.toFixed(3)} ms`,
          `${speed.on[0]?.toFixed(3)} ms`,
          `${speed.ratio[0]?.toFixed(2)}×`,
        ],
        ['search', `${speed.off[1]?.toFixed(3)} ms`, `${speed.on[1]?.toFixed(3)} ms`, `${speed.ratio[1]?.toFixed(2)}×`],
      ],
      notes: ['Rounds of 400 calls each, off and on interleaved; the ratio is the median of the rounds’ ratios.'],
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { renderText } = await import('./table.ts');
  if (process.argv.includes('--speed-only')) console.log(await learnSpeed(5));
  else for (const table of await learnSection(process.argv.includes('--quick'))) console.log(`${renderText(table)}\n`);
}
