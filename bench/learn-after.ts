// What a busy server's search costs after a commit, at ToolLens's scale (COLT's ToolLens: 464 tools, 16,893 training
// requests; get it as bench/toollens.ts says): every training request but the last `--rounds` fed as sessions (the
// memory reaches its default bound, about 12,300 requests, and drops its oldest pages), then per round one more
// session committed (prepare and flush), the first search after it and the next (a steady search) timed, the trees
// taken in turn. Prints their medians and 90th percentiles, and with two trees how many answers differ.
//
// The memory's lanes and the pages' tags are picked at random, and which requests a bound drops depends on the lanes:
// Math.random is seeded alike for each tree, so two trees of the same code keep the same requests and answer alike.
//
//   TOOLLENS_DIR=/path/to/ToolLens npx tsx bench/learn-after.ts [--rounds 80] [treeA] [treeB]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Library from '../src/index.ts';
import { history } from './learn.ts';
import { median, quantile } from './stats.ts';
import { loadToolLens } from './toollens.ts';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 80;
const trees = args.filter((a, i) => !a.startsWith('--') && !(roundsAt >= 0 && i === roundsAt + 1));
if (trees.length === 0) trees.push(resolve(import.meta.dirname, '..'));
const dir = process.env.TOOLLENS_DIR;
if (!dir || !(rounds >= 1) || trees.length > 2) {
  console.error('usage: TOOLLENS_DIR=/path/to/ToolLens npx tsx bench/learn-after.ts [--rounds 80] [treeA] [treeB]');
  process.exit(2);
}

let seed = 1;
Math.random = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
};

type Layer = ReturnType<typeof Library.createToolSearch>;
const { tools, train, test } = loadToolLens(dir);
const fed = train.slice(0, train.length - rounds);
const later = train.slice(train.length - rounds);
const layers: Layer[] = [];
for (const tree of trees) {
  const lib = (await import(pathToFileURL(resolve(tree, 'src/index.ts')).href)) as typeof Library;
  seed = 1;
  const layer = lib.createToolSearch({
    logger: { warn() {} },
    learn: true,
    store: lib.createMemoryStore({ maxSessions: 100_000 }),
  });
  for (const [i, q] of fed.entries()) {
    await layer.prepare({ sessionId: `feed-${i}`, tools, messages: history(q.query, q.relevant) });
    if (i % 500 === 499) await layer.flush();
  }
  await layer.flush();
  // Warm: a server that has answered for a while.
  for (const [i, q] of test.slice(0, 300).entries())
    await layer.search({ sessionId: `warm-${i}`, tools }, { query: q.query });
  layers.push(layer);
}

const laps = layers.map(() => ({ first: [] as number[], next: [] as number[] }));
let differing = 0;
for (let r = 0; r < rounds; r++) {
  const answers: string[] = [];
  for (let j = 0; j < layers.length; j++) {
    const k = (j + r) % layers.length;
    const layer = layers[k] as Layer;
    const q = later[r] as (typeof later)[number];
    seed = 1000 + r;
    await layer.prepare({ sessionId: `commit-${r}`, tools, messages: history(q.query, q.relevant) });
    await layer.flush();
    for (const [w, which, i] of [
      [0, 'first', r],
      [1, 'next', r + 100],
    ] as const) {
      const asked = test[i % test.length] as (typeof test)[number];
      const t0 = performance.now();
      const answer = await layer.search(
        { sessionId: `after-${r}-${which}`, tools },
        { query: `${asked.query}${' '.repeat(r + 1)}` },
      );
      laps[k]?.[which].push(performance.now() - t0);
      answers[2 * k + w] = JSON.stringify(answer);
    }
  }
  if (layers.length === 2) for (let w = 0; w < 2; w++) if (answers[w] !== answers[2 + w]) differing++;
}
const ms = (values: number[]) => `${median(values).toFixed(2)} / ${quantile(values, 0.9).toFixed(2)}`;
console.table(
  trees.map((tree, k) => ({
    tree,
    'first search after ms (median / p90)': ms(laps[k]?.first ?? []),
    'next search ms': ms(laps[k]?.next ?? []),
  })),
);
if (layers.length === 2) console.log(`searches whose answers differ between the trees: ${differing} of ${2 * rounds}`);
