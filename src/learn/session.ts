// One session's part in learning: what its history credits, measured against what it already gave, so a
// history replayed every round credits nothing twice and a session moves each tool by at most one search's worth.
// This runs inside every committing `prepare`, and a long session sends its whole history every round: a round
// follows only the (tool, term) pairs the session's record holds or can still take (the record is bounded), and
// makes only the requests the record keeps, never every pair and request the history names (at 200 rounds, that
// cost a round about 6 ms more than learning off; bench/TUNING.md).
import type { DiscoveredRecord } from '../core/discovered.ts';
import { RECORD_VERSION } from '../core/discovered.ts';
import { fnv1a } from '../search/fnv.ts';
import { MAX_TERMS, MAX_TOOLS, type Remembered } from './memory-pages.ts';
import type { QueryTerms } from './query-terms.ts';
import { type LearnUnit, sameUnits } from './signal.ts';
import { type CreditDelta, round } from './table.ts';

/** Most (tool, term) pairs and terms one session may credit: past it, the session adds nothing new. */
export const MAX_SESSION_PAIRS = 256;

/** Most requests of one session the memory keeps: a session that loops over many requests adds only its first. */
export const MAX_SESSION_REQUESTS = 16;

// The keys of a session record's `learned`: a pair's credit, a term it searched, a request's signature.
const pairKey = (tool: string, term: string) => `${tool}\n${term}`;
const termKey = (term: string) => `\n${term}`;
const requestKey = (turn: number) => `\t${turn}`;

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
  /** The requests for the memory of past requests: empty when none grew (or without `session`). */
  readonly requests: Remembered[];
  /** The requests made of the turns this round looked at, for the next round of the same session. */
  readonly made: Map<number, MadeRequest>;
}

/**
 * The pairs a round follows, in lists by their index: the record's own (what it says each gave), then each new pair
 * the record takes, when the history first names it. Each has the history's share so far, and the order in which
 * the history first names it (-1: nowhere).
 */
interface Followed {
  readonly index: Map<string, Map<string, number>>;
  readonly tools: string[];
  readonly terms: string[];
  readonly had: (number | undefined)[];
  readonly fresh: boolean[];
  readonly sums: number[];
  readonly firstAt: number[];
}

/** Follows a pair; its index. `fresh`: a new pair whose term the record has not seen either. */
function follow(f: Followed, tool: string, term: string, had: number | undefined, fresh: boolean): number {
  const i = f.tools.length;
  const byTerm = f.index.get(tool) ?? (f.index.set(tool, new Map()).get(tool) as Map<string, number>);
  byTerm.set(term, i);
  f.tools.push(tool);
  f.terms.push(term);
  f.had.push(had);
  f.fresh.push(fresh);
  f.sums.push(0);
  f.firstAt.push(-1);
  return i;
}

/** The record's pairs (a value that is not a number counts as a new pair, as it always has). */
function recordedPairs(given: Readonly<Record<string, number>>, names: readonly string[]): Followed {
  const f: Followed = { index: new Map(), tools: [], terms: [], had: [], fresh: [], sums: [], firstAt: [] };
  for (const name of names) {
    // A pair's key is its tool and term around the last newline (a term holds none); a term's key starts with one,
    // and a request's has none.
    const cut = name.lastIndexOf('\n');
    const had = given[name];
    if (cut > 0 && typeof had === 'number') follow(f, name.slice(0, cut), name.slice(cut + 1), had, false);
  }
  return f;
}

/**
 * One search gives each tool it led to 1 / (tools it led to), on each of its terms; a tool that several searches led
 * to has that divided by their number. So a session moves a tool by at most one search's worth whatever it does: a
 * loop of searches that each end in the same tool spreads one credit over all its words instead of giving each word
 * a whole one. The shares depend on the whole history only, so the same history read once or at every prefix
 * settles on the same credit. The history's pairs are named in order (unit, then term, then tool); a new pair is
 * taken when first named, while the record has room. Adds the pairs taken and every share into `f`.
 */
function followHistory(
  f: Followed,
  units: readonly LearnUnit[],
  queries: QueryTerms,
  given: Readonly<Record<string, number>>,
  size: number,
): void {
  const searches = new Map<string, number>();
  for (const unit of units) for (const tool of unit.tools) searches.set(tool, (searches.get(tool) ?? 0) + 1);
  const empty = size === 0;
  const newTerms = new Set<string>();
  let named = 0;
  for (const unit of units) {
    const { tools } = unit;
    // Per tool, the terms followed for it: a search whose tools have none adds nothing once the record is full.
    const byTool = tools.map((tool) => f.index.get(tool));
    if (size >= MAX_SESSION_PAIRS && byTool.every((byTerm) => byTerm === undefined)) continue;
    const part = 1 / tools.length;
    const { terms, first } = queries.of(unit.query);
    for (const [k, term] of terms.entries()) {
      // A term that recurs in the query counts once.
      if (!first[k]) continue;
      for (const [j, tool] of tools.entries()) {
        let i = byTool[j]?.get(term);
        if (i === undefined) {
          // A pair not taken when first named never is: the record only grows, so it never has more room.
          if (size >= MAX_SESSION_PAIRS) continue;
          const fresh = (empty || given[termKey(term)] === undefined) && !newTerms.has(term);
          if (size + (fresh ? 2 : 1) > MAX_SESSION_PAIRS) continue;
          size += fresh ? 2 : 1;
          if (fresh) newTerms.add(term);
          i = follow(f, tool, term, undefined, fresh);
          byTool[j] = f.index.get(tool);
        }
        const add = part / (searches.get(tool) as number);
        if ((f.firstAt[i] as number) < 0) {
          f.firstAt[i] = named++;
          f.sums[i] = add;
        } else f.sums[i] = (f.sums[i] as number) + add;
      }
    }
  }
}

/**
 * Holds each tool's credit from one session to one search's worth: the sum of its pairs' shares at most the most a
 * search of the history gives it (its distinct terms over the tools it led to). A history sent whole never reaches it
 * (the sum is the mean over the tool's searches), but a history trimmed at its front shares each tool among the
 * searches it still holds, while the record keeps what the trimmed ones gave: a session looping over 60 searches, its
 * history cut to its last three turns, gave a tool 40 credits where the whole history gives 2. Past it, every pair of
 * the tool (the ones the history no longer names too) gives way in proportion, as the whole history would spread the
 * tool over all its terms. Checked for the tools this round raises (of `only`, when given: a tool whose every pair the
 * history names is at its mean); changes `next` and `credit` in place.
 */
export function capTools(
  next: Record<string, number>,
  given: Readonly<Record<string, number>>,
  credit: Map<string, Map<string, number>>,
  units: readonly LearnUnit[],
  queries: QueryTerms,
  only?: ReadonlySet<string>,
): void {
  const raised = [...credit].filter(
    ([tool, byTerm]) => (!only || only.has(tool)) && [...byTerm.values()].some((d) => d > 0),
  );
  if (raised.length === 0) return;
  const caps = new Map<string, number>();
  for (const unit of units) {
    let terms = 0;
    for (const first of queries.of(unit.query).first) if (first) terms++;
    const worth = terms / unit.tools.length;
    for (const tool of unit.tools) if (worth > (caps.get(tool) ?? -1)) caps.set(tool, worth);
  }
  // Every pair's term and share, by tool: a pair's key is its tool and term around the last newline.
  const pairs = new Map<string, [term: string, share: number][]>();
  for (const [key, share] of Object.entries(next)) {
    const cut = key.lastIndexOf('\n');
    if (cut <= 0 || typeof share !== 'number') continue;
    const tool = key.slice(0, cut);
    (pairs.get(tool) ?? pairs.set(tool, []).get(tool))?.push([key.slice(cut + 1), share]);
  }
  for (const [tool, byTerm] of raised) {
    const own = pairs.get(tool) ?? [];
    let total = 0;
    for (const [, share] of own) total += share;
    const cap = caps.get(tool) ?? 0;
    // Past the shares' rounding (a thousandth each) only.
    if (total - cap <= 0.001 * own.length) continue;
    const keep = cap / total;
    for (const [term, share] of own) {
      const key = pairKey(tool, term);
      const had = typeof given[key] === 'number' ? (given[key] as number) : 0;
      const kept = round(share * keep);
      next[key] = kept;
      if (kept !== had || byTerm.has(term)) byTerm.set(term, kept - had);
    }
  }
}

/**
 * Compares the history's credit with what the record says the session gave, and, given `session` (the memory's
 * hash of it), the session's requests with the ones the record last saw. The record's `learned` keeps its keys in
 * order and adds the new ones after them, in the order the history first names them: the credit's pairs and terms
 * first, then the requests.
 */
export function sessionLearning(
  record: DiscoveredRecord | undefined,
  units: readonly LearnUnit[],
  queries: QueryTerms,
  session?: number,
  madeBefore?: ReadonlyMap<number, MadeRequest>,
): SessionLearning {
  const given = learnedOf(record);
  const names = Object.keys(given);
  const empty = names.length === 0;
  const f = recordedPairs(given, names);
  followHistory(f, units, queries, given, names.length);
  // The pairs whose share moved, in the order the history first names them.
  const moved: number[] = [];
  for (let i = 0; i < f.tools.length; i++) {
    if ((f.firstAt[i] as number) < 0) continue;
    f.sums[i] = round(f.sums[i] as number);
    if (f.had[i] !== f.sums[i]) moved.push(i);
  }
  moved.sort((a, b) => (f.firstAt[a] as number) - (f.firstAt[b] as number));
  let next: Record<string, number> | undefined;
  const credit = new Map<string, Map<string, number>>();
  const newPairs = new Map<string, Set<string>>();
  const newTerms = new Set<string>();
  for (const i of moved) {
    next ??= empty ? {} : { ...given };
    const tool = f.tools[i] as string;
    const term = f.terms[i] as string;
    const share = f.sums[i] as number;
    const had = f.had[i];
    if (had === undefined) {
      if (f.fresh[i]) {
        newTerms.add(term);
        next[termKey(term)] = 1;
      }
      (newPairs.get(tool) ?? newPairs.set(tool, new Set()).get(tool))?.add(term);
    }
    next[pairKey(tool, term)] = share;
    const byTerm = credit.get(tool) ?? new Map<string, number>();
    credit.set(tool, byTerm.set(term, share - (had ?? 0)));
  }
  // Only a tool the record gave pairs the history no longer names can pass one search's worth (capTools).
  const unnamed = new Set<string>();
  for (let i = 0; i < f.tools.length; i++)
    if (f.had[i] !== undefined && (f.firstAt[i] as number) < 0) unnamed.add(f.tools[i] as string);
  if (next && unnamed.size > 0) capTools(next, given, credit, units, queries, unnamed);
  // The scope's clock counts sessions: only a session's first credit moves it, however many rounds add to it.
  const delta = next ? { credit, newPairs, newTerms, sessions: empty ? 1 : 0 } : undefined;
  const requests: Remembered[] = [];
  const made = new Map<number, MadeRequest>();
  if (session !== undefined) {
    // The pairs and terms above never start with a tab, so the requests the record kept are the given ones; each
    // by its turn, so a long history's turns are looked up without a key spelled for each.
    let kept = 0;
    const byTurn = new Map<number, number>();
    for (const name of names) {
      if (!name.startsWith('\t')) continue;
      kept++;
      const turn = Number(name.slice(1));
      if (requestKey(turn) === name) byTurn.set(turn, given[name] as number);
    }
    const turns = unitsByTurn(units);
    const shift = trimmedTurns(turns, byTurn, session, queries, madeBefore);
    for (const [visible, ofTurn] of turns) {
      const turn = visible + shift;
      const had = byTurn.get(turn);
      // A request the record has no room for is not made at all.
      if (had === undefined && kept >= MAX_SESSION_REQUESTS) continue;
      const key = requestKey(turn);
      const { request, signature } = madeFor(madeBefore, made, ofTurn, turn, session, queries);
      if (!request) continue;
      if (had === signature) continue;
      if (had === undefined) kept++;
      next ??= empty ? {} : { ...given };
      next[key] = signature;
      requests.push(request);
    }
  }
  if (!next) return { record, delta, requests, made };
  const base = record ?? { v: RECORD_VERSION, order: [], recent: [] };
  return { record: { ...base, learned: next }, delta, requests, made };
}

/** A request's signature: its terms and tools, not its turn (0 for none). */
const signatureOf = (request: Remembered | undefined): number =>
  request ? fnv1a(`${request.terms.join(',')}\n${request.tools.join('\n')}`) : 0;

/**
 * How many turns the history lost at its front: a host that trims its oldest turns to fit the context sends the same
 * turns under smaller numbers, and the memory keeps a request by its turn. 0 when the first turn the history holds is
 * the one the record saw under its number (as every history sent whole is), or nothing else fits; else the least
 * shift at which the record saw the history's first turn, and every later one it saw (but the last, which may have
 * grown) at its shifted number. A history of one turn still growing cannot be placed, and counts from 1 as before.
 */
function trimmedTurns(
  turns: ReadonlyMap<number, readonly LearnUnit[]>,
  byTurn: ReadonlyMap<number, number>,
  session: number,
  queries: QueryTerms,
  madeBefore: ReadonlyMap<number, MadeRequest> | undefined,
): number {
  const head = turns.entries().next();
  if (head.done) return 0;
  const [first, firstUnits] = head.value;
  const had = byTurn.get(first);
  if (had === undefined) return 0;
  // A long session's first turn comes back every round: its signature as the last round made it, when it is the same.
  const firstSignature = madeOf(madeBefore, firstUnits, first, session, queries).signature;
  if (firstSignature === had) return 0;
  const visible = [...turns];
  const shifts = [...byTurn]
    .filter(([turn, sig]) => turn > first && sig === firstSignature)
    .map(([turn]) => turn - first);
  for (const shift of shifts.sort((a, b) => a - b)) {
    const fits = visible.every(([turn, units], i) => {
      const recorded = byTurn.get(turn + shift);
      if (recorded === undefined || i === visible.length - 1) return true;
      return recorded === (i === 0 ? firstSignature : signatureOf(requestOf(units, turn, session, queries)));
    });
    if (fits) return shift;
  }
  return 0;
}

/** A turn's request as made from its units, and its signature (undefined for a turn with no term). */
export interface MadeRequest {
  readonly units: readonly LearnUnit[];
  readonly request: Remembered | undefined;
  readonly signature: number;
}

/**
 * A turn's request and signature: as the last round made it when its units are the same (a long session's finished
 * turns come back every round), else made now.
 */
function madeOf(
  before: ReadonlyMap<number, MadeRequest> | undefined,
  units: readonly LearnUnit[],
  turn: number,
  session: number,
  queries: QueryTerms,
): MadeRequest {
  const kept = before?.get(turn);
  // Kept by session in the learner; checked here too, as a request names its session.
  if (kept && !(kept.request && kept.request.session !== session) && sameUnits(kept.units, units)) return kept;
  const request = requestOf(units, turn, session, queries);
  return { units, request, signature: signatureOf(request) };
}

/** A turn's request and signature (madeOf), kept in `made` for the next round. */
function madeFor(
  before: ReadonlyMap<number, MadeRequest> | undefined,
  made: Map<number, MadeRequest>,
  units: readonly LearnUnit[],
  turn: number,
  session: number,
  queries: QueryTerms,
): MadeRequest {
  const kept = madeOf(before, units, turn, session, queries);
  made.set(turn, kept);
  return kept;
}

/** The units of each user turn, the turns in the order the history first names them. */
function unitsByTurn(units: readonly LearnUnit[]): Map<number, LearnUnit[]> {
  const turns = new Map<number, LearnUnit[]>();
  for (const unit of units) {
    const ofTurn = turns.get(unit.turn);
    if (ofTurn) ofTurn.push(unit);
    else turns.set(unit.turn, [unit]);
  }
  return turns;
}

/**
 * A session's request for the memory: one user turn's search terms (hashed) and the tools they led to, both sorted;
 * undefined for a turn whose searches hold no term (stopwords alone are none). A request is given again only when it grew since the record last
 * saw it (its newer version replaces the older when read), so a history read once or at every prefix ends with the
 * same remembered requests.
 */
function requestOf(
  units: readonly LearnUnit[],
  turn: number,
  session: number,
  queries: QueryTerms,
): Remembered | undefined {
  const terms = new Set<number>();
  const tools = new Set<string>();
  // Whether a search held a term: stopwords alone ("what can you do") are no request to remember.
  let held = false;
  for (const unit of units) {
    // Both full, later searches add nothing: a long agent loop within one turn reads only its first few.
    if (terms.size >= MAX_TERMS && tools.size >= MAX_TOOLS) break;
    // Hashed once per query while the learner keeps it tokenized (the table's writes use the same hashes); the
    // stopwords' hashes come after the terms', so a long request keeps its terms first.
    const query = queries.of(unit.query);
    if (query.hashes.length > 0) held = true;
    for (const hash of query.memoryHashes) {
      if (terms.size >= MAX_TERMS) break;
      terms.add(hash);
    }
    for (const tool of unit.tools) if (tools.size < MAX_TOOLS) tools.add(tool);
  }
  if (!held) return undefined;
  return { session, turn, terms: [...terms].sort((a, b) => a - b), tools: [...tools].sort() };
}
