// One session's part in learning: what its history credits, measured against what it already gave, so a
// history replayed every round credits nothing twice and a session moves each tool by at most one search's worth.
import type { DiscoveredRecord } from '../core/discovered.ts';
import { RECORD_VERSION } from '../core/discovered.ts';
import { fnv1a } from '../search/fnv.ts';
import { termHash } from './memory.ts';
import { MAX_TERMS, MAX_TOOLS, type Remembered } from './memory-pages.ts';
import type { LearnUnit } from './signal.ts';
import { type CreditDelta, round } from './table.ts';

/** Most (tool, term) pairs and terms one session may credit: past it, the session adds nothing new. */
export const MAX_SESSION_PAIRS = 256;

const pairKey = (tool: string, term: string) => `${tool}\n${term}`;
const termKey = (term: string) => `\n${term}`;

/** Per (tool, term) key: the share of the session's credit for the tool that goes to the term. */
export type Desired = Map<string, { readonly tool: string; readonly term: string; readonly share: number }>;

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

/** Most requests of one session the memory keeps: a session that loops over many requests adds only its first. */
export const MAX_SESSION_REQUESTS = 16;

const requestKey = (turn: number) => `\t${turn}`;

/**
 * The requests of a session for the memory: per user turn, the terms (hashed) of its searches and the tools they
 * led to. A request is given again only when it grew since the record last saw it (its newer version replaces the
 * older when read), so a history read once or at every prefix ends with the same remembered requests.
 */
export function memoryDelta(
  record: DiscoveredRecord | undefined,
  units: readonly LearnUnit[],
  session: number,
  termsOf: (query: string) => readonly string[],
): { record: DiscoveredRecord | undefined; requests: Remembered[] } {
  const turns = new Map<number, { terms: Set<number>; tools: Set<string> }>();
  for (const unit of units) {
    const turn = turns.get(unit.turn) ?? { terms: new Set(), tools: new Set() };
    turns.set(unit.turn, turn);
    for (const term of termsOf(unit.query)) if (turn.terms.size < MAX_TERMS) turn.terms.add(termHash(term));
    for (const tool of unit.tools) if (turn.tools.size < MAX_TOOLS) turn.tools.add(tool);
  }
  const given = learnedOf(record);
  let kept = Object.keys(given).filter((key) => key.startsWith('\t')).length;
  let next: Record<string, number> | undefined;
  const requests: Remembered[] = [];
  for (const [turn, { terms, tools }] of turns) {
    if (terms.size === 0) continue;
    const key = requestKey(turn);
    const request = { session, turn, terms: [...terms].sort((a, b) => a - b), tools: [...tools].sort() };
    const signature = fnv1a(`${request.terms.join(',')}\n${request.tools.join('\n')}`);
    if (given[key] === signature) continue;
    if (given[key] === undefined) {
      if (kept >= MAX_SESSION_REQUESTS) continue;
      kept++;
    }
    next ??= { ...given };
    next[key] = signature;
    requests.push(request);
  }
  if (!next) return { record, requests };
  const base = record ?? { v: RECORD_VERSION, order: [], recent: [] };
  return { record: { ...base, learned: next }, requests };
}
