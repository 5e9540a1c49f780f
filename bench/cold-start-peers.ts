// The bench's own build measurement (bench/speed.ts: fresh copies, deploy untimed, median of the builds) for this
// library's two peers only, at 1,000 and 4,076 seal-tools tools, through the package's dist/ (run `npm run build`).
// `npx tsx bench/cold-start-peers.ts [builds]`
import { loadSet } from './data.ts';
import { oursLoadedPeer, oursPeer } from './peers/ours.ts';
import { measureSpeed } from './speed.ts';

const builds = Number(process.argv[2] ?? 20);
const seal = loadSet('seal-tools').tools;
const rows = await measureSpeed(
  [1000, 4076].map((size) => ({ size, tools: seal.slice(0, size) })),
  [oursPeer, oursLoadedPeer],
  { queries: ['weather'], limit: 5, builds, warmup: 1, maxQueries: 1, minQueries: 1, budgetMs: 60_000 },
);
for (const r of rows) console.log(`${r.size} ${r.peer}: build ${r.buildMs.toFixed(2)} ms (median of ${r.builds})`);
