// A session's learning (src/learn/session.ts) follows only the pairs its record holds or can still take, and makes
// only the requests the record keeps: checked against the whole reading it replaced (every pair and request the
// history names, compared with the record), kept here as it was, on random histories replayed round by round and on
// records that came from other histories (trimmed, malformed, full).
import { describe, expect, it } from 'vitest';
import type { DiscoveredRecord } from '../../src/core/discovered.ts';
import { RECORD_VERSION } from '../../src/core/discovered.ts';
import { MAX_TERMS, MAX_TOOLS, type Remembered } from '../../src/learn/memory-pages.ts';
import { createQueryTerms, type QueryTerms } from '../../src/learn/query-terms.ts';
import { capTools, MAX_SESSION_PAIRS, MAX_SESSION_REQUESTS, sessionLearning } from '../../src/learn/session.ts';
import type { LearnUnit } from '../../src/learn/signal.ts';
import { type CreditDelta, round } from '../../src/learn/table.ts';
import { fnv1a } from '../../src/search/fnv.ts';
import { seededRandom } from '../core/seeded.ts';

const pairKey = (tool: string, term: string) => `${tool}\n${term}`;
const termKey = (term: string) => `\n${term}`;
const requestKey = (turn: number) => `\t${turn}`;

// The whole reading, as it was before (src/learn/session.ts at 1cbc3a9).
/**
 * The (tool, term) pairs a history credits, in the order they first appear, each with its record key and the
 * share of the session's credit for the tool that goes to the term.
 */
interface Desired {
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
function desiredCredit(units: readonly LearnUnit[], queries: QueryTerms): Desired {
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
interface SessionLearning {
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
function wholeLearning(
  record: DiscoveredRecord | undefined,
  desired: Desired,
  memory?: { readonly units: readonly LearnUnit[]; readonly session: number; readonly queries: QueryTerms },
  capped?: { readonly units: readonly LearnUnit[]; readonly queries: QueryTerms },
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
  // A tool held to one search's worth (a history whose record holds more than it names: trimmed, or another's), by the
  // library's own rule: what is checked here is the rest of the reading.
  if (next && capped) capTools(next, given, credit, capped.units, capped.queries);
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

/** A learning's outcome in plain values: the record's keys in order, the delta's maps as entry lists. */
function plain(out: { record: DiscoveredRecord | undefined; delta: CreditDelta | undefined; requests: Remembered[] }) {
  const { delta } = out;
  return {
    learned: out.record?.learned === undefined ? undefined : Object.entries(out.record.learned),
    record: out.record,
    delta: delta && {
      credit: [...delta.credit].map(([tool, byTerm]) => [tool, [...byTerm]]),
      newPairs: [...delta.newPairs].map(([tool, terms]) => [tool, [...terms]]),
      newTerms: [...delta.newTerms],
      sessions: delta.sessions,
    },
    requests: out.requests,
  };
}

/** A random history's units: queries of a few words from a small vocabulary, each leading to one to three tools. */
function randomUnits(random: (n: number) => number, count: number, toolCount = 12, turns = true): LearnUnit[] {
  const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
  const tools = Array.from({ length: toolCount }, (_, i) => `tool_${i}`);
  const units: LearnUnit[] = [];
  let turn = 1;
  for (let i = 0; i < count; i++) {
    if (turns) turn += random(3) === 0 ? 1 : 0;
    const query = Array.from({ length: 1 + random(9) }, () => words[random(words.length)]).join(' ');
    const used = [...new Set(Array.from({ length: 1 + random(3) }, () => tools[random(tools.length)] as string))];
    units.push({ query, tools: used, turn });
  }
  return units;
}

describe("a session's learning follows only what its record can hold", () => {
  // The requests made by the round before, as the learner keeps them for the session's next round.
  let made: ReturnType<typeof sessionLearning>['made'] | undefined;
  // `capped`: the reference holds each tool to one search's worth too (capTools), for records that hold more than the
  // history names; a history read whole, at every prefix, never reaches it, and its reference reads without it.
  const both = (
    record: DiscoveredRecord | undefined,
    units: LearnUnit[],
    queries: QueryTerms,
    session?: number,
    capped = false,
  ) => {
    const fast = sessionLearning(record, units, queries, session, made);
    made = fast.made;
    const whole = wholeLearning(
      record,
      desiredCredit(units, queries),
      session === undefined ? undefined : { units, session, queries },
      capped ? { units, queries } : undefined,
    );
    expect(plain(fast)).toEqual(plain(whole));
    // Made afresh, the same.
    expect(plain(sessionLearning(record, units, queries, session))).toEqual(plain(whole));
    return fast;
  };

  it('gives what the whole reading gives, replayed round by round, with and without the memory', () => {
    const queries = createQueryTerms();
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(seed);
      const units = randomUnits(random, 5 + random(60));
      const session = random(2) === 0 ? undefined : seed;
      let record: DiscoveredRecord | undefined;
      // Every prefix, as a loop sends it, and now and then a round that skips ahead.
      for (let n = 1; n <= units.length; n += 1 + random(2))
        record = both(record, units.slice(0, n), queries, session).record;
      // The whole history read, then read again: the second changes nothing.
      record = both(record, units, queries, session).record;
      const again = both(record, units, queries, session);
      expect(again.delta).toBeUndefined();
    }
  });

  it("gives what the whole reading gives for an agent loop within one turn, past the request's bounds", () => {
    const queries = createQueryTerms();
    for (let seed = 300; seed < 320; seed++) {
      const random = seededRandom(seed);
      // Forty tools, so a turn's request reaches its bound on tools as well as on terms.
      const units = randomUnits(random, 30 + random(60), 40, false);
      let record: DiscoveredRecord | undefined;
      for (let n = 1; n <= units.length; n++) record = both(record, units.slice(0, n), queries, seed).record;
    }
  });

  it("reaches the record's bounds as the whole reading does", () => {
    const queries = createQueryTerms();
    let full = 0;
    for (let seed = 100; seed < 140; seed++) {
      const random = seededRandom(seed);
      const units = randomUnits(random, 80 + random(80));
      const record = both(undefined, units, queries, seed).record;
      const keys = Object.keys(record?.learned ?? {});
      if (keys.filter((key) => !key.startsWith('\t')).length >= MAX_SESSION_PAIRS - 1) full++;
      expect(keys.filter((key) => key.startsWith('\t')).length).toBeLessThanOrEqual(MAX_SESSION_REQUESTS);
    }
    // The bound is reached, or the check above would not test it.
    expect(full).toBeGreaterThan(30);
  });

  it('gives what the whole reading gives on records from other histories: trimmed, foreign and malformed', () => {
    const queries = createQueryTerms();
    for (let seed = 200; seed < 260; seed++) {
      const random = seededRandom(seed);
      const units = randomUnits(random, 10 + random(120));
      const earlier = both(undefined, units, queries, seed).record as DiscoveredRecord;
      // The front of the history trimmed away, as a host trims its context; another session's history.
      both(earlier, units.slice(random(units.length)), queries, seed, true);
      both(earlier, randomUnits(seededRandom(seed + 1000), 40), queries, seed, true);
      // Values that are not numbers, and keys that are no pair's.
      const learned: Record<string, unknown> = { ...earlier.learned };
      const keys = Object.keys(learned);
      for (let i = 0; i < 5 && keys.length > 0; i++) learned[keys[random(keys.length)] as string] = 'x';
      learned['\nword3'] = 2;
      learned['tool_1\n'] = 1;
      learned['\t999'] = 7;
      both({ ...earlier, learned } as DiscoveredRecord, units, queries, seed, true);
      both(
        { v: RECORD_VERSION, order: [], recent: [], learned: [] } as unknown as DiscoveredRecord,
        units,
        queries,
        seed,
        true,
      );
    }
  });
});
