// Fast loop for the ranker hook, straight from the source: recall@5 without and with each embedder on every
// labelled set (default weight and floor unless the module sets them), and a fused query's time against a
// keyword-only one at 4,076 tools. Usage: npx tsx bench/semantic-only.ts [--sample N] [--rounds N] [--speed-only]
// [embedder paths...]
import type { Tool } from '../src/base/types.ts';
import { createToolSearch, type SemanticOptions } from '../src/index.ts';
import { labelledSets, loadSet } from './data.ts';
import { score } from './metrics.ts';
import { sampleEvenly } from './sample.ts';
import { loadEmbedder } from './semantic.ts';
import { measureFusedSpeed } from './semantic-speed.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--sample');
const sample = at >= 0 ? Number(args[at + 1]) : 0;
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 9;
const speedOnly = args.includes('--speed-only');
const paths = args.filter((a, i) => !a.startsWith('--') && i !== at + 1 && i !== roundsAt + 1);
const embedders = paths.length ? paths : ['./bench/embedders/hashed.ts', './bench/embedders/random.ts'];
const pct = (x: number): string => (100 * x).toFixed(1);

for (const path of embedders) {
  const m = await loadEmbedder(path);
  const semantic: SemanticOptions = {
    embed: m.embed,
    timeoutMs: 600_000,
    ...(m.model !== undefined && { model: m.model }),
    ...(m.weight !== undefined && { weight: m.weight }),
    ...(m.minSimilarity !== undefined && { minSimilarity: m.minSimilarity }),
  };
  const plain = createToolSearch({ maxSearchResults: 0 });
  const fused = createToolSearch({ maxSearchResults: 0, semantic });
  const ranker = (layer: typeof plain, tools: Tool[]) => async (query: string) => {
    const result = (await layer.search({ sessionId: 'b', tools }, { query, limit: 5 })) as {
      tools?: { name: string }[];
    };
    return result.tools?.map((t) => t.name) ?? [];
  };
  const deltas: number[] = [];
  for (const name of speedOnly ? [] : labelledSets) {
    const set = loadSet(name);
    const tools = set.tools as unknown as Tool[];
    const queries = sample > 0 ? sampleEvenly(set.queries, sample) : set.queries;
    const without = await score(queries, ranker(plain, tools));
    const withHook = await score(queries, ranker(fused, tools));
    const delta = withHook.recall5 - without.recall5;
    deltas.push(delta);
    console.log(
      `${path.padEnd(30)} ${name.padEnd(17)} R@5 ${pct(without.recall5)} -> ${pct(withHook.recall5)} (${delta >= 0 ? '+' : ''}${pct(delta)})`,
    );
  }
  if (deltas.length > 0)
    console.log(
      `${path}: worst ${pct(Math.min(...deltas))}, mean ${pct(deltas.reduce((a, b) => a + b, 0) / deltas.length)}`,
    );
  const speed = await measureFusedSpeed(createToolSearch, semantic, rounds);
  console.log(
    `${path}: query p50 at 4,076 tools ${speed.keywordMs.toFixed(3)} ms keywords only, ${speed.fusedMs.toFixed(3)} ms fused (${speed.ratio.toFixed(2)}×, median of ${rounds} interleaved rounds)`,
  );
}
