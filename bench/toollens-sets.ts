// ToolLens (bench/toollens.ts) with the tool sets' vote on and off: the training split fed as sessions, the test split
// searched after 500, 2,000, 8,000 and all sessions with the table alone, the table and the memory of past requests,
// and the three together (the defaults). Held out of every fit (bench/TUNING.md): reported, never looked at to choose.
//   TOOLLENS_DIR=/path/to/ToolLens npx tsx bench/toollens-sets.ts
import { createMemoryStore, createToolSearch } from '../src/index.ts';
import { feedSession, recall, type Scores, shuffled } from './learn-sim.ts';
import { loadToolLens } from './toollens.ts';

const dir = process.env.TOOLLENS_DIR ?? process.argv[2];
if (!dir) throw new Error('set TOOLLENS_DIR to the folder of COLT’s datasets/ToolLens');
const { tools, train: ordered, test } = loadToolLens(dir);
// The training split is ordered by scene; sessions arrive in no such order, so it is fed shuffled (bench/toollens.ts).
const train = shuffled(ordered, 0x5eed);
const options = { maxSearchResults: 5, logger: { warn() {} } };
const pct = (s: Scores) => `${(s.r5 * 100).toFixed(1)} / ${(s.c5 * 100).toFixed(1)}`;
const columns = {
  'table only': { memoryWeight: 0, setWeight: 0 },
  'table and memory': { setWeight: 0 },
  'table, memory and sets': {},
};
const store = createMemoryStore({ maxSessions: 200_000 });
const feeder = createToolSearch({ ...options, store, learn: { scope: 'toollens' } });
console.log(`ToolLens: ${tools.length} tools, ${test.length} test requests; recall@5 / C@5 (%)`);
console.log(`learn off: ${pct(await recall(createToolSearch(options), tools, test, 'off'))}`);
let fed = 0;
for (const point of [500, 2000, 8000, train.length]) {
  for (; fed < Math.min(point, train.length); fed++)
    await feedSession(feeder, tools, `feed-${fed}`, train[fed] as (typeof train)[number]);
  await feeder.flush();
  const cells: string[] = [];
  for (const [name, learn] of Object.entries(columns)) {
    const layer = createToolSearch({ ...options, store, learn: { scope: 'toollens', ...learn } });
    cells.push(`${name}: ${pct(await recall(layer, tools, test, name))}`);
  }
  console.log(`fed ${fed}: ${cells.join('   ')}`);
}
