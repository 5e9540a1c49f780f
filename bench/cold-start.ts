// Cold start of a Worker isolate, isolated from the full bench: a cold build, loadIndex alone, and loadIndex + the
// layer's first search, at 1,000 and 4,076 seal-tools tools (fresh copies each run, as bench/speed.ts makes them;
// the first 3 of each loop are left out).
// `npx tsx bench/cold-start.ts [runs]`; imports the source, so no build is needed.

import { createToolSearch, type Tool } from '../src/index.ts';
import { loadIndex, serializeIndex } from '../src/search/serialize.ts';
import { loadSet } from './data.ts';
import { freshCopy } from './speed.ts';
import { median, timeMs } from './stats.ts';

const runs = Number(process.argv[2] ?? 30);
const seal = loadSet('seal-tools').tools;
let run = 1e6;

const firstSearch = (tools: readonly Tool[]) =>
  createToolSearch({ maxSearchResults: 0 }).search(
    { sessionId: 'cold', tools },
    { query: (tools[0] as Tool).name, limit: 1 },
  );

// Separate loops, so that each measures one thing: a build's cache lookup would otherwise read the fields of the
// loaded indexes before it (a loaded index reads them only when asked).
for (const size of [1000, 4076]) {
  const base = seal.slice(0, size);
  const times = { build: [] as number[], load: [] as number[], loadSearch: [] as number[] };
  for (let i = 0; i < runs; i++) {
    const copy = freshCopy(base, run++);
    times.build.push(await timeMs(() => firstSearch(copy)));
  }
  for (let i = 0; i < runs; i++) {
    const copy = freshCopy(base, run++);
    const text = serializeIndex(copy);
    times.load.push(
      await timeMs(() => {
        if (!loadIndex(text, copy)) throw new Error('not loaded');
      }),
    );
  }
  for (let i = 0; i < runs; i++) {
    const copy = freshCopy(base, run++);
    const text = serializeIndex(copy);
    times.loadSearch.push(
      await timeMs(async () => {
        if (!loadIndex(text, copy)) throw new Error('not loaded');
        await firstSearch(copy);
      }),
    );
  }
  const f = (v: number[]) => median(v.slice(3)).toFixed(2);
  console.log(
    `${size} tools: cold build ${f(times.build)} ms, loadIndex ${f(times.load)} ms, loadIndex + first search ${f(times.loadSearch)} ms (median of ${runs - 3})`,
  );
}
