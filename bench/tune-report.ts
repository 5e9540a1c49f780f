// The leave-one-set-out table of the last `npm run bench:tune` (bench/results/tune.json) beside this run's
// in-sample figures, so that `npm run bench` never shows a fitted ranking without its held-out estimate.
import { existsSync, readFileSync } from 'node:fs';
import type { QualityRow } from './quality.ts';
import type { Table } from './table.ts';

/** What bench/tune.ts writes. */
export interface TuneResult {
  date: string;
  cap: number;
  /** The fitting procedure shown, and whether it passed the keep rule (if not, nothing new ships). */
  procedure?: string;
  kept?: boolean;
  stage: { paramText: number; coord: number };
  weights: number[];
  rows: { set: string; queries: number; bm25: number; shipped: number; inSample: number; heldOut: number }[];
}

/** The last tuning run's results, if there is one. */
export function readTuning(path: string): TuneResult | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as TuneResult) : undefined;
}

const pct = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? 'n/a' : (100 * x).toFixed(1));

/** One row per set: this run's recall@5 (ours and tuned BM25), then the tuning run's in-sample and held-out ones. */
export function tuningTable(tune: TuneResult, quality: readonly QualityRow[], ours: string, bm25: string): Table {
  const find = (set: string, peer: string) => quality.find((r) => r.set === set && r.peer === peer)?.recall5;
  const mean = (xs: (number | undefined)[]): number | undefined =>
    xs.every((x) => x !== undefined) ? xs.reduce((a: number, b) => a + (b as number), 0) / xs.length : undefined;
  const sets = tune.rows.map((r) => r.set);
  return {
    title: 'Leave-one-set-out: recall@5 fitted on all eight sets (in-sample) and on the seven others (held-out)',
    columns: ['set', 'ours (this run)', 'tuned BM25 (this run)', 'in-sample', 'held-out', 'held-out − BM25', 'queries'],
    rows: [
      ...tune.rows.map((r) => [
        r.set,
        pct(find(r.set, ours)),
        pct(find(r.set, bm25)),
        pct(r.inSample),
        pct(r.heldOut),
        pct(r.heldOut - r.bm25),
        String(r.queries),
      ]),
      [
        'mean of the sets',
        pct(mean(sets.map((s) => find(s, ours)))),
        pct(mean(sets.map((s) => find(s, bm25)))),
        pct(mean(tune.rows.map((r) => r.inSample))),
        pct(mean(tune.rows.map((r) => r.heldOut))),
        pct(mean(tune.rows.map((r) => r.heldOut - r.bm25))),
        '',
      ],
    ],
    notes: [
      `In-sample and held-out come from \`npm run bench:tune\` of ${tune.date.slice(0, 10)} (bench/TUNING.md; at most ${tune.cap} queries per set, its own tuned-BM25 figures on the same queries); the first two columns from this run, on every query.`,
      `Procedure: ${tune.procedure ?? 'first-stage constants and second stage'}, ${tune.kept ? 'kept (its fit on all eight ships)' : 'not kept by the keep rule (the shipped constants stay; the in-sample column is what the fit would ship)'}: parameter-text weight ${tune.stage.paramText}, coverage exponent ${tune.stage.coord}, second-stage weights ${JSON.stringify(tune.weights)}.`,
    ],
  };
}
