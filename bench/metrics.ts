// Retrieval metrics over one ranked list of names and the labelled relevant names.

/** Fraction of the relevant names found in the first k results. */
export function recallAt(k: number, ranked: readonly string[], relevant: readonly string[]): number {
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  let hits = 0;
  for (const name of relevant) if (top.has(name)) hits++;
  return hits / relevant.length;
}

/** Binary-relevance nDCG at k. */
export function ndcgAt(k: number, ranked: readonly string[], relevant: readonly string[]): number {
  const rel = new Set(relevant);
  let dcg = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) {
    if (rel.has(ranked[i] as string)) dcg += 1 / Math.log2(i + 2);
  }
  let ideal = 0;
  for (let i = 0; i < Math.min(k, rel.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Reciprocal rank of the first relevant result (0 when none is in the list). */
export function reciprocalRank(ranked: readonly string[], relevant: readonly string[]): number {
  const rel = new Set(relevant);
  for (let i = 0; i < ranked.length; i++) if (rel.has(ranked[i] as string)) return 1 / (i + 1);
  return 0;
}

export interface Scores {
  recall5: number;
  ndcg5: number;
  mrr: number;
  queries: number;
}

/** Averages the three metrics over every query, given a ranking function returning names best first. */
export async function score(
  queries: readonly { query: string; relevant: readonly string[] }[],
  rank: (query: string) => readonly string[] | Promise<readonly string[]>,
): Promise<Scores> {
  let r = 0;
  let n = 0;
  let m = 0;
  for (const q of queries) {
    const ranked = await rank(q.query);
    r += recallAt(5, ranked, q.relevant);
    n += ndcgAt(5, ranked, q.relevant);
    m += reciprocalRank(ranked, q.relevant);
  }
  const count = queries.length || 1;
  return { recall5: r / count, ndcg5: n / count, mrr: m / count, queries: queries.length };
}
