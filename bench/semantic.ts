// `npm run bench -- --embedder ./my-embedder.ts`: the ranker hook on the labelled sets, with and without it.
// The module exports `embed(texts, kind)` (the `semantic.embed` option) and may export `model`, `weight`,
// `minSimilarity`. Its vectors are cached per text as in the library, so a cold catalogue costs one pass.
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createToolSearch, type SemanticOptions } from 'tool-search-layer';
import type { BenchSet } from './data.ts';
import { type Scores, score } from './metrics.ts';
import { sampleEvenly } from './sample.ts';
import type { Table } from './table.ts';

export interface EmbedderModule {
  embed: SemanticOptions['embed'];
  model?: string;
  weight?: number;
  minSimilarity?: number;
}

export interface SemanticRow {
  set: string;
  queries: number;
  without: Scores;
  with: Scores;
  /** Calls of `embed` and texts embedded for this set (tools once, then each query). */
  calls: number;
  texts: number;
  seconds: number;
  /** Searches that fell back to the built-in ranking (a failing or slow embed). */
  fallbacks: number;
}

/** Imports an embedder module by path (relative to the working directory). */
export async function loadEmbedder(path: string): Promise<EmbedderModule> {
  const url = pathToFileURL(isAbsolute(path) ? path : resolve(process.cwd(), path)).href;
  const module = (await import(url)) as Partial<EmbedderModule> & { default?: Partial<EmbedderModule> };
  const found = typeof module.embed === 'function' ? module : module.default;
  if (!found || typeof found.embed !== 'function') throw new Error(`[bench] ${path} does not export an embed function`);
  return found as EmbedderModule;
}

/** Scores the layer with and without the hook on each set: recall@5, nDCG@5, MRR over the same queries. */
export async function measureSemantic(
  sets: readonly BenchSet[],
  embedder: EmbedderModule,
  options: { limit: number; maxQueries?: number },
): Promise<SemanticRow[]> {
  const rows: SemanticRow[] = [];
  for (const set of sets) {
    const queries = sampleEvenly(set.queries, options.maxQueries ?? set.queries.length);
    let calls = 0;
    let texts = 0;
    let fallbacks = 0;
    const embed: SemanticOptions['embed'] = (batch, kind) => {
      calls++;
      texts += batch.length;
      return embedder.embed(batch, kind);
    };
    const semantic: SemanticOptions = {
      embed,
      // A cold catalogue of thousands of tools takes a while; the benchmark measures quality, not the timeout.
      timeoutMs: 600_000,
      ...(embedder.model !== undefined && { model: embedder.model }),
      ...(embedder.weight !== undefined && { weight: embedder.weight }),
      ...(embedder.minSimilarity !== undefined && { minSimilarity: embedder.minSimilarity }),
    };
    const logger = { warn: () => void fallbacks++ };
    const plain = createToolSearch({ maxSearchResults: 0, logger });
    const fused = createToolSearch({ maxSearchResults: 0, logger, semantic });
    const context = { sessionId: 'bench', tools: set.tools };
    const ranker = (layer: typeof plain) => async (query: string) => {
      const result = (await layer.search(context, { query, limit: options.limit })) as { tools?: { name: string }[] };
      return result.tools?.map((t) => t.name) ?? [];
    };
    const without = await score(queries, ranker(plain));
    const start = performance.now();
    const withHook = await score(queries, ranker(fused));
    const seconds = (performance.now() - start) / 1000;
    rows.push({ set: set.name, queries: queries.length, without, with: withHook, calls, texts, seconds, fallbacks });
  }
  return rows;
}

const pct = (x: number): string => (100 * x).toFixed(1);
const delta = (a: number, b: number): string => `${b >= a ? '+' : ''}${(100 * (b - a)).toFixed(1)}`;

/** The comparison as one table. */
export function semanticTable(rows: readonly SemanticRow[], embedderPath: string): Table {
  return {
    title: 'The ranker hook: recall@5, nDCG@5 and MRR without and with the embedder (percent)',
    columns: [
      'set',
      'queries',
      'R@5',
      'R@5 hook',
      'Δ R@5',
      'nDCG@5',
      'nDCG@5 hook',
      'MRR',
      'MRR hook',
      'embed calls',
      's',
    ],
    rows: rows.map((r) => [
      r.set,
      String(r.queries),
      pct(r.without.recall5),
      pct(r.with.recall5),
      delta(r.without.recall5, r.with.recall5),
      pct(r.without.ndcg5),
      pct(r.with.ndcg5),
      pct(r.without.mrr),
      pct(r.with.mrr),
      `${r.calls} (${r.texts} texts)`,
      r.seconds.toFixed(1),
    ]),
    notes: [
      `embedder: ${embedderPath}; a tool lifted from 4.5 deviations over the query's mean similarity, joining from 5; weight and floor as the module sets them (defaults 2 and 0.5)`,
      ...rows
        .filter((r) => r.fallbacks > 0)
        .map((r) => `${r.set}: ${r.fallbacks} searches fell back to the built-in ranking`),
    ],
  };
}
