// The first few of a stream in order, kept as it is read: a sort of every item would cost a large memory's first
// search more than the few it keeps.

/** Puts `next` into `best` (sorted by `compare`, at most `n` long) if it is among the first `n`: ties go after. */
export function keepFirst<T>(best: T[], next: T, n: number, compare: (a: T, b: T) => number): void {
  if (best.length === n && !(compare(next, best[n - 1] as T) < 0)) return;
  let i = best.length;
  while (i > 0 && compare(best[i - 1] as T, next) > 0) i--;
  best.splice(i, 0, next);
  if (best.length > n) best.pop();
}
