// One session's part in learning: what its history credits, measured against what it already gave, so a
// history replayed every round credits nothing twice and a session moves each tool by at most one search's worth.
import type { DiscoveredRecord } from '../core/discovered.ts';
import { RECORD_VERSION } from '../core/discovered.ts';
import type { LearnUnit } from './signal.ts';
import type { CreditDelta } from './table.ts';

/** Most (tool, term) pairs and terms one session may credit: past it, the session adds nothing new. */
export const MAX_SESSION_PAIRS = 256;

const pairKey = (tool: string, term: string) => `${tool}\n${term}`;
const termKey = (term: string) => `\n${term}`;

/** Per (tool, term) key: the share of the session's credit for the tool that goes to the term. */
export type Desired = Map<string, { readonly tool: string; readonly term: string; readonly share: number }>;

const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * What the session's units ask for. One search gives each tool it led to 1 / (tools it led to), on each of its
 * terms; a tool that several searches led to has that divided by their number. So a session moves a tool by at
 * most one search's worth whatever it does: a loop of searches that each end in the same tool spreads one credit
 * over all its words instead of giving each word a whole one. The shares depend on the whole history only, so the
 * same history read once or at every prefix settles on the same credit.
 */
export function desiredCredit(units: readonly LearnUnit[], termsOf: (query: string) => readonly string[]): Desired {
  const searches = new Map<string, number>();
  for (const unit of units) for (const tool of unit.tools) searches.set(tool, (searches.get(tool) ?? 0) + 1);
  const sums = new Map<string, { tool: string; term: string; share: number }>();
  for (const unit of units) {
    const part = 1 / unit.tools.length;
    for (const term of new Set(termsOf(unit.query))) {
      for (const tool of unit.tools) {
        const key = pairKey(tool, term);
        const add = part / (searches.get(tool) as number);
        const was = sums.get(key);
        if (was) was.share += add;
        else sums.set(key, { tool, term, share: add });
      }
    }
  }
  const desired: Desired = new Map();
  for (const [key, { tool, term, share }] of sums) desired.set(key, { tool, term, share: round(share) });
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
  // The scope's clock counts sessions: only a session's first credit moves it, however many rounds add to it.
  const first = Object.keys(given).length === 0;
  return { record: { ...base, learned: next }, delta: { credit, newPairs, newTerms, sessions: first ? 1 : 0 } };
}
