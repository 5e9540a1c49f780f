// The Cloudflare stores, measured in workerd (Miniflare 4): the p50 of `prepare` with each store (timed inside
// the Worker, whose clock only moves across I/O, and from outside), what two racing KV writers lose under the
// fault-injecting KV of test/workerd/faulty-kv.ts, and each entry point's size (min+brotli).
// Run: `npm run build && npx tsx bench/store-cloudflare.ts [--races=100]`. Writes bench/results/store-cloudflare.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { bundleWorker } from '../demo/worker/bundle.ts';
import { assertDistBuilt } from '../scripts/package-entries.mjs';
import { measureSize } from './size.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const races = Number(process.argv.find((a) => a.startsWith('--races='))?.slice(8) ?? 100);
const rounds = 200;

// The example Worker plus a /race route that runs races of the KV store over the fault-injecting wrapper.
const entry = `
import worker, { ToolAgent } from './demo/worker/src/index.ts';
import { kvNetwork, race } from './test/workerd/faulty-kv.ts';
export { ToolAgent };
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname !== '/race') return worker.fetch(request, env, ctx);
    const visibilityMs = Number(url.searchParams.get('visibility'));
    const rateLimit = url.searchParams.get('rateLimit') === '1';
    const stagger = Number(url.searchParams.get('stagger'));
    const n = Number(url.searchParams.get('n'));
    const network = kvNetwork();
    const results = await Promise.all(
      Array.from({ length: n }, () => race(env.DISCOVERED, network, { visibilityMs, rateLimit }, Math.random() * stagger)),
    );
    return Response.json({ lost: results.filter((r) => r.lost > 0).length, writes: network.writes });
  },
};`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main() {
  assertDistBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'tsl-bench-cf-'));
  await bundleWorker(dir, { contents: entry, resolveDir: root });
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(dir, 'index.js'),
    modulesRoot: dir,
    compatibilityDate: '2026-10-01',
    kvNamespaces: ['DISCOVERED'],
    durableObjects: { AGENT: { className: 'ToolAgent', useSQLite: true } },
  });
  const post = async (path: string, body: object) => {
    const response = await mf.dispatchFetch(`http://localhost${path}`, { method: 'POST', body: JSON.stringify(body) });
    return (await response.json()) as { ms: { prepare: number }; discovered: string[] };
  };
  try {
    const prepare: Record<string, { inWorkerP50: number; roundTripP50: number; roundTripP90: number }> = {};
    for (const [label, path] of [
      ['cloudflare-kv', '/kv'],
      ['durable-object', '/agent/bench'],
    ] as const) {
      // Each session holds discoveries first, so prepare reads a real record.
      for (let i = 0; i < 20; i++)
        await post(path, { sessionId: `b${i}`, call: { query: 'issue pull request', limit: 5 } });
      await new Promise((r) => setTimeout(r, 2500));
      const inWorker: number[] = [];
      const roundTrip: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const started = performance.now();
        const answer = await post(path, { sessionId: `b${i % 20}` });
        roundTrip.push(performance.now() - started);
        inWorker.push(answer.ms.prepare);
        if (answer.discovered.length === 0) throw new Error(`${label}: session b${i % 20} lost its discoveries`);
      }
      prepare[label] = {
        inWorkerP50: percentile(inWorker, 50),
        roundTripP50: Number(percentile(roundTrip, 50).toFixed(2)),
        roundTripP90: Number(percentile(roundTrip, 90).toFixed(2)),
      };
    }
    console.log(`prepare (GitHub MCP catalogue, 117 tools; ${rounds} rounds per store, Miniflare on this machine):`);
    console.table(prepare);

    const scenarios = [
      { label: 'same location (visible at once), 429s', visibility: 0, rateLimit: true, stagger: 1500 },
      { label: 'same location, no 429s', visibility: 0, rateLimit: false, stagger: 1500 },
      { label: 'visible after 500 ms', visibility: 500, rateLimit: true, stagger: 1500 },
      { label: 'visible after 1 s', visibility: 1000, rateLimit: true, stagger: 1500 },
      { label: 'visible after 1.5 s', visibility: 1500, rateLimit: true, stagger: 1500 },
      { label: 'visible after 2 s', visibility: 2000, rateLimit: true, stagger: 1500 },
      { label: 'visible after 2 s, no 429s', visibility: 2000, rateLimit: false, stagger: 1500 },
      { label: 'visible after 10 s (another location)', visibility: 10_000, rateLimit: true, stagger: 1500 },
    ];
    const raceRows: Record<string, { races: number; lost: number; lossRate: string; writes: number }> = {};
    for (const s of scenarios) {
      let lost = 0;
      let writes = 0;
      // Batches of 25, under the 1,000 operations a Worker invocation may make.
      for (let done = 0; done < races; done += 25) {
        const n = Math.min(25, races - done);
        const query = `visibility=${s.visibility}&rateLimit=${s.rateLimit ? 1 : 0}&stagger=${s.stagger}&n=${n}`;
        const answer = (await (await mf.dispatchFetch(`http://localhost/race?${query}`)).json()) as {
          lost: number;
          writes: number;
        };
        lost += answer.lost;
        writes += answer.writes;
      }
      raceRows[s.label] = { races, lost, lossRate: `${((100 * lost) / races).toFixed(0)}%`, writes };
      console.log(`  ${s.label}: ${lost} of ${races} races lost a discovery`);
    }
    console.log(
      `two racing KV writers, the second 0-${scenarios[0]?.stagger} ms (random) after the first (fault-injecting KV):`,
    );
    console.table(raceRows);

    const sizes = (await measureSize(join(root, 'package.json'))).filter((row) =>
      ['.', './cloudflare-kv', './durable-object'].includes(row.entry),
    );
    console.log('entry sizes (bundled with dependencies, minified, brotli):');
    console.table(Object.fromEntries(sizes.map((r) => [r.entry, { min: r.minBytes, brotli: r.brotliBytes }])));

    const out = join(root, 'bench/results/store-cloudflare.json');
    writeFileSync(
      out,
      `${JSON.stringify({ date: new Date().toISOString(), rounds, races, prepare, raceRows, sizes }, null, 2)}\n`,
    );
    console.log(`wrote ${out}`);
  } finally {
    await mf.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
