// The sessions a learner remembers having credited: what each one's history taught when last read, so a round that
// re-sends it has nothing new to give, and the requests made of its turns, so a long session's finished turns are
// not made again. The record in the store stays what decides what a session gave: this only spares reading again
// a history whose credit is already in it.
import type { MadeRequest } from './session.ts';
import type { LearnUnit } from './signal.ts';

/** What a session's history taught when last read, as its units, and the requests made of its turns. */
export interface Credited {
  readonly units: readonly LearnUnit[];
  readonly made: Map<number, MadeRequest>;
}

/** The sessions credited lately, oldest forgotten first. */
export interface CreditedSessions {
  get(key: string): Credited | undefined;
  remember(key: string, credited: Credited): void;
  clear(): void;
}

/** Sessions remembered at most. */
export const SESSIONS_KEPT = 1000;

/**
 * Units (searches) remembered at most over all sessions: a Worker's isolate keeps its storage's sessions between
 * requests, and 1,000 long sessions' histories (a 200-round one holds 200 units, about 50 KB) would hold 50 MB.
 * About 7 MB at this bound.
 */
export const UNITS_KEPT = 32_768;

/** Creates a memory of credited sessions bounded by SESSIONS_KEPT sessions and UNITS_KEPT units. */
export function createCreditedSessions(
  maxSessions: number = SESSIONS_KEPT,
  maxUnits: number = UNITS_KEPT,
): CreditedSessions {
  const sessions = new Map<string, Credited>();
  let units = 0;
  return {
    get: (key) => sessions.get(key),
    remember(key, credited) {
      const was = sessions.get(key);
      if (was) {
        units -= was.units.length;
        sessions.delete(key);
      }
      sessions.set(key, credited);
      units += credited.units.length;
      // The oldest go first; the one just remembered stays, however long.
      for (const [oldest, { units: held }] of sessions) {
        if (oldest === key || (sessions.size <= maxSessions && units <= maxUnits)) break;
        sessions.delete(oldest);
        units -= held.length;
      }
    },
    clear() {
      sessions.clear();
      units = 0;
    },
  };
}

/** Per storage identity, the sessions its learners credited: a Worker builds a learner per request. */
const byStorage = /* @__PURE__ */ new WeakMap<object, CreditedSessions>();

/** The credited sessions the learners of `identity`'s storage share, or a new learner's own. */
export function creditedFor(identity: object | undefined): CreditedSessions {
  if (!identity) return createCreditedSessions();
  const sessions = byStorage.get(identity) ?? createCreditedSessions();
  byStorage.set(identity, sessions);
  return sessions;
}
