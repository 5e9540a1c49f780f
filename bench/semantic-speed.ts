// The fused query's time against the keyword-only one at 4,076 tools (seal-tools), shared by `npm run bench` and
// bench/semantic-only.ts. The embedder's own time is left out: its vectors are asked for once, before the rounds,
// and the layer's cache answers every later search, so what is measured is the layer's work (the similarities,
// the floor search, the fusion).
import type { createToolSearch as create, SemanticOptions, Tool } from 'tool-search-layer';
import { loadSet } from './data.ts';
import { sampleEvenly } from './sample.ts';
import { median } from './stats.ts';

/** Medians of the keyword-only and fused rounds, and the median of the rounds' ratios. */
export interface FusedSpeed {
  keywordMs: number;
  fusedMs: number;
  ratio: number;
  rounds: number;
}

/** Keyword and fused rounds interleaved, each the median of its 300 queries, so a loaded machine slows both alike. */
export async function measureFusedSpeed(
  createToolSearch: typeof create,
  semantic: SemanticOptions,
  rounds: number,
): Promise<FusedSpeed> {
  const seal = loadSet('seal-tools');
  const tools = seal.tools as unknown as Tool[];
  const queries = sampleEvenly(seal.queries, 300).map((q) => q.query);
  const plain = createToolSearch({ maxSearchResults: 0 });
  const fused = createToolSearch({ maxSearchResults: 0, semantic: { timeoutMs: 600_000, ...semantic } });
  const round = async (layer: typeof plain): Promise<number> => {
    const times: number[] = [];
    for (const query of queries) {
      const t0 = performance.now();
      await layer.search({ sessionId: 't', tools }, { query, limit: 5 });
      times.push(performance.now() - t0);
    }
    return median(times);
  };
  for (const layer of [plain, fused]) await round(layer);
  const keyword: number[] = [];
  const hooked: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    keyword.push(await round(plain));
    hooked.push(await round(fused));
    ratios.push((hooked[r] as number) / (keyword[r] as number));
  }
  return { keywordMs: median(keyword), fusedMs: median(hooked), ratio: median(ratios), rounds };
}
