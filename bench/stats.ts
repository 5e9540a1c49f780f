// Summaries of timings: medians and tails, since single runs on a shared machine are noise.

/** The q-quantile (0..1) of the values, nearest rank; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** Milliseconds one call takes, awaited. */
export async function timeMs(run: () => unknown): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}
