// The tool sets' pairs as a search reads them (src/learn/set-pairs.ts): followed from what each load changed, every
// term's region must hold the sets that hold the term, in the order they began to be held, as laying them out afresh
// would, whatever the loads and the sets' judging did.
import { describe, expect, it } from 'vitest';
import { buildPairs, type SetPairs } from '../../src/learn/set-pairs.ts';
import { createSetLoads } from './set-loads.ts';

/** Per term number, its sets' ids and sessions as the regions hold them. */
function regions(p: SetPairs): string[] {
  const out: string[] = [];
  for (let t = 0; t < p.begin.length; t++) {
    const pairs: string[] = [];
    for (let i = p.begin[t] as number; i < (p.end[t] as number); i++) {
      // Each slot names its pair, and the pair its slot.
      expect(p.slot[p.pairAt[i] as number]).toBe(i);
      pairs.push(`${p.cells[2 * i]}x${p.cells[2 * i + 1]}`);
    }
    expect(p.count[t] ?? 0).toBe(pairs.length);
    if (pairs.length > 0) out[t] = pairs.join(' ');
  }
  return out;
}

/** The same, by the definition: the held pairs in the order they began to be held, by term. */
function expected(p: SetPairs): string[] {
  const byTerm: string[][] = [];
  for (const [i, n] of p.events.entries()) {
    if (p.seq[n] !== i || (p.held[n] as number) === 0) continue;
    const t = p.term[n] as number;
    byTerm[t] ??= [];
    byTerm[t].push(`${p.set[n]}x${p.held[n]}`);
  }
  return byTerm.map((pairs) => pairs.join(' '));
}

describe("the tool sets' pairs followed load by load", () => {
  it('hold the sets of each term in the order they began, as pages fill, requests grow, pages go and sets are judged', () => {
    const { s, profiles, step, judgeOne } = createSetLoads(3);
    let followed = 0;
    for (let i = 0; i < 500; i++) {
      if (step(i) === 'judge') {
        // A set judged: one of its sessions taken out and put back (a term only it held goes to its term's end).
        buildPairs(profiles.pairs, s);
        judgeOne(() => undefined);
        expect(regions(profiles.pairs)).toEqual(expected(profiles.pairs));
        continue;
      }
      // Laid out afresh, the pairs are in a new list of events; followed, in the same.
      const { events } = profiles.pairs;
      buildPairs(profiles.pairs, s);
      if (profiles.pairs.events === events) followed++;
      expect(regions(profiles.pairs)).toEqual(expected(profiles.pairs));
    }
    expect(followed).toBeGreaterThan(250);
  });
});
