// The tool sets' pairs as a search reads them (src/learn/set-pairs.ts): followed from what each load changed, every
// term's region must hold the sets that hold the term, in the order they began to be held, as laying them out afresh
// would, whatever the loads and the sets' judging did.
import { describe, expect, it } from 'vitest';
import { createEntries, extendPage, loadPage, retainPages } from '../../src/learn/memory-entries.ts';
import type { Remembered } from '../../src/learn/memory-pages.ts';
import { buildPairs, type SetPairs } from '../../src/learn/set-pairs.ts';
import { createSetProfiles, profileHooks, withoutSession } from '../../src/learn/set-profiles.ts';

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
    let seed = 3;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const terms = (size: number) =>
      [...new Set(Array.from({ length: size }, () => (random(3) === 0 ? random(6) : 6 + random(120))))].sort(
        (a, b) => a - b,
      );
    const s = createEntries();
    const profiles = createSetProfiles();
    s.hooks = profileHooks(profiles);
    const pages = new Map<number, Remembered[]>();
    let followed = 0;
    for (let step = 0; step < 500; step++) {
      const n = Math.floor(step / 50);
      const page = pages.get(n) ?? [];
      pages.set(n, page);
      const what = random(12);
      if (what < 7) {
        // A new request of one of a few sessions and tool sets, or a larger version of one held (more terms, and at
        // times one more tool: another set).
        const grows = page.length > 0 && random(3) === 0 ? (page[random(page.length)] as Remembered) : undefined;
        const added: Remembered = grows
          ? {
              ...grows,
              terms: [...new Set([...grows.terms, ...terms(2)])].sort((a, b) => a - b),
              tools: random(2) === 0 ? grows.tools : [...new Set([...grows.tools, `tool${random(5)}`])].sort(),
            }
          : { session: random(40), turn: step, terms: terms(2 + random(8)), tools: [`tool${random(5)}`] };
        page.push(added);
        extendPage(s, n, [added]);
      } else if (what < 9) loadPage(s, n, page);
      else if (what < 10 && pages.size > 3) {
        pages.delete(Math.min(...pages.keys()));
        retainPages(s, new Set(pages.keys()));
      } else if (what < 12) {
        // A set judged: one of its sessions taken out and put back (a term only it held goes to its term's end).
        buildPairs(profiles.pairs, s);
        const set = profiles.byId.filter((x) => x !== undefined)[random(profiles.live)];
        const session = set ? [...set.members.keys()][random(set.members.size)] : undefined;
        if (set && session !== undefined) withoutSession(profiles, set, session, () => undefined);
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
