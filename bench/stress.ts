// `npm run bench:stress`: how the core grows with the catalogue and the history, and what each kind of failing
// store costs a round. Prints the tables and writes bench/results/stress.{json,md}. Flag: --quick (small sizes).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createMemoryStore, createToolSearch, type DiscoveredStore, type Tool } from 'tool-search-layer';
import { combineCatalogues, labelledSets, loadSet } from './data.ts';
import { buildHistory } from './history.ts';
import { median, quantile, timeMs } from './stats.ts';

const quick = process.argv.includes('--quick');
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const sets = labelledSets.map(loadSet);
const queries = sets.flatMap((s) => s.queries.map((q) => q.query));
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** Least-squares slope of y over x, and of log y over log x (the growth exponent: 1 is linear). */
function slopes(xs: readonly number[], ys: readonly number[]): { perUnit: number; exponent: number } {
  const leastSquares = (a: readonly number[], b: readonly number[]) => {
    const ma = a.reduce((s, v) => s + v, 0) / a.length;
    const mb = b.reduce((s, v) => s + v, 0) / b.length;
    let num = 0;
    let den = 0;
    for (let i = 0; i < a.length; i++) {
      num += ((a[i] as number) - ma) * ((b[i] as number) - mb);
      den += ((a[i] as number) - ma) ** 2;
    }
    return num / den;
  };
  return {
    perUnit: leastSquares(xs, ys),
    exponent: leastSquares(
      xs.map(Math.log),
      ys.map((y) => Math.log(Math.max(y, 1e-6))),
    ),
  };
}

interface ScaleRow {
  tools: number;
  buildMs: number;
  firstSearchMs: number;
  p50Ms: number;
  p99Ms: number;
  heapMb: number;
}

/** A catalogue of `size` tools: the labelled sets, then renamed copies; each build gets its own objects. */
async function scale(size: number): Promise<ScaleRow> {
  // Each build gets a catalogue of its own content (the index cache is keyed by content); median of three.
  const copy = (k: number) =>
    (combineCatalogues(sets, size) as Tool[]).map((t) => ({
      ...t,
      description: `${t.description ?? ''} (${size}/${k})`,
    }));
  const tools = copy(0);
  const before = heapMb();
  const layer = createToolSearch({ logger: { warn: () => {} } });
  const context = { sessionId: `scale-${size}`, tools };
  const builds = [await timeMs(() => layer.prepare(context))];
  const firstSearchMs = await timeMs(() => layer.search(context, { query: queries[0] as string }));
  const heap = heapMb() - before;
  for (let k = 1; k <= 2; k++) {
    const other = copy(k);
    builds.push(await timeMs(() => createToolSearch().prepare({ sessionId: 'build', tools: other })));
  }
  const buildMs = median(builds);
  const times: number[] = [];
  const runs = quick ? 50 : 300;
  for (let i = 0; i < runs; i++) {
    times.push(await timeMs(() => layer.search(context, { query: queries[(i * 7) % queries.length] as string })));
  }
  return { tools: size, buildMs, firstSearchMs, p50Ms: median(times), p99Ms: quantile(times, 0.99), heapMb: heap };
}

interface HistoryRow {
  messages: number;
  p50Ms: number;
}

/** prepare replaying a history of `length` messages (real search results) on a 1,000-tool catalogue. */
async function history(tools: readonly Tool[], length: number): Promise<HistoryRow> {
  const messages = await buildHistory(createToolSearch(), tools, queries, length);
  const layer = createToolSearch({ logger: { warn: () => {} } });
  await layer.prepare({ sessionId: 'h', tools, messages });
  const times: number[] = [];
  for (let i = 0; i < (quick ? 10 : 40); i++)
    times.push(await timeMs(() => layer.prepare({ sessionId: 'h', tools, messages })));
  return { messages: length, p50Ms: median(times) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A memory store whose every call behaves as `state.kind` says, until it is set to 'healthy'. */
function failing(state: { kind: string }, rate: () => number): DiscoveredStore {
  const inner = createMemoryStore();
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    const { kind } = state;
    if (kind === 'rejects') throw new Error('503');
    if (kind === 'hangs') return new Promise<T>(() => {});
    if (kind === 'slow (90 ms)') await sleep(90);
    if (kind === 'fails half') {
      await sleep(rate() * 4);
      if (rate() < 0.5) throw new Error('flaky');
    }
    return work();
  };
  const sync = (): never => {
    throw new Error('closed');
  };
  const throws = () => state.kind === 'throws at once';
  return {
    name: state.kind,
    get: (id) => (throws() ? sync() : run(() => inner.get(id))),
    update: (id, apply) => (throws() ? sync() : run(() => inner.update(id, apply))),
    delete: (id) => inner.delete(id),
    clear: () => inner.clear(),
  };
}

interface FaultRow {
  store: string;
  p50Ms: number;
  maxMs: number;
  totalMs: number;
  lost: number;
}

/** 30 rounds (prepare, then a search) on each of 4 sessions at once; `lost`: discoveries missing once healed. */
async function faults(tools: readonly Tool[], kind: string): Promise<FaultRow> {
  let seed = 7;
  const rate = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return seed / 2 ** 32;
  };
  const state = { kind };
  const store = failing(state, rate);
  const layer = createToolSearch({
    store,
    logger: { warn: () => {} },
    storeTimeoutMs: 100,
    storeRetryMs: 1000,
    maxDiscoveredKeep: 0,
  });
  const rounds: number[] = [];
  const found = new Map<string, Set<string>>();
  const start = performance.now();
  await Promise.all(
    ['a', 'b', 'c', 'd'].map(async (sessionId) => {
      found.set(sessionId, new Set());
      for (let i = 0; i < 30; i++) {
        rounds.push(
          await timeMs(async () => {
            await layer.prepare({ sessionId, tools });
            const result = await layer.search({ sessionId, tools }, { query: queries[i] as string, limit: 1 });
            for (const tool of 'tools' in result ? result.tools : []) found.get(sessionId)?.add(tool.name);
          }),
        );
      }
    }),
  );
  const totalMs = performance.now() - start;
  let lost = 0;
  if (kind === 'fails half') {
    // Healed: the sessions merge back on their next round, after the retry time.
    state.kind = 'healthy';
    await sleep(1100);
    for (const [sessionId, names] of found) {
      const { discovered } = await layer.prepare({ sessionId, tools });
      for (const name of names) if (!discovered.includes(name)) lost++;
    }
  }
  return { store: kind, p50Ms: median(rounds), maxMs: Math.max(...rounds), totalMs, lost };
}

function table(title: string, columns: string[], rows: string[][], notes: string[]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [`### ${title}`, '', line(columns), line(columns.map(() => '---')), ...rows.map(line), '', ...notes, ''].join(
    '\n',
  );
}

// Warm-up: the first catalogue a process sees also pays for compiling the library's code.
await scale(300);
const sizes = quick ? [1000, 4000] : [1000, 4000, 16_000, 64_000];
const scaleRows: ScaleRow[] = [];
for (const size of sizes) {
  console.error(`scale ${size}...`);
  scaleRows.push(await scale(size));
}
const thousand = combineCatalogues(sets, 1000) as Tool[];
const lengths = quick ? [10, 100, 1000] : [10, 100, 1000, 3000, 10_000];
const historyRows: HistoryRow[] = [];
for (const length of lengths) {
  console.error(`history ${length}...`);
  historyRows.push(await history(thousand, length));
}
const kinds = ['healthy', 'rejects', 'throws at once', 'hangs', 'slow (90 ms)', 'fails half'];
const faultRows: FaultRow[] = [];
for (const kind of kinds) {
  console.error(`store ${kind}...`);
  faultRows.push(await faults(thousand, kind));
}

const xs = scaleRows.map((r) => r.tools);
const slope = (ys: number[], unit: number, label: string) => {
  const s = slopes(xs, ys);
  return `${label}: ${fmt(s.perUnit * unit, 3)} per 1,000 tools, growth exponent ${fmt(s.exponent)}`;
};
const historySlope = slopes(
  historyRows.map((r) => r.messages),
  historyRows.map((r) => r.p50Ms),
);
const markdown = [
  table(
    'Catalogue size',
    ['tools', 'build (first prepare) ms', 'first search ms', 'query p50 ms', 'query p99 ms', 'heap MB'],
    scaleRows.map((r) => [
      r.tools.toLocaleString('en'),
      fmt(r.buildMs, 1),
      fmt(r.firstSearchMs),
      fmt(r.p50Ms, 3),
      fmt(r.p99Ms, 3),
      fmt(r.heapMb, 1),
    ]),
    [
      "Catalogues: the six labelled sets, then renamed copies. Build: the first prepare of a fresh catalogue (inspection, index, names list), median of three copies. Query: searches of the labelled sets' raw requests. Heap: after two forced collections, less the heap before the layer saw the catalogue (the index and the layer's caches; the tools themselves are the host's). The machine has 2 cores shared with other jobs: single figures are noisy, the slopes less so.",
      '',
      `Slopes (least squares; exponent = slope of log time over log size, 1 is linear): ${[
        slope(
          scaleRows.map((r) => r.buildMs),
          1000,
          'build ms',
        ),
        slope(
          scaleRows.map((r) => r.p50Ms),
          1000,
          'query p50 ms',
        ),
        slope(
          scaleRows.map((r) => r.p99Ms),
          1000,
          'query p99 ms',
        ),
        slope(
          scaleRows.map((r) => r.heapMb),
          1000,
          'heap MB',
        ),
      ].join('; ')}.`,
    ],
  ),
  table(
    'prepare against the history length (1,000 tools)',
    ['messages', 'prepare p50 ms'],
    historyRows.map((r) => [r.messages.toLocaleString('en'), fmt(r.p50Ms, 3)]),
    [
      `Replaying the same history (real search results). Slope ${fmt(historySlope.perUnit * 1000, 3)} ms per 1,000 messages, growth exponent ${fmt(historySlope.exponent)}.`,
    ],
  ),
  table(
    'Rounds under a failing store (1,000 tools)',
    ['store', 'round p50 ms', 'round max ms', 'total ms', 'discoveries lost after healing'],
    faultRows.map((r) => [r.store, fmt(r.p50Ms), fmt(r.maxMs, 1), fmt(r.totalMs, 0), String(r.lost)]),
    [
      'A round: prepare, then a search, on 4 sessions at once, 30 rounds each; storeTimeoutMs 100, storeRetryMs 1,000 (the defaults are 1,000 and 10,000: the same shape, ten times longer). "fails half": each call waits 0-4 ms, then fails with probability 0.5; it then heals and every session is checked.',
    ],
  ),
].join('\n');

console.log(markdown);
const here = dirname(fileURLToPath(import.meta.url));
const results = { date: new Date().toISOString(), node: process.version, quick, scaleRows, historyRows, faultRows };
writeFileSync(join(here, 'results', 'stress.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(here, 'results', 'stress.md'), `## Stress and faults\n\n${markdown}`);
