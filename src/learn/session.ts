// One session's part in learning: what its history credits, measured against what it already gave, so a
// history replayed every round credits nothing twice and a session moves each tool by at most one search's worth.
// This runs inside every committing `prepare`, so it reads the record once and builds one new record: the pairs
// are found through maps by tool then term (no string built to find a pair), the record's keys are counted once,
// and the memory's part writes into the same new `learned` as the credit's instead of copying it again.
import type { DiscoveredRecord } from '../core/discovered.ts';
import { RECORD_VERSION } from '../core/discovered.ts';
import { fnv1a } from '../search/fnv.ts';
import { MAX_TERMS, MAX_TOOLS, type Remembered } from './memory-pages.ts';
import type { QueryTerms } from './query-terms.ts';
import type { LearnUnit } from './signal.ts';
import { type CreditDelta, round } from './table.ts';

/** Most (tool, term) pairs and terms one session may credit: past it, the session adds nothing new. */
export const MAX_SESSION_PAIRS = 256;

/** Most requests of one session the memory keeps: a session that loops over many requests adds only its first. */
export const MAX_SESSION_REQUESTS = 16;

// The keys of a session record's `learned`: a pair's credit, a term it searched, a request's signature.
const pairKey = (tool: string, term: string) => `${tool}\n${term}`;
const termKey = (term: string) => `\n${term}`;
const requestKey = (turn: number) => `\t${turn}`;

/**
 * The (tool, term) pairs a history credits, in the order they first appear, each with its record key and the
 * share of the session's credit for the tool that goes to the term.
 */
export interface Desired {
  readonly tools: readonly string[];
  readonly terms: readonly string[];
  readonly keys: readonly string[];
  readonly shares: readonly number[];
}

/**
 * What the session's units ask for. One search gives each tool it led to 1 / (tools it led to), on each of its
 * terms; a tool that several searches led to has that divided by their number. So a session moves a tool by at
 * most one search's worth whatever it does: a loop of searches that each end in the same tool spreads one credit
 * over all its words instead of giving each word a whole one. The shares depend on the whole history only, so the
 * same history read once or at every prefix settles on the same credit.
 */
export function desiredCredit(units: readonly LearnUnit[], queries: QueryTerms): Desired {
  const searches = new Map<string, number>();
  for (const unit of units) for (const tool of unit.tools) searches.set(tool, (searches.get(tool) ?? 0) + 1);
  const tools: string[] = [];
  const terms: string[] = [];
  const sums: number[] = [];
  // Per tool, per term, the pair's place in the lists: a pair several searches credit sums their adds in order.
  const places = new Map<string, Map<string, number>>();
  for (const unit of units) {
    const part = 1 / unit.tools.length;
    const byTool = unit.tools.map(
      (tool) => places.get(tool) ?? (places.set(tool, new Map()).get(tool) as Map<string, number>),
    );
    const adds = unit.tools.map((tool) => part / (searches.get(tool) as number));
    const { terms: unitTerms, first } = queries.of(unit.query);
    for (const [k, term] of unitTerms.entries()) {
      // A term that recurs in the query counts once.
      if (!first[k]) continue;
      for (const [j, tool] of unit.tools.entries()) {
        const place = (byTool[j] as Map<string, number>).get(term);
        const add = adds[j] as number;
        if (place === undefined) {
          (byTool[j] as Map<string, number>).set(term, sums.length);
          tools.push(tool);
          terms.push(term);
          sums.push(add);
        } else sums[place] = (sums[place] as number) + add;
      }
    }
  }
  const keys = tools.map((tool, i) => pairKey(tool, terms[i] as string));
  return { tools, terms, keys, shares: sums.map(round) };
}

/** A session record's learned part, or nothing for a missing or malformed one. */
function learnedOf(record: DiscoveredRecord | undefined): Readonly<Record<string, number>> {
  const learned = record?.learned;
  return typeof learned === 'object' && learned !== null && !Array.isArray(learned) ? learned : {};
}

/** What one round learns of a session: its record with the new amounts, the table's delta, the requests to remember. */
export interface SessionLearning {
  /** The record with its `learned` part brought up to date; `record` itself when nothing changed. */
  readonly record: DiscoveredRecord | undefined;
  /** The delta for the scope's table: undefined when no credit changed. */
  readonly delta: CreditDelta | undefined;
  /** The requests for the memory of past requests: empty when none grew (or without `memory`). */
  readonly requests: Remembered[];
}

/**
 * Compares the desired credit with what the record says the session gave, and, given `memory`, the session's
 * requests with the ones the record last saw. The record's `learned` keeps its keys in order and adds the new ones
 * after them: the credit's pairs and terms first, then the requests.
 */
export function sessionLearning(
  record: DiscoveredRecord | undefined,
  desired: Desired,
  memory?: { readonly units: readonly LearnUnit[]; readonly session: number; readonly queries: QueryTerms },
): SessionLearning {
  const given = learnedOf(record);
  const names = Object.keys(given);
  // A fresh session's record has nothing to look up: its every pair is new.
  const empty = names.length === 0;
  let size = names.length;
  let next: Record<string, number> | undefined;
  const credit = new Map<string, Map<string, number>>();
  const newPairs = new Map<string, Set<string>>();
  const newTerms = new Set<string>();
  const { tools, terms, keys, shares } = desired;
  for (const [i, key] of keys.entries()) {
    const share = shares[i] as number;
    const had = empty ? undefined : given[key];
    if (had === share) continue;
    next ??= empty ? {} : { ...given };
    const tool = tools[i] as string;
    const term = terms[i] as string;
    if (typeof had !== 'number') {
      const term1 = (empty || given[termKey(term)] === undefined) && !newTerms.has(term);
      if (size + (term1 ? 2 : 1) > MAX_SESSION_PAIRS) continue;
      size += term1 ? 2 : 1;
      if (term1) {
        newTerms.add(term);
        next[termKey(term)] = 1;
      }
      (newPairs.get(tool) ?? newPairs.set(tool, new Set()).get(tool))?.add(term);
    }
    next[key] = share;
    const byTerm = credit.get(tool) ?? new Map<string, number>();
    credit.set(tool, byTerm.set(term, share - (typeof had === 'number' ? had : 0)));
  }
  // Every changed pair was past the bound: the record stays as it was.
  if (credit.size === 0) next = undefined;
  // The scope's clock counts sessions: only a session's first credit moves it, however many rounds add to it.
  const delta = next ? { credit, newPairs, newTerms, sessions: empty ? 1 : 0 } : undefined;
  const requests: Remembered[] = [];
  if (memory) {
    // The pairs and terms above never start with a tab, so the requests the record kept are the given ones.
    let kept = 0;
    if (!empty) for (const name of names) if (name.startsWith('\t')) kept++;
    for (const request of requestsOf(memory.units, memory.session, memory.queries)) {
      const key = requestKey(request.turn);
      const had = empty ? undefined : given[key];
      const signature = fnv1a(`${request.terms.join(',')}\n${request.tools.join('\n')}`);
      if (had === signature) continue;
      if (had === undefined) {
        if (kept >= MAX_SESSION_REQUESTS) continue;
        kept++;
      }
      next ??= empty ? {} : { ...given };
      next[key] = signature;
      requests.push(request);
    }
  }
  if (!next) return { record, delta, requests };
  const base = record ?? { v: RECORD_VERSION, order: [], recent: [] };
  return { record: { ...base, learned: next }, delta, requests };
}

/**
 * The requests of a session for the memory: per user turn, the terms (hashed) of its searches and the tools they
 * led to, both sorted. A request is given again only when it grew since the record last saw it (its newer version
 * replaces the older when read), so a history read once or at every prefix ends with the same remembered requests.
 */
function requestsOf(units: readonly LearnUnit[], session: number, queries: QueryTerms): Remembered[] {
  const turns = new Map<number, { terms: Set<number>; tools: Set<string> }>();
  for (const unit of units) {
    const turn = turns.get(unit.turn) ?? { terms: new Set(), tools: new Set() };
    turns.set(unit.turn, turn);
    // Hashed once per query while the learner keeps it tokenized (the table's writes use the same hashes).
    for (const hash of queries.of(unit.query).hashes) {
      if (turn.terms.size >= MAX_TERMS) break;
      turn.terms.add(hash);
    }
    for (const tool of unit.tools) if (turn.tools.size < MAX_TOOLS) turn.tools.add(tool);
  }
  const requests: Remembered[] = [];
  for (const [turn, { terms, tools }] of turns) {
    if (terms.size === 0) continue;
    requests.push({ session, turn, terms: [...terms].sort((a, b) => a - b), tools: [...tools].sort() });
  }
  return requests;
}
