// Learning from use, simulated through the public API: each set's queries split by a fixed seed into a feed half
// and a test half. Feed sessions search and then call the tools the query needed (results and all, as a host's
// history holds them), through `prepare`; the test half is then searched in fresh sessions, learning on against
// off, in the same run. The weight is chosen under leave-one-set-out (bench/TUNING.md): each set's held-out score
// uses the weight that did best on the other sets.
import type { Message, Tool } from '../src/core/types.ts';
import { createMemoryStore, createToolSearch, type ToolSearch } from '../src/index.ts';
import { type BenchQuery, labelledSets, loadSet } from './data.ts';
import { recallAt } from './metrics.ts';
import { sampleEvenly } from './sample.ts';

/** The weights the leave-one-set-out fit chooses from. */
export const WEIGHTS: readonly number[] = [4, 6, 8, 12, 16, 20, 24];
/** Queries per set at most (spread evenly): every query by default, as the protocol splits whole sets; a lower cap makes a quick run. */
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

/** One session as a host's history holds it: the request, a search with its real result, the needed tools called. */
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
}

export async function recall(
  layer: ToolSearch,
  tools: Tool[],
  queries: readonly BenchQuery[],
  label: string,
): Promise<number> {
  let sum = 0;
  for (const [i, q] of queries.entries()) {
    const result = (await layer.search({ sessionId: `test-${label}-${i}`, tools }, { query: q.query, limit: 5 })) as {
      tools?: { name: string }[];
    };
    sum += recallAt(5, result.tools?.map((t) => t.name) ?? [], q.relevant);
  }
  return queries.length ? sum / queries.length : 0;
}

/** One set's recall@5 on its test half: learning off, and on at each weight after `fed` of the feed half. */
export interface SetRun {
  readonly name: string;
  readonly off: number;
  readonly on: ReadonlyMap<number, number>;
  readonly fed: number;
  readonly tested: number;
}

/** Runs one set at one feed fraction (of the feed half). */
export async function runSet(name: string, fraction: number, weights = WEIGHTS): Promise<SetRun> {
  const set = loadSet(name);
  const tools = set.tools as unknown as Tool[];
  const queries = shuffled(sampleEvenly(set.queries, MAX_QUERIES), 0x5eed);
  const half = Math.floor(queries.length / 2);
  const feed = queries.slice(0, Math.round(half * fraction));
  const test = queries.slice(half);
  const options = { maxSearchResults: 5, logger: { warn() {} } };
  const off = await recall(createToolSearch(options), tools, test, 'off');
  const store = createMemoryStore({ maxSessions: 100_000 });
  const feeder = createToolSearch({ ...options, store, learn: { scope: name } });
  for (const [i, q] of feed.entries()) await feedSession(feeder, tools, `feed-${i}`, q);
  await feeder.flush();
  const on = new Map<number, number>();
  for (const weight of weights) {
    on.set(
      weight,
      await recall(createToolSearch({ ...options, store, learn: { scope: name, weight } }), tools, test, `w${weight}`),
    );
  }
  return { name, off, on, fed: feed.length, tested: test.length };
}

/** Each set's held-out gain: the weight that did best on the other sets (mean gain, less twice any loss past 0.5 points). */
export function leaveOneSetOut(runs: readonly SetRun[]): { name: string; weight: number; gain: number }[] {
  const gain = (run: SetRun, w: number) => ((run.on.get(w) as number) - run.off) * 100;
  const objective = (others: readonly SetRun[], w: number) =>
    others.reduce((sum, run) => sum + gain(run, w) - 2 * Math.max(0, -0.5 - gain(run, w)), 0) / others.length;
  return runs.map((run) => {
    const others = runs.filter((r) => r !== run);
    const weight = [...run.on.keys()].reduce((best, w) => (objective(others, w) > objective(others, best) ? w : best));
    return { name: run.name, weight, gain: gain(run, weight) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sets = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  for (const fraction of [1, 0.5]) {
    const runs: SetRun[] = [];
    for (const name of sets.length ? sets : labelledSets) {
      const run = await runSet(name, fraction);
      runs.push(run);
      const cells = [...run.on].map(([w, r]) => `w${w} ${((r - run.off) * 100).toFixed(1)}`).join('  ');
      console.log(
        `${name.padEnd(17)} fed ${run.fed} tested ${run.tested}  off ${(run.off * 100).toFixed(1)}  ${cells}`,
      );
    }
    const folds = leaveOneSetOut(runs);
    for (const f of folds) console.log(`  held out ${f.name.padEnd(17)} w=${f.weight}  ${f.gain.toFixed(1)}`);
    const mean = folds.reduce((s, f) => s + f.gain, 0) / folds.length;
    console.log(
      `feed ${fraction === 1 ? 'half' : 'quarter'}: held-out mean ${mean.toFixed(1)}, worst ${Math.min(...folds.map((f) => f.gain)).toFixed(1)}`,
    );
  }
}
