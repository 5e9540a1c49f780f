// Random loads of a memory's entries and their tool sets, seeded, for the tests of what follows the loads
// (set-pairs.test.ts, set-norms.test.ts): pages fill, requests grow (more terms, at times one more tool: another set),
// pages are read again, the oldest go, and sets are judged.
import {
  createEntries,
  extendPage,
  loadPage,
  type MemoryEntries,
  retainPages,
} from '../../src/learn/memory-entries.ts';
import type { Remembered } from '../../src/learn/memory-pages.ts';
import { createSetProfiles, profileHooks, type SetProfiles, withoutSession } from '../../src/learn/set-profiles.ts';
import { seededRandom } from '../core/seeded.ts';

export interface SetLoads {
  readonly s: MemoryEntries;
  readonly profiles: SetProfiles;
  /** A seeded number below n. */
  random(n: number): number;
  /** A request's hashed terms, sorted: a few common ones, most rarer. */
  terms(size: number): number[];
  /** Step `i`: a change loaded into the entries, or 'judge' (the caller brings the pairs up to date, then `judgeOne`). */
  step(i: number): 'loaded' | 'judge';
  /** Runs `judge` with one session of a random set taken out, as the sets' judging does. */
  judgeOne(judge: () => unknown): void;
}

/** Creates an empty memory with sets (`common` as createSetProfiles takes it), and its random loads from `seed`. */
export function createSetLoads(seed: number, common?: number): SetLoads {
  const random = seededRandom(seed);
  const terms = (size: number) =>
    [...new Set(Array.from({ length: size }, () => (random(3) === 0 ? random(6) : 6 + random(120))))].sort(
      (a, b) => a - b,
    );
  const s = createEntries();
  const profiles = createSetProfiles(common);
  s.hooks = profileHooks(profiles);
  const pages = new Map<number, Remembered[]>();
  return {
    s,
    profiles,
    random,
    terms,
    step(i) {
      const n = Math.floor(i / 50);
      const page = pages.get(n) ?? [];
      pages.set(n, page);
      const what = random(12);
      if (what < 7) {
        // A new request of one of a few sessions and tool sets, or a larger version of one held.
        const grows = page.length > 0 && random(3) === 0 ? (page[random(page.length)] as Remembered) : undefined;
        const added: Remembered = grows
          ? {
              ...grows,
              terms: [...new Set([...grows.terms, ...terms(2)])].sort((a, b) => a - b),
              tools: random(2) === 0 ? grows.tools : [...new Set([...grows.tools, `tool${random(5)}`])].sort(),
            }
          : { session: random(40), turn: i, terms: terms(2 + random(8)), tools: [`tool${random(5)}`] };
        page.push(added);
        extendPage(s, n, [added]);
      } else if (what < 9) loadPage(s, n, page);
      else if (what < 10 && pages.size > 3) {
        pages.delete(Math.min(...pages.keys()));
        retainPages(s, new Set(pages.keys()));
      } else if (what < 12) return 'judge';
      return 'loaded';
    },
    judgeOne(judge) {
      const set = profiles.byId.filter((x) => x !== undefined)[random(profiles.live)];
      const session = set ? [...set.members.keys()][random(set.members.size)] : undefined;
      if (set && session !== undefined) withoutSession(profiles, set, session, judge);
    },
  };
}
