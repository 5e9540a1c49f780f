// The memory's postings as a search reads them (src/learn/memory-layout.ts): followed from the loads' additions and
// kills, they must hold what laying them out afresh gives, term by term, whatever the loads did.
import { describe, expect, it } from 'vitest';
import {
  createEntries,
  extendPage,
  loadPage,
  type MemoryEntries,
  retainPages,
  termNumber,
} from '../../src/learn/memory-entries.ts';
import { createLayout, type Layout, layOut, lengthFactor } from '../../src/learn/memory-layout.ts';
import type { Remembered } from '../../src/learn/memory-pages.ts';
import { seededRandom } from '../core/seeded.ts';

/** Each term's ids as a layout holds them, by hashed term, and the factors of the live entries. */
function held(l: Layout, s: MemoryEntries): { terms: Map<number, number[]>; factors: number[] } {
  const terms = new Map<number, number[]>();
  for (const [hash, t] of s.terms) {
    const ids = t < l.room.length ? [...l.ids.subarray(l.bounds[2 * t], l.bounds[2 * t + 1])] : [];
    if (ids.length > 0) terms.set(hash, ids);
  }
  const factors = s.entries.flatMap((entry, id) => (entry ? [lengthFactor(l, s.lengths[id] as number)] : []));
  return { terms, factors };
}

describe("the memory's postings followed load by load", () => {
  it('hold what laying them out afresh holds, as pages fill, requests grow, pages go and ids are compacted', () => {
    const random = seededRandom(5);
    const request = (session: number, turn: number, size: number): Remembered => ({
      session,
      turn,
      // Sorted and distinct, as the library writes them; a few common, most rare.
      terms: [...new Set(Array.from({ length: size }, () => (random(4) === 0 ? random(8) : 8 + random(400))))].sort(
        (a, b) => a - b,
      ),
      tools: [`tool${random(6)}`],
    });
    const s = createEntries();
    let followed = createLayout();
    const pages = new Map<number, Remembered[]>();
    let moved = 0;
    for (let step = 0; step < 400; step++) {
      const n = Math.floor(step / 40);
      const page = pages.get(n) ?? [];
      pages.set(n, page);
      const what = random(10);
      if (what < 6) {
        // Appended: a new request, or a larger version of one already held (a request that grew, killing the other).
        const grows = page.length > 0 && random(3) === 0 ? (page[random(page.length)] as Remembered) : undefined;
        const added = grows
          ? { ...request(grows.session, grows.turn, 0), terms: [...grows.terms, 500 + step], tools: grows.tools }
          : request(step, 0, 2 + random(10));
        page.push(added);
        extendPage(s, n, [added]);
      } else if (what < 8) loadPage(s, n, page);
      else if (what < 9 && pages.size > 3) {
        // The oldest page goes.
        pages.delete(Math.min(...pages.keys()));
        retainPages(s, new Set(pages.keys()));
      } else continue;
      // The table a search looks its terms up in numbers them as the map does, and knows no other.
      for (const [hash, t] of s.terms) expect(termNumber(s.termTable, hash)).toBe(t);
      expect(termNumber(s.termTable, 1000 + step)).toBe(-1);
      const live = s.entries.length - s.dead;
      if (live === 0) continue;
      const before = followed;
      followed = layOut(followed, s, live);
      if (followed === before) moved++;
      expect(held(followed, s)).toEqual(held(layOut(createLayout(), s, live), s));
      // A term's region holds as many ids as the entries count live requests holding it (the search reads one for the
      // other).
      for (const t of s.terms.values()) {
        const laid =
          t < followed.room.length ? (followed.bounds[2 * t + 1] as number) - (followed.bounds[2 * t] as number) : 0;
        expect(laid).toBe(s.df[t]);
      }
    }
    // Most loads were followed, not laid out afresh.
    expect(moved).toBeGreaterThan(200);
  });
});
