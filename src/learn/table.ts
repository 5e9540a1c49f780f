// The learned credits of one scope, as the store's shared space keeps them: a head `learn:<scope>` holding the
// scope's clock, and each term's postings in one of SHARDS shards `learn:<scope>:<shards>:<i>` picked by a hash of
// the term. A search reads the head and its own terms' shards; a commit writes the shards its session's terms fall
// in. Plain JSON, bounded per term and per shard, fading with the clock.
import { fnv1a } from '../search/fnv.ts';
import type { Remembered } from './memory-pages.ts';
import type { ResolvedLearn } from './options.ts';
import { scopeKey } from './scope-key.ts';

/** The format version of a stored head and shard (1 was one tool-major table). */
export const TABLE_VERSION = 2;
/** Shards per scope: enough that a busy scope's credits (megabytes) fit in values the shared space takes. */
export const SHARDS = 32;
/** Bytes of JSON a shard holds at most: the shared space takes 100 KB, and KV adds its write marks. */
export const MAX_SHARD_BYTES = 90_000;

/** The scope's clock: how many sessions have added to it. Credit fades by it. */
export interface Head {
  readonly v: typeof TABLE_VERSION;
  readonly u: number;
}

/** One tool credited for a term: summed credit, sessions that gave it, clock when last touched. */
export type Posting = readonly [tool: string, credit: number, sessions: number, at: number];

/** One term: the sessions whose search held it, the clock when last touched, its postings (strongest first). */
export type TermEntry = readonly [searched: number, at: number, postings: readonly Posting[]];

/** One shard: about the bytes its entries take in JSON, and its terms' entries. */
export interface Shard {
  readonly v: typeof TABLE_VERSION;
  readonly b?: number;
  readonly x: Readonly<Record<string, TermEntry>>;
}

/** What one session adds: credit per (tool, term), the pairs it credits for the first time, the terms it first searched, and 1 when it is the session's first credit (the clock counts sessions). */
export interface CreditDelta {
  readonly credit: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly newPairs: ReadonlyMap<string, ReadonlySet<string>>;
  readonly newTerms: ReadonlySet<string>;
  readonly sessions: number;
}

/** A term's part of one write: the sessions that searched it for the first time, and per tool [credit, new sessions]. */
export interface TermDelta {
  searched: number;
  readonly tools: Map<string, [credit: number, fresh: number]>;
}

/** The deltas of sessions not yet written, merged: one write per shard carries every session's credit. */
export interface Batch {
  sessions: number;
  /** Clock steps since its counts were last brought to date (see addToBatch). */
  steps: number;
  readonly shards: Map<number, Map<string, TermDelta>>;
  /** Requests for the memory of past requests, in the order the rounds gave them. */
  readonly memory: Remembered[];
}

/** An empty batch. */
export const newBatch = (): Batch => ({ sessions: 0, steps: 0, shards: new Map(), memory: [] });

/** The key of a scope's head in the shared space. */
export const headKey = (scope: string): string => scopeKey(scope);
/** The key of a scope's shard `i`; the shard count is part of it, so another count never misreads a shard. */
export const shardKey = (scope: string, i: number): string => `${scopeKey(scope)}:${SHARDS}:${i}`;

/** The shard of a term: FNV-1a over its characters. */
export const shardOf = (term: string): number => fnv1a(term) % SHARDS;

/** A stored count, to three decimals (credit shares are rounded alike, so deltas add up exactly). */
export const round = (x: number): number => Math.round(x * 1000) / 1000;

/** A stored value as a head; anything else (version 1's table, a foreign value) reads as a new scope. */
export function readHead(value: unknown): Head {
  const head = value as Partial<Head> | undefined;
  return head?.v === TABLE_VERSION && typeof head.u === 'number' && head.u >= 0 ? (head as Head) : { v: 2, u: 0 };
}

/** A stored value as a shard; anything else reads as an empty shard. */
export function readShard(value: unknown): Shard {
  const shard = value as Partial<Shard> | undefined;
  return shard?.v === TABLE_VERSION && typeof shard.x === 'object' && shard.x !== null
    ? (shard as Shard)
    : { v: 2, x: {} };
}

/** How much of a count touched at `at` is left at clock `u`. */
export function fade(u: number, at: number, halfLife: number): number {
  return u <= at ? 1 : 2 ** (-(u - at) / halfLife);
}

/** A posting's weight within its term at clock `u`: credit, discounted while few sessions agree. */
export function strength([, c, m, at]: Posting, u: number, halfLife: number): number {
  const left = fade(u, at, halfLife);
  const sessions = m * left;
  return c * left * (sessions / (sessions + 2));
}

/**
 * Merges a session's delta into a batch, by shard and then by term. Each new session is one step of the clock, as
 * writing each session on its own would be: what the batch held fades by it. The batch keeps its counts in units of
 * its last step (a newer session's count is added grown by the steps before it), so a merge never walks the batch.
 */
export function addToBatch(batch: Batch, delta: CreditDelta, halfLife: number): void {
  // After this many steps the growth factor would overflow: fade what the batch holds and start counting again.
  if (batch.steps + delta.sessions > 500 * halfLife) settle(batch, halfLife);
  batch.steps += delta.sessions;
  batch.sessions += delta.sessions;
  const grown = 2 ** (batch.steps / halfLife);
  const termDelta = (term: string): TermDelta => {
    const i = shardOf(term);
    let terms = batch.shards.get(i);
    if (!terms) {
      terms = new Map();
      batch.shards.set(i, terms);
    }
    let made = terms.get(term);
    if (!made) {
      made = { searched: 0, tools: new Map() };
      terms.set(term, made);
    }
    return made;
  };
  for (const term of delta.newTerms) termDelta(term).searched += grown;
  for (const [tool, terms] of delta.credit) {
    const fresh = delta.newPairs.get(tool);
    for (const [term, credit] of terms) {
      const { tools } = termDelta(term);
      const was = tools.get(tool);
      const add = fresh?.has(term) ? grown : 0;
      if (was) {
        was[0] += credit * grown;
        was[1] += add;
      } else tools.set(tool, [credit * grown, add]);
    }
  }
}

/** Brings a batch's counts to its last step (what a write takes), and restarts its step count. */
export function settle(batch: Batch, halfLife: number): void {
  const left = 2 ** (-batch.steps / halfLife);
  batch.steps = 0;
  if (left === 1) return;
  for (const terms of batch.shards.values()) {
    for (const change of terms.values()) {
      change.searched *= left;
      for (const counts of change.tools.values()) {
        counts[0] *= left;
        counts[1] *= left;
      }
    }
  }
}

/** About the UTF-8 length of a string in JSON (non-ASCII as 3 bytes), so bounding never needs a JSON.stringify. */
function bytesOf(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) bytes += 2;
  return bytes;
}

/** Bytes a term's entry takes in JSON, counted generously (numbers at their longest rounded form). */
function entryBytes(term: string, entry: TermEntry): number {
  let bytes = bytesOf(term) + 32;
  for (const [tool] of entry[2]) bytes += bytesOf(tool) + 36;
  return bytes;
}

/**
 * A shard's entries copied, to be changed: a write builds a new value. With a null prototype, so a term such as
 * "__proto__" is an own key like any other; key by key, in about half the time Object.assign took (the copies were
 * about 85% of a commit's writing of the table).
 */
function copyOf(x: Readonly<Record<string, TermEntry>>): Record<string, TermEntry> {
  const out: Record<string, TermEntry> = Object.create(null);
  for (const term of Object.keys(x)) out[term] = x[term] as TermEntry;
  return out;
}

/**
 * Adds a session's terms to a shard at clock `u` (a pure change, safe to replay onto a fresher value): each term keeps
 * its `maxToolsPerTerm` strongest postings, and the shard its most searched terms within its share of `maxBytes`.
 */
export function addToShard(
  value: unknown,
  terms: ReadonlyMap<string, TermDelta>,
  u: number,
  options: ResolvedLearn,
): Shard {
  const { halfLife, maxToolsPerTerm } = options;
  const shard = readShard(value);
  const x = copyOf(shard.x);
  let bytes = typeof shard.b === 'number' ? shard.b : sizeOf(x);
  for (const [term, change] of terms) {
    const was = Object.hasOwn(x, term) ? x[term] : undefined;
    const [searched, at, postings] = was ?? [0, u, []];
    const tools = new Map(postings.map((posting) => [posting[0], posting]));
    for (const [tool, [credit, fresh]] of change.tools) {
      const [, c, m, touched] = tools.get(tool) ?? [tool, 0, 0, u];
      const left = fade(u, touched, halfLife);
      tools.set(tool, [tool, round(Math.max(0, c * left + credit)), round(m * left + fresh), u]);
    }
    // Each posting's strength once, not once per comparison (it takes a power).
    const kept = [...tools.values()]
      .filter(([, c]) => c > 0)
      .map((posting) => ({ posting, by: strength(posting, u, halfLife) }))
      .sort((a, b) => b.by - a.by || (a.posting[0] < b.posting[0] ? -1 : 1))
      .slice(0, maxToolsPerTerm)
      .map(({ posting }) => posting);
    if (was) bytes -= entryBytes(term, was);
    if (kept.length === 0) {
      delete x[term];
      continue;
    }
    const entry: TermEntry = change.searched
      ? [round(searched * fade(u, at, halfLife) + change.searched), u, kept]
      : [searched, at, kept];
    x[term] = entry;
    bytes += entryBytes(term, entry);
  }
  const budget = Math.min(MAX_SHARD_BYTES, options.maxBytes / SHARDS) - 40;
  if (bytes > budget) bytes = bound(x, bytes, budget, u, halfLife);
  return { v: TABLE_VERSION, b: bytes, x };
}

/** About the bytes of a shard's entries. */
function sizeOf(x: Readonly<Record<string, TermEntry>>): number {
  let bytes = 0;
  for (const [term, entry] of Object.entries(x)) bytes += entryBytes(term, entry);
  return bytes;
}

/** Drops the terms searched least of late until the shard fits its budget; returns the bytes left. */
function bound(x: Record<string, TermEntry>, bytes: number, budget: number, u: number, halfLife: number): number {
  // Each term's fading count once, not once per comparison: a full shard is bounded at every write, and a power in
  // the comparator cost a commit about 0.1 ms at seal-tools' size.
  const order = Object.entries(x).map(([term, entry]) => ({
    term,
    entry,
    searched: entry[0] * fade(u, entry[1], halfLife),
  }));
  order.sort((a, b) => a.searched - b.searched || a.entry[1] - b.entry[1]);
  let left = bytes;
  for (const { term, entry } of order) {
    if (left <= budget) break;
    left -= entryBytes(term, entry);
    delete x[term];
  }
  return left;
}
