import type { Tool } from '../src/base/types.ts';
import { createMemoryStore, createToolSearch } from '../src/index.ts';
import { createSetIndex } from '../src/learn/set-vote.ts';
import { type BenchQuery, loadSet } from './data.ts';
import { feedSession, shuffled } from './learn-sim.ts';

const name = process.argv[2] ?? 'restbench';
const set = loadSet(name);
const tools = set.tools as unknown as Tool[];
const all = shuffled(set.queries, 0x5eed);
const testFrom = Math.floor(all.length * 0.8);
const test = all.slice(testFrom);
const options = { maxSearchResults: 5, logger: { warn() {} } };
const store = createMemoryStore({ maxSessions: 200_000 });
const feeder = createToolSearch({ ...options, store, learn: { scope: name } });
const n = Math.round(all.length * Number(process.argv[3] ?? 0.5));
for (let i = 0; i < n; i++) await feedSession(feeder, tools, `feed-${i}`, all[i] as BenchQuery);
await feeder.flush();
const a = createToolSearch({ ...options, store, learn: { scope: name, memoryWeight: 32, setWeight: 0 } });
const b = createToolSearch({ ...options, store, learn: { scope: name, memoryWeight: 32, setWeight: 32 } });
for (const [i, q] of test.entries()) {
  const ra = ((await a.search({ sessionId: `a${i}`, tools }, { query: q.query, limit: 5 })) as any).tools.map(
    (t: any) => t.name,
  );
  const rb = ((await b.search({ sessionId: `b${i}`, tools }, { query: q.query, limit: 5 })) as any).tools.map(
    (t: any) => t.name,
  );
  const ha = q.relevant.filter((t) => ra.includes(t)).length,
    hb = q.relevant.filter((t) => rb.includes(t)).length;
  if (ha !== hb)
    console.log(
      ha > hb ? 'LOSS' : 'GAIN',
      q.query.slice(0, 120),
      '\n  want',
      q.relevant.join(' '),
      '\n  s0 ',
      ra.join(' '),
      '\n  s32',
      rb.join(' '),
    );
}
