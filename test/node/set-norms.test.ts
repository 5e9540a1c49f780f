// The tool sets' lengths (src/learn/set-vote.ts `normOf`) kept from one load to the next: a length a search reuses
// must be what computing it afresh gives, bit for bit, whatever the loads changed (sessions added and taken out,
// terms a set begins or stops holding, sets appearing and going) and whatever the sets' judging did in between; a
// length kept only as bounds (once the sets in use or a term's sets changed) must lie within them; and the nearest
// sets a search finds must be those it would find with every length computed afresh.
import { describe, expect, it } from 'vitest';
import type { MemoryEntries } from '../../src/learn/memory-entries.ts';
import { bringPairs, lengthBounds, lengthStands, setLength } from '../../src/learn/set-lengths.ts';
import { COMMON, type SetProfiles } from '../../src/learn/set-profiles.ts';
import { nearestSets } from '../../src/learn/set-vote.ts';
import { createSetLoads } from './set-loads.ts';

/**
 * Every length kept past its load is the one computed afresh, or within its bounds; how many of each. (And a set no
 * session uses any more is gone.)
 */
function checkKept(p: SetProfiles): { exact: number; bounded: number } {
  const out = { exact: 0, bounded: 0 };
  for (const set of p.byId) {
    if (set) expect(set.members.size).toBeGreaterThan(0);
    if (!set || p.kept[set.id] === 0) continue;
    const fresh = setLength(p, set.id);
    if (lengthStands(p, set.id)) {
      out.exact++;
      expect(p.norms[set.id]).toBe(fresh);
    } else {
      out.bounded++;
      const bounds = new Float64Array(2);
      lengthBounds(p, set.id, bounds);
      expect(fresh).toBeGreaterThanOrEqual(bounds[0] as number);
      expect(fresh).toBeLessThanOrEqual(bounds[1] as number);
    }
  }
  return out;
}

const lengthArrays = ['norms', 'normsAt', 'kept', 'normsLive', 'sumLow', 'sumHigh', 'slackAt'] as const;

/**
 * The `many` nearest sets as found, and as found with every length computed afresh (the lengths kept then put back;
 * those computed while a set was judged stand for their load in both, as the vote's do).
 */
function nearestBoth(p: SetProfiles, s: MemoryEntries, terms: number[], many: number): string[][] {
  const found = nearestSets(p, s, terms, many).map(({ set, cos }) => `${set.key} ${cos}`);
  const saved = lengthArrays.map((key) => p[key].slice());
  p.kept.fill(0);
  p.normsAt.fill(-1);
  const afresh = nearestSets(p, s, terms, many).map(({ set, cos }) => `${set.key} ${cos}`);
  for (const [i, key] of lengthArrays.entries()) p[key].set(saved[i] as never);
  return [found, afresh];
}

describe("the tool sets' lengths kept from load to load", () => {
  // Common terms' moves as the library bounds them (none here is that common), and as if most terms were common.
  it.each([COMMON, 3])(
    'are those computed afresh or bound them, as pages fill, requests grow, pages go and sets are judged (common %i)',
    (common) => {
      const { s, profiles: p, random, terms, step, judgeOne } = createSetLoads(11, common);
      // Searches that compute lengths: every set a query's terms find, as the vote does.
      const search = () => nearestSets(p, s, terms(4 + random(12)), 1000);
      const kept = { exact: 0, bounded: 0 };
      let bounded = 0;
      for (let i = 0; i < 600; i++) {
        if (step(i) === 'judge') {
          // A set judged: one of its sessions taken out while searches run, then put back.
          bringPairs(p, s);
          judgeOne(search);
        }
        bringPairs(p, s);
        const now = checkKept(p);
        kept.exact += now.exact;
        kept.bounded += now.bounded;
        // The few nearest, where bounds leave most lengths uncomputed, and all of them.
        for (const many of [1, 3, 1000]) {
          const [found, afresh] = nearestBoth(p, s, terms(4 + random(12)), many);
          expect(found).toEqual(afresh);
        }
        bounded += checkKept(p).bounded;
        search();
        checkKept(p);
      }
      // Most lengths were kept across loads, exact or bounded, and each checked; and some bounded after a search too.
      expect(kept.exact).toBeGreaterThan(1500);
      expect(kept.bounded).toBeGreaterThan(500);
      expect(bounded).toBeGreaterThan(20);
    },
  );
});
