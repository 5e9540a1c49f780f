// The tool sets' lengths (src/learn/set-vote.ts `normOf`) kept from one load to the next: a length a search reuses
// must be what computing it afresh gives, bit for bit, whatever the loads changed (sessions added and taken out,
// terms a set begins or stops holding, sets appearing and going) and whatever the sets' judging did in between.
import { describe, expect, it } from 'vitest';
import type { SetProfiles } from '../../src/learn/set-profiles.ts';
import { bringPairs, nearestSets, setLength } from '../../src/learn/set-vote.ts';
import { createSetLoads } from './set-loads.ts';

/** Every length kept past its load is the one computed afresh; how many were kept. */
function checkKept(p: SetProfiles): number {
  let kept = 0;
  for (const set of p.byId) {
    if (!set || p.kept[set.id] !== 1) continue;
    kept++;
    expect(p.norms[set.id]).toBe(setLength(p, set.id));
  }
  return kept;
}

describe("the tool sets' lengths kept from load to load", () => {
  it('are those computed afresh, as pages fill, requests grow, pages go and sets are judged', () => {
    const { s, profiles: p, random, terms, step, judgeOne } = createSetLoads(11);
    // Searches that compute lengths: every set a query's terms find, as the vote does.
    const search = () => nearestSets(p, s, terms(4 + random(12)), 1000);
    let kept = 0;
    for (let i = 0; i < 600; i++) {
      if (step(i) === 'judge') {
        // A set judged: one of its sessions taken out while searches run, then put back.
        bringPairs(p, s);
        judgeOne(search);
      }
      bringPairs(p, s);
      kept += checkKept(p);
      search();
      checkKept(p);
    }
    // Most lengths were kept across loads, and each checked.
    expect(kept).toBeGreaterThan(2000);
  });
});
