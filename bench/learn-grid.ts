// A grid of learn settings over the labelled sets (quick tuning aid): recall@5 gain per set at one feed fraction.
import type { Tool } from '../src/base/types.ts';
import { createMemoryStore, createToolSearch } from '../src/index.ts';
import { VOTE } from '../src/learn/memory.ts';
import { labelledSets, loadSet } from './data.ts';
import { feedSession, recall, shuffled } from './learn-sim.ts';
import { sampleEvenly } from './sample.ts';

if (process.env.VOTE) Object.assign(VOTE, JSON.parse(process.env.VOTE));
const fraction = Number(process.env.FRACTION ?? 1);
const max = Number(process.env.LEARN_MAX_QUERIES ?? 2000);
const shipped = { ...VOTE };
const grid = JSON.parse(process.env.GRID ?? '[{"memoryWeight":0},{"memoryWeight":1}]') as object[];
for (const name of process.argv.slice(2).length ? process.argv.slice(2) : labelledSets) {
  const set = loadSet(name);
  const tools = set.tools as unknown as Tool[];
  const queries = shuffled(sampleEvenly(set.queries, max), 0x5eed);
  const half = Math.floor(queries.length / 2);
  const feed = queries.slice(0, Math.round(half * fraction));
  const test = queries.slice(half);
  const options = { maxSearchResults: 5, logger: { warn() {} } };
  const off = await recall(createToolSearch(options), tools, test, 'off');
  const store = createMemoryStore({ maxSessions: 100_000 });
  const feeder = createToolSearch({ ...options, store, learn: { scope: name } });
  for (const [i, q] of feed.entries()) await feedSession(feeder, tools, `feed-${i}`, q);
  await feeder.flush();
  const cells: string[] = [];
  for (const { vote, ...g } of grid as { vote?: object }[]) {
    for (const key of Object.keys(VOTE)) delete (VOTE as unknown as Record<string, unknown>)[key];
    Object.assign(VOTE, shipped, vote);
    const r = await recall(createToolSearch({ ...options, store, learn: { scope: name, ...g } }), tools, test, 'g');
    cells.push(`${((r.r5 - off.r5) * 100).toFixed(1)}/${((r.c5 - off.c5) * 100).toFixed(1)}`.padStart(11));
  }
  console.log(`${name.padEnd(17)} off ${(off.r5 * 100).toFixed(1)}/${(off.c5 * 100).toFixed(1)} ${cells.join(' ')}`);
}
