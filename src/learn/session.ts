// One session's part in learning: what its history credits, measured against what it already gave, so a
// history replayed every round credits nothing twice and a session moves each (tool, term) by at most 1.
import type { DiscoveredRecord } from '../core/discovered.ts';
import { RECORD_VERSION } from '../core/discovered.ts';
import type { LearnUnit } from './signal.ts';
import type { CreditDelta } from './table.ts';

/** Most (tool, term) pairs and terms one session may credit: past it, the session adds nothing new. */
export const MAX_SESSION_PAIRS = 256;

const pairKey = (tool: string, term: string) => `${tool}\n${term}`;
const termKey = (term: string) => `\n${term}`;

/** Per (tool, term) key: the largest share of one search the session's history gives the tool. */
export type Desired = Map<string, { readonly tool: string; readonly term: string; readonly share: number }>;

/** What the session's units ask for: per (tool, term), the largest share one search gave the tool. */
export function desiredCredit(units: readonly LearnUnit[], termsOf: (query: string) => readonly string[]): Desired {
  const desired: Desired = new Map();
  for (const unit of units) {
    const share = Math.round(1000 / unit.tools.length) / 1000;
    for (const term of new Set(termsOf(unit.query))) {
      for (const tool of unit.tools) {
        const key = pairKey(tool, term);
        const was = desired.get(key);
        if (!was || was.share < share) desired.set(key, { tool, term, share });
      }
    }
  }
  return desired;
}

/** A session record's learned part, or nothing for a missing or malformed one. */
function learnedOf(record: DiscoveredRecord | undefined): Readonly<Record<string, number>> {
  const learned = record?.learned;
  return typeof learned === 'object' && learned !== null && !Array.isArray(learned) ? learned : {};
}

/**
 * Compares the desired credit with what the record says the session gave: the record with the new amounts, and
 * the delta for the scope's table (empty when nothing changed; the record is then `record` itself).
 */
export function sessionDelta(
  record: DiscoveredRecord | undefined,
  desired: Desired,
): { record: DiscoveredRecord | undefined; delta: CreditDelta | undefined } {
  const given = learnedOf(record);
  let next: Record<string, number> | undefined;
  let size = -1;
  const credit = new Map<string, Map<string, number>>();
  const newPairs = new Map<string, Set<string>>();
  const newTerms = new Set<string>();
  for (const [key, { tool, term, share }] of desired) {
    const had = given[key];
    if (had === share) continue;
    if (!next) {
      next = { ...given };
      size = Object.keys(next).length;
    }
    if (typeof had !== 'number') {
      const term1 = given[termKey(term)] === undefined && !newTerms.has(term);
      if (size + (term1 ? 2 : 1) > MAX_SESSION_PAIRS) continue;
      size += term1 ? 2 : 1;
      if (term1) {
        newTerms.add(term);
        next[termKey(term)] = 1;
      }
      (newPairs.get(tool) ?? newPairs.set(tool, new Set()).get(tool))?.add(term);
    }
    next[key] = share;
    const terms = credit.get(tool) ?? new Map<string, number>();
    credit.set(tool, terms.set(term, share - (typeof had === 'number' ? had : 0)));
  }
  if (credit.size === 0 || !next) return { record, delta: undefined };
  const base = record ?? { v: RECORD_VERSION, order: [], recent: [] };
  return { record: { ...base, learned: next }, delta: { credit, newPairs, newTerms } };
}
