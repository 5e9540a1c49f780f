// The charts across rounds, drawn by uPlot (about 50 KB minified, no dependencies): a canvas for the eye, and the
// same numbers as a table behind a disclosure for screen readers and for the test that checks them against the
// library's own counts.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { h } from './view.ts';

/** One line of a chart: its label, colour and one value per round (null: not known yet). */
export interface Line {
  readonly key: string;
  readonly label: string;
  readonly color: string;
  readonly dash?: number[];
  readonly values: readonly (number | null)[];
}

/** A chart's content: the rounds on the x axis and the lines over them. */
export interface ChartData {
  readonly rounds: readonly number[];
  readonly lines: readonly Line[];
  readonly unit: string;
}

const plots = new WeakMap<HTMLElement, { plot: uPlot; keys: string }>();
const format = (value: number | null | undefined): string =>
  value === null || value === undefined ? '…' : Math.round(value).toLocaleString('en-US');

/** The uPlot options for these lines at this width. */
function options(data: ChartData, width: number): uPlot.Options {
  return {
    width,
    height: Math.max(180, Math.min(280, Math.round(width * 0.45))),
    scales: { x: { time: false } },
    legend: { live: false },
    cursor: { show: false },
    axes: [
      { label: 'round', stroke: '#333', grid: { stroke: '#e4e4e4' }, incrs: [1, 2, 5, 10, 20, 50] },
      {
        label: data.unit,
        stroke: '#333',
        grid: { stroke: '#e4e4e4' },
        size: 60,
        values: (_, ticks) => ticks.map(compact),
      },
    ],
    series: [
      {},
      ...data.lines.map((line) => ({
        label: line.label,
        stroke: line.color,
        width: 2,
        ...(line.dash && { dash: line.dash }),
        points: { show: true, size: 6, fill: line.color },
      })),
    ],
  };
}

const compact = (value: number): string =>
  value >= 10_000 ? `${Math.round(value / 1000)}k` : value >= 1000 ? `${(value / 1000).toFixed(1)}k` : String(value);

/** Draws (or redraws) a chart into `box`, and writes its numbers into `table`. */
export function drawChart(box: HTMLElement, table: HTMLTableElement, data: ChartData): void {
  const width = Math.max(260, box.clientWidth);
  const aligned = [data.rounds, ...data.lines.map((line) => line.values)] as uPlot.AlignedData;
  const keys = data.lines.map((line) => line.key).join();
  const existing = plots.get(box);
  if (existing && existing.keys === keys) {
    existing.plot.setData(aligned);
    if (existing.plot.width !== width) existing.plot.setSize({ width, height: existing.plot.height });
  } else {
    existing?.plot.destroy();
    const plot = new uPlot(options(data, width), aligned, box);
    plots.set(box, { plot, keys });
  }
  fillTable(table, data);
}

/** The chart's numbers: a row per round (so a long session grows downwards, never sideways), a column per line. */
function fillTable(table: HTMLTableElement, data: ChartData): void {
  table.replaceChildren(
    h('caption', {}, data.unit),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'round'),
        ...data.lines.map((line) => h('th', { scope: 'col' }, line.label)),
      ),
    ),
    h(
      'tbody',
      {},
      ...data.rounds.map((round, i) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, String(round)),
          ...data.lines.map((line) => {
            const value = line.values[i] ?? null;
            return h('td', { 'data-key': line.key, 'data-value': value === null ? '' : String(value) }, format(value));
          }),
        ),
      ),
    ),
  );
}

/** Keeps a chart as wide as its box when the window changes. */
export function resizeWith(box: HTMLElement): void {
  new ResizeObserver(() => {
    const entry = plots.get(box);
    const width = Math.max(260, box.clientWidth);
    if (entry && entry.plot.width !== width) entry.plot.setSize({ width, height: entry.plot.height });
  }).observe(box);
}
