// Learning from use, simulated through the public API: each set's queries split by a fixed seed into a feed half
// and a test half. Feed sessions search and then call the tools the query needed (results and all, as a host's
// history holds them), through `prepare`; the test half is then searched in fresh sessions, learning on against
// off, in the same run. The weight is chosen under leave-one-set-out (bench/TUNING.md): each set's held-out score
// uses the weight that did best on the other sets.
import type { Message, Tool } from '../src/base/types.ts';
import { createMemoryStore, createToolSearch, type ToolSearch } from '../src/index.ts';
import { VOTE } from '../src/learn/memory.ts';
import { type BenchQuery, labelledSets, loadSet } from './data.ts';
import { recallAt } from './metrics.ts';
import { sampleEvenly } from './sample.ts';

// A trial of the memory's vote (bench/TUNING.md): VOTE='{"neighbours":20}' overrides the shipped settings.
if (process.env.VOTE) Object.assign(VOTE, JSON.parse(process.env.VOTE));

/** Queries per set at most (spread evenly): every query by default, as the issue's protocol splits whole sets; a lower cap makes a quick run. */
const MAX_QUERIES = Number(process.env.LEARN_MAX_QUERIES ?? Number.POSITIVE_INFINITY);

/** A seeded shuffle (mulberry32), so every run splits the same way. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * One session as a host's history holds it: the request, a search with its real result, the needed tools called. Its
 * credit is written before it returns: left to the writer, sessions merge by the clock's timing (200 ms gathers), and
 * runs of the same code moved by ±0.1 points.
 */
export async function feedSession(layer: ToolSearch, tools: Tool[], sessionId: string, q: BenchQuery): Promise<void> {
  const context = { sessionId, tools };
  const result = await layer.search(context, { query: q.query });
  const messages: Message[] = [
    { role: 'user', content: q.query },
    {
      role: 'assistant',
      toolCalls: [{ id: 's1', name: 'search_tools', arguments: JSON.stringify({ query: q.query }) }],
    },
    { role: 'tool', toolCallId: 's1', content: JSON.stringify(result) },
    {
      role: 'assistant',
      toolCalls: q.relevant.map((name, i) => ({ id: `c${i}`, name, arguments: '{}' })),
    },
    ...q.relevant.map((_, i): Message => ({ role: 'tool', toolCallId: `c${i}`, content: '{"ok":true}' })),
  ];
  await layer.prepare({ sessionId, tools, messages });
  await layer.flush();
}

/** Recall@5 and C@5 (every needed tool in the top 5) of a layer over test queries, in fresh sessions. */
export async function recall(
  layer: ToolSearch,
  tools: Tool[],
  queries: readonly BenchQuery[],
  label: string,
): Promise<Scores> {
  let sum = 0;
  let complete = 0;
  for (const [i, q] of queries.entries()) {
    const result = (await layer.search({ sessionId: `test-${label}-${i}`, tools }, { query: q.query, limit: 5 })) as {
      tools?: { name: string }[];
    };
    const r = recallAt(5, result.tools?.map((t) => t.name) ?? [], q.relevant);
    sum += r;
    if (r === 1) complete++;
  }
  return queries.length ? { r5: sum / queries.length, c5: complete / queries.length } : { r5: 0, c5: 0 };
}

/** Recall@5 and the share of requests with every needed tool in the top 5. */
export interface Scores {
  readonly r5: number;
  readonly c5: number;
}

/** A set's scores at one amount fed: learning off, and on for each memory weight. */
export interface SetRun {
  readonly name: string;
  readonly off: Scores;
  /** By the weights' key (`weightKey`). */
  readonly on: ReadonlyMap<string, Scores>;
  readonly fed: number;
  readonly tested: number;
}

/** The share of each set's queries that is fed, cumulatively; the last fifth is always the test. */
export const FRACTIONS: readonly number[] = [0.25, 0.5, 0.8];
/** The memory weights the leave-one-set-out fit chooses from (the table's weight stays at its default, 12). */
export const MEMORY_WEIGHTS: readonly number[] = [0, 2, 4, 8, 16, 32];

import { SET_VOTE } from '../src/learn/set-vote.ts';
/** The tool sets' weights it chooses from, with each memory weight. */
export const SET_WEIGHTS: readonly number[] = [0, 8, 32, 128];
/** The powers of the sets' reliability it chooses from, with each sets' weight (TRIAL_SET_POWERS='[2,4,8]' to try more). */
export const SET_POWERS: readonly number[] = JSON.parse(process.env.TRIAL_SET_POWERS ?? '[2]');

/** The trained model's weights it chooses from, beside each memory and sets' weight a fold may choose (0: off). */
export const MODEL_WEIGHTS: readonly number[] = [0, 32, 128, 512];

/** The weights of the memory's, the tool sets' and the trained model's votes one run of the test split uses. */
export interface Weights {
  readonly memoryWeight: number;
  readonly setWeight: number;
  readonly modelWeight: number;
  /** The power of the sets' reliability (`SET_VOTE.calibrate`); the shipped one when not given. */
  readonly setPower?: number;
}
/**
 * Every choice the fit makes from, the table alone first (ties go to the earlier): the memory's and the sets' weights
 * with the model off, then the model's weights beside every pair a fold can choose.
 */
export const WEIGHT_GRID: readonly Weights[] = MEMORY_WEIGHTS.flatMap((memoryWeight) =>
  // The sets beside the memory weights a fold can choose (2 is never chosen: it saves a quarter of the runs).
  (memoryWeight <= 2 ? [0] : SET_WEIGHTS).flatMap((setWeight) =>
    (setWeight === 0 || SET_POWERS.length === 1
      ? [{ memoryWeight, setWeight, modelWeight: 0 } as Weights]
      : SET_POWERS.map((setPower): Weights => ({ memoryWeight, setWeight, modelWeight: 0, setPower }))
    ).flatMap((w) =>
      memoryWeight <= 2 || w.setPower !== undefined ? [w] : MODEL_WEIGHTS.map((modelWeight) => ({ ...w, modelWeight })),
    ),
  ),
);
/** A choice's key in a run's scores, as the tables print it (the model's weight only when it is on). */
export const weightKey = ({ memoryWeight, setWeight, modelWeight, setPower }: Weights): string =>
  `m ${memoryWeight}, s ${setWeight}${setPower === undefined ? '' : ` p ${setPower}`}${modelWeight > 0 ? `, t ${modelWeight}` : ''}`;

/**
 * Runs one set: its queries shuffled by a fixed seed, the last fifth kept for the test; sessions are fed in order
 * and the test half searched when `points` (counts of sessions fed) are reached, one run per point.
 */
export async function runSet(
  name: string,
  points: readonly number[] | 'fractions' = 'fractions',
  weights: readonly Weights[] = WEIGHT_GRID,
): Promise<SetRun[]> {
  const set = loadSet(name);
  const tools = set.tools as unknown as Tool[];
  const queries = shuffled(sampleEvenly(set.queries, MAX_QUERIES), 0x5eed);
  const testFrom = Math.floor(queries.length * 0.8);
  const test = queries.slice(testFrom);
  const counts = points === 'fractions' ? FRACTIONS.map((f) => Math.round(queries.length * f)) : points;
  const options = { maxSearchResults: 5, logger: { warn() {} } };
  const off = await recall(createToolSearch(options), tools, test, 'off');
  const store = createMemoryStore({ maxSessions: 200_000 });
  const feeder = createToolSearch({ ...options, store, learn: { scope: name } });
  const runs: SetRun[] = [];
  let fed = 0;
  for (const count of counts) {
    for (; fed < Math.min(count, testFrom); fed++)
      await feedSession(feeder, tools, `feed-${fed}`, queries[fed] as BenchQuery);
    await feeder.flush();
    const on = new Map<string, Scores>();
    for (const { setPower, ...w } of weights) {
      const shipped = SET_VOTE.calibrate;
      Object.assign(SET_VOTE, { calibrate: setPower ?? shipped });
      const layer = createToolSearch({ ...options, store, learn: { scope: name, ...w } });
      // The model of the memory this layer reads trained before it is tested (a layer trains it in the background
      // from its first search on).
      await layer.search({ sessionId: 'warm', tools }, { query: (test[0] as BenchQuery).query });
      await layer.flush();
      on.set(
        weightKey(setPower === undefined ? w : { ...w, setPower }),
        await recall(layer, tools, test, `w${w.memoryWeight}-${w.setWeight}`),
      );
      Object.assign(SET_VOTE, { calibrate: shipped });
    }
    runs.push({ name, off, on, fed, tested: test.length });
  }
  return runs;
}

/**
 * Each set's held-out gain, its weights fitted on the other sets (mean gain, less twice any loss past 0.5 points) in
 * three stages: the memory's weight with the tool sets off, as before they existed, then the sets' weight beside it,
 * then the trained model's beside those (when the runs have it).
 */
export function leaveOneSetOut(
  runs: readonly SetRun[],
): { name: string; weight: string; gain: number; complete: number }[] {
  const gain = (run: SetRun, w: string) => ((run.on.get(w) as Scores).r5 - run.off.r5) * 100;
  const objective = (others: readonly SetRun[], w: string) =>
    others.reduce((sum, run) => sum + gain(run, w) - 2 * Math.max(0, -0.5 - gain(run, w)), 0) / others.length;
  const best = (others: readonly SetRun[], keys: readonly string[]) =>
    keys.reduce((b, w) => (objective(others, w) > objective(others, b) ? w : b));
  return runs.map((run) => {
    const others = runs.filter((r) => r !== run);
    const keys = [...run.on.keys()];
    const memoryWeight = Number(
      best(
        others,
        keys.filter((key) => key.endsWith(', s 0')),
      ).split(/[ ,]+/)[1],
    );
    const pair = best(
      others,
      keys.filter((key) => key.startsWith(`m ${memoryWeight},`) && !key.includes(', t ')),
    );
    const weight = best(
      others,
      keys.filter((key) => key === pair || key.startsWith(`${pair}, t `)),
    );
    return {
      name: run.name,
      weight,
      gain: gain(run, weight),
      complete: ((run.on.get(weight) as Scores).c5 - run.off.c5) * 100,
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sets = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const byFraction: SetRun[][] = FRACTIONS.map(() => []);
  for (const name of sets.length ? sets : labelledSets) {
    for (const [k, run] of (await runSet(name)).entries()) {
      byFraction[k]?.push(run);
      const cells = [...run.on].map(([w, r]) => `${w}: ${((r.r5 - run.off.r5) * 100).toFixed(1)}`).join('  ');
      console.log(
        `${name.padEnd(17)} fed ${run.fed} tested ${run.tested}  off ${(run.off.r5 * 100).toFixed(1)}  ${cells}`,
      );
    }
  }
  for (const [k, runs] of byFraction.entries()) {
    // The same fit without the tool sets (s 0 only), on the same queries: the shipped procedure before them.
    const before = leaveOneSetOut(
      runs.map((run) => ({ ...run, on: new Map([...run.on].filter(([key]) => key.endsWith(', s 0'))) })),
    );
    for (const f of before)
      console.log(`  without sets, held out ${f.name.padEnd(17)} ${f.weight}  ${f.gain.toFixed(1)}`);
    const folds = leaveOneSetOut(runs);
    for (const f of folds) console.log(`  held out ${f.name.padEnd(17)} ${f.weight}  ${f.gain.toFixed(1)}`);
    const mean = folds.reduce((s, f) => s + f.gain, 0) / folds.length;
    console.log(
      `fed ${FRACTIONS[k]}: held-out mean ${mean.toFixed(1)}, worst ${Math.min(...folds.map((f) => f.gain)).toFixed(1)}`,
    );
  }
}
