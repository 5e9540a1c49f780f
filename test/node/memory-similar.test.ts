// The memory's similarity (src/learn/memory-similar.ts) keeps what it computed between searches (the requests' length
// factors by length, the plans of queries asked again): a similarity searched load after load must score as one made
// afresh for each search, bit for bit, as the loads move the mean length and the terms' counts.
import { describe, expect, it } from 'vitest';
import { createEntries, extendPage, loadPage } from '../../src/learn/memory-entries.ts';
import type { Remembered } from '../../src/learn/memory-pages.ts';
import { createSimilar } from '../../src/learn/memory-similar.ts';
import { seededRandom } from '../core/seeded.ts';

describe("the memory's similarity searched load after load", () => {
  it('scores as a similarity made afresh for each search', () => {
    const random = seededRandom(7);
    const terms = (size: number) =>
      [...new Set(Array.from({ length: size }, () => (random(4) === 0 ? random(8) : 8 + random(300))))].sort(
        (a, b) => a - b,
      );
    const s = createEntries();
    const kept = createSimilar(s);
    const page: Remembered[] = [];
    // A few queries asked again and again (a kept plan), and a new one each step.
    const asked = Array.from({ length: 4 }, () => terms(3 + random(20)));
    let compared = 0;
    for (let step = 0; step < 300; step++) {
      // Requests of growing length, so that the mean length moves with most loads.
      const added: Remembered = { session: step, turn: 0, terms: terms(1 + random(4 + step / 10)), tools: ['t'] };
      page.push(added);
      if (random(5) === 0) loadPage(s, 0, page);
      else extendPage(s, 0, [added]);
      for (const query of [asked[random(asked.length)] as number[], terms(3 + random(20))]) {
        const a = kept(query, undefined);
        const got = { count: a.count, nearest: a.nearest, found: [...a.found.subarray(0, a.count)] };
        const sims = [...a.sims.subarray(0, a.count)];
        const b = createSimilar(s)(query, undefined);
        expect(got).toEqual({ count: b.count, nearest: b.nearest, found: [...b.found.subarray(0, b.count)] });
        expect(sims).toEqual([...b.sims.subarray(0, b.count)]);
        compared += a.count;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
