// Deterministic samples, so two runs (and two peers) see the same queries.

/** At most n items spread evenly over the list (every k-th), in list order; all of them when n covers the list. */
export function sampleEvenly<T>(items: readonly T[], n: number): T[] {
  if (n >= items.length) return [...items];
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)] as T);
}

/** Round-robin over several lists: a mix of every set's queries that no single set dominates. */
export function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const l of lists) if (i < l.length) out.push(l[i] as T);
  return out;
}
