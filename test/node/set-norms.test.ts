// The tool sets' lengths (src/learn/set-vote.ts `normOf`) kept from one load to the next: a length a search reuses
// must be what computing it afresh gives, bit for bit, whatever the loads changed (sessions added and taken out,
// terms a set begins or stops holding, sets appearing and going) and whatever the sets' judging did in between.
import { describe, expect, it } from 'vitest';
import {
  createEntries,
  extendPage,
  loadPage,
  type MemoryEntries,
  retainPages,
} from '../../src/learn/memory-entries.ts';
import type { Remembered } from '../../src/learn/memory-pages.ts';
import { createSetProfiles, profileHooks, type SetProfiles, withoutSession } from '../../src/learn/set-profiles.ts';
import { bringPairs, nearestSets } from '../../src/learn/set-vote.ts';

/** A set's length by the definition, its terms in the order the set holds them (as the vote sums them). */
function lengthOf(p: SetProfiles, id: number): number {
  const set = p.byId[id];
  if (!set) throw new Error(`no set ${id}`);
  const { cells, slot, term, count } = p.pairs;
  let sum = 0;
  for (const n of set.pairs.values()) {
    const held = cells[2 * (slot[n] as number) + 1] as number;
    if (held === 0) continue;
    sum += (Math.log(1 + p.live / (count[term[n] as number] as number)) * held) ** 2;
  }
  return Math.sqrt(sum) / (p.sizes[id] as number);
}

/** Every length kept past its load is the one computed afresh; how many were kept. */
function checkKept(p: SetProfiles): number {
  let kept = 0;
  for (const set of p.byId) {
    if (!set || p.kept[set.id] !== 1) continue;
    kept++;
    expect(p.norms[set.id]).toBe(lengthOf(p, set.id));
  }
  return kept;
}

describe("the tool sets' lengths kept from load to load", () => {
  it('are those computed afresh, as pages fill, requests grow, pages go and sets are judged', () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const terms = (size: number) =>
      [...new Set(Array.from({ length: size }, () => (random(3) === 0 ? random(6) : 6 + random(120))))].sort(
        (a, b) => a - b,
      );
    const s: MemoryEntries = createEntries();
    const p = createSetProfiles();
    s.hooks = profileHooks(p);
    const pages = new Map<number, Remembered[]>();
    // Searches that compute lengths: every set a query's terms find, as the vote does.
    const search = () => nearestSets(p, s, terms(4 + random(12)), 1000);
    let kept = 0;
    for (let step = 0; step < 600; step++) {
      const n = Math.floor(step / 50);
      const page = pages.get(n) ?? [];
      pages.set(n, page);
      const what = random(12);
      if (what < 7) {
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
        // A set judged: one of its sessions taken out while searches run, then put back.
        bringPairs(p, s);
        const set = p.byId.filter((x) => x !== undefined)[random(p.live)];
        const session = set ? [...set.members.keys()][random(set.members.size)] : undefined;
        if (set && session !== undefined) withoutSession(p, set, session, search);
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
