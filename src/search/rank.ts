import { type BuiltIndex, PARAMS, type ToolIndex } from './build.ts';
import { type QueryEvidence, queryPairs, rerank } from './rerank.ts';
import { candidateFeatures } from './rerank-features.ts';
import { acquire, memo, memosOf, release } from './scratch.ts';
import { isStopword } from './stopwords.ts';
import { findSubstring } from './substring.ts';
import { tokenize } from './tokenize.ts';
import { expand } from './vocabulary.ts';

/** Which tools may appear, and how many of the ranked set to return. */
export interface RankOptions {
  /** Only ids for which this returns true may appear (and count in `found`). Omitted: all visible. */
  readonly visible?: ((id: number) => boolean) | undefined;
  /** How many of the ranked result set to return from the top (the caller passes offset + limit). Omitted: all. */
  readonly take?: number | undefined;
  /** Set to 1 at the id of every tool in the result set, for a caller that must know which tools the keywords found. */
  readonly members?: Uint8Array | undefined;
}

/** The size of the result set, its top ids, and the keywords that counted. */
export interface RankResult {
  /** Size of the whole result set (visible tools only). */
  readonly found: number;
  /** The first `take` ids (positions in the tools array) of the whole result set, best first. */
  readonly ids: readonly number[];
  /** The query keywords that counted (after stopwords and one-letter Latin removal), lower-cased, deduplicated, in query order. */
  readonly keywords: readonly string[];
  /**
   * The ranking's own score of the first ids, best first, for those that matched a query term (substring-only hits
   * and tools past the reordered head have none): the second stage's score, the best near 1. Absent when another
   * ranking (learned credit, a semantic ranker) reordered the ids.
   */
  readonly scores?: readonly number[];
  /** Whether the first id holds every query term the catalogue knows (its coverage factor is 1), with `scores`. */
  readonly whole?: boolean;
  /**
   * With `whole`: for the first ids in a row whose name's terms the query all holds, how many other known query terms
   * the query has ("merge a pull request" holds merge_pull_request with none; "list open issues in a repository"
   * holds list_issues with 2): a query that states a name more than a task. Stops at the first id it does not hold.
   */
  readonly held?: readonly number[];
}

// The contract's bounds on a query, applied here too so a direct caller cannot make a search slow.
const MAX_CHARS = 1000;
const MAX_KEYWORDS = 64;
// Substring-only hits sort below every token hit.
const TIER = 1e6;

/** A white-space-delimited word as a keyword: edge punctuation trimmed, lower-cased; undefined for stopwords and one-letter Latin words. */
export function asKeyword(raw: string): string | undefined {
  const lower = raw.toLowerCase();
  // Trimming only widens the substring match; a keyword of punctuation alone is kept as it is.
  const word = lower.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '') || lower;
  return !word || /^[a-z]$/.test(word) || isStopword(word) ? undefined : word;
}

/** The counted keywords of a query, deduplicated, at most 64. */
export function queryKeywords(query: string): string[] {
  const out = new Set<string>();
  for (const raw of query.slice(0, MAX_CHARS).split(/\s+/)) {
    const word = asKeyword(raw);
    if (word === undefined) continue;
    out.add(word);
    if (out.size === MAX_KEYWORDS) break;
  }
  return [...out];
}

/** Ranks the catalogue for a query: BM25F over name, description and parameters, the best reordered, then substring-only hits. */
export function rankTools(index: ToolIndex, query: string, options: RankOptions = {}): RankResult {
  const ix = index as BuiltIndex;
  const take = Math.max(0, Math.min(options.take ?? ix.size, ix.size));
  const first = firstStage(ix, query, options.visible ?? (() => true), take, options.members);
  if (!('rank' in first)) return first;
  const { candidates, rank, evidence, keywords, whole, spare } = first;
  const { rerankTop } = PARAMS;
  // The same best candidates are reordered whatever the page, so paging stays stable.
  const leading = top(candidates, rank, rerankTop);
  const { ids: ordered, scores } = rerank(ix, evidence, headOf(leading, rank), rank, TIER);
  // Below the head the first stage's order stands: the best it already found serve a page that fits in them.
  const ids =
    take <= ordered.length
      ? ordered.slice(0, take)
      : [...ordered, ...(take <= rerankTop ? leading : top(candidates, rank, take)).slice(ordered.length, take)];
  giveRanks(ix, rank, candidates);
  const scored = scores.slice(0, take);
  const best = ids[0];
  const isWhole = best !== undefined && whole.includes(best);
  const held: number[] = [];
  for (const d of isWhole ? ids : []) {
    const extra = spare.get(d);
    if (extra === undefined || held.length === scored.length) break;
    held.push(extra);
  }
  return { found: candidates.length, ids, keywords, scores: scored, whole: isWhole, held };
}

/** The first stage's best candidates and the features of each, for bench/tune.ts (which fits the second stage). */
export function rankFeatures(
  index: ToolIndex,
  query: string,
  depth: number,
  groups?: Int32Array,
): { ids: number[]; features: Float32Array } {
  const ix = index as BuiltIndex;
  const first = firstStage(ix, query, () => true, depth);
  if (!('rank' in first)) return { ids: first.ids.slice(), features: new Float32Array(0) };
  const best = top(first.candidates, first.rank, depth);
  const ids = headOf(best, first.rank);
  const rest = best.slice(ids.length);
  const features = candidateFeatures(ix, first.evidence, ids, first.rank, TIER, groups);
  giveRanks(ix, first.rank, first.candidates);
  return { ids: [...ids, ...rest], features };
}

/** The best candidates (`head`, best first) that matched a term (substring-only hits take no part in the second stage). */
function headOf(head: readonly number[], rank: Float64Array): number[] {
  let end = 0;
  while (end < head.length && (rank[head[end] as number] as number) >= TIER) end++;
  return head.slice(0, end);
}

interface FirstStage {
  readonly candidates: number[];
  readonly rank: Float64Array;
  readonly evidence: QueryEvidence;
  readonly keywords: string[];
  /** The candidates holding every known query term (their coverage factor is 1). */
  readonly whole: readonly number[];
  /** The candidates whose name's terms the query all holds, with how many other known query terms it has. */
  readonly spare: ReadonlyMap<number, number>;
}

/** BM25F with coverage and name factors over every visible tool holding a query term, plus the substring floor. */
function firstStage(
  ix: BuiltIndex,
  query: string,
  visible: (id: number) => boolean,
  take: number,
  members?: Uint8Array,
): FirstStage | RankResult {
  const n = ix.size;
  const keywords = queryKeywords(query);
  if (keywords.length === 0) {
    if (query.trim()) return { found: 0, ids: [], keywords };
    const ids: number[] = [];
    let found = 0;
    for (let id = 0; id < n; id++) if (visible(id) && found++ < take) ids.push(id);
    return { found, ids, keywords };
  }
  const acc = acquire(ix);
  const { score, sub, covered, named, seen, touched } = acc;
  // How many tools the query touched: a scratch list, since a long request touches thousands (pushing them grew an
  // array of about 17 KB through copies of half a dozen sizes, every search).
  let touches = 0;
  const parsed = queryTerms(query.slice(0, MAX_CHARS));
  // Repeated query words count once: measured, BM25's query-frequency weight (k3) only hurt, most of all on long requests.
  const terms = [...new Set(parsed)];
  const { start, docs, weights } = ix;
  // The IDF mass of the query's known terms: a tool's share of it says how much of the request it covers, rare words
  // counting for more than common ones (a long request names its tool in its rarest words).
  let mass = 0;
  // The query's own known terms: those a tool's name does not hold are the query's words beyond the name.
  let known = 0;
  const expanded = expand(ix, terms);
  const idf = new Float64Array(terms.length);
  for (const [t, [slot, weight]] of expanded) {
    const df = (start[t + 1] as number) - (start[t] as number);
    const termIdf = idfOf(n, df);
    if (weight === 1) {
      known++;
      mass += termIdf;
      idf[slot] = termIdf;
    } else if (!idf[slot]) idf[slot] = termIdf;
    for (let i = start[t] as number; i < (start[t + 1] as number); i++) {
      const d = docs[i] as number;
      const w = weights[i] as number;
      if (!seen[d]) touched[touches++] = d;
      seen[d] = 1;
      score[d] = (score[d] as number) + weight * termIdf * Math.abs(w);
      // A prefix relative ("rental" for "rent") covers its query term in part.
      covered[d] = (covered[d] as number) + weight * termIdf;
      if (weight === 1 && w < 0) named[d] = (named[d] as number) + 1;
    }
  }
  const { keywords: substrings } = memosOf(ix);
  for (const keyword of keywords) {
    const found = memo(substrings, keyword, (k) => findSubstring(ix.substring, k, n));
    const w = Math.log(1 + n / (found.length || 1));
    for (const d of found) {
      if (!seen[d]) touched[touches++] = d;
      seen[d] = 1;
      sub[d] = (sub[d] as number) + w;
    }
    // A query that is a tool's name finds it first; a sentence that happens to hold a one-word name, much less so.
    for (const d of ix.names.get(keyword) ?? [])
      score[d] = (score[d] as number) + PARAMS.exactName / keywords.length ** 2;
  }
  const { nameBoost, coord, substring } = PARAMS;
  // A table of the coverage factor, because a power per candidate cost as much as the rest of the scoring.
  if (powersOf !== coord) {
    powers = Float64Array.from({ length: STEPS + 1 }, (_, i) => (i / STEPS) ** coord);
    powersOf = coord;
  }
  // At most every tool touched, made at once in its size (see touched) and cut to the visible ones.
  const candidates: number[] = new Array(touches);
  let kept = 0;
  const whole: number[] = [];
  const spare = new Map<number, number>();
  const rank = takeRanks(ix);
  for (let i = 0; i < touches; i++) {
    const d = touched[i] as number;
    const s = score[d] as number;
    if (visible(d)) {
      // Tools whose name the query covers, and tools covering more of the query's weight, rise.
      const names = ix.nameTerms[d] ? Math.min(1, (named[d] as number) / (ix.nameTerms[d] as number)) : 0;
      const cover = mass ? (powers[Math.round(Math.min(1, (covered[d] as number) / mass) * STEPS)] as number) : 1;
      rank[d] = s ? TIER + s * (1 + nameBoost * names) * cover + substring * (sub[d] as number) : (sub[d] as number);
      candidates[kept++] = d;
      // Marked as it is kept, not in a pass of its own over the candidates afterwards (1 to 2 us less a search).
      if (members) members[d] = 1;
      if (mass && (covered[d] as number) >= mass * 0.999) whole.push(d);
      if (names >= 1) spare.set(d, Math.max(0, known - (named[d] as number)));
    }
    score[d] = sub[d] = covered[d] = named[d] = seen[d] = 0;
  }
  candidates.length = kept;
  release(ix, acc);
  const evidence = { slots: expanded, idf, mass, pairs: queryPairs(ix, parsed, (t) => idfOf(n, df(ix, t))) };
  return { candidates, rank, evidence, keywords, whole, spare };
}

// Per index, one array of candidate scores, reused: allocating and zeroing one per query showed in its time.
const rankBuffers = new WeakMap<BuiltIndex, Float64Array>();

/** The index's score array (a fresh one if a `visible` callback re-entered a search); give it back with giveRanks. */
function takeRanks(ix: BuiltIndex): Float64Array {
  const r = rankBuffers.get(ix);
  if (!r) return new Float64Array(ix.size);
  rankBuffers.delete(ix);
  return r;
}

/** Zeroes the scores the query set and keeps the array for the next query. */
function giveRanks(ix: BuiltIndex, rank: Float64Array, candidates: readonly number[]): void {
  for (const d of candidates) rank[d] = 0;
  rankBuffers.set(ix, rank);
}

const STEPS = 4096;
/** (i / STEPS) ** coord, for the coord it was made for. */
let powers = new Float64Array(0);
let powersOf = Number.NaN;

/** BM25's IDF of a term held by df of n tools. */
export const idfOf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * The last query tokenized, its terms and (when asked for) the stopwords it dropped: a search with learning tokenizes
 * its query for the learner, and the ranking then asks for the same query's terms (tokenizing a long request costs
 * about as much as the learner's whole vote).
 */
let last: { query: string; terms: readonly string[]; stops: readonly string[] | undefined } | undefined;

/** The query tokenized: the last one again, or this one (with its stopwords if `stops`), kept as the last. */
function readQuery(query: string, stops: boolean): { terms: readonly string[]; stops: readonly string[] | undefined } {
  if (last?.query === query && (last.stops || !stops)) return last;
  const joined: number[] = [];
  const dropped: string[] | undefined = stops ? [] : undefined;
  const all = tokenize(query, [], joined, dropped);
  const skip = joined.length === 0 ? undefined : new Set(joined);
  const terms = skip ? all.filter((_, i) => !skip.has(i)) : all;
  last = { query, terms, stops: dropped };
  return last;
}

/** The query's terms in order, without the joined forms of its camel-case words (the same array for the same query asked again at once: never changed). */
export const queryTerms = (query: string): readonly string[] => readQuery(query, false).terms;

/**
 * The query's terms (as `queryTerms`) and the stopwords they left out, lower-cased, each once, in order (never
 * changed): a learner's read, after which the ranking's `queryTerms` of the same query tokenizes nothing.
 */
export function queryTermsAndStopwords(query: string): { terms: readonly string[]; stops: readonly string[] } {
  const read = readQuery(query, true);
  return { terms: read.terms, stops: read.stops ?? [] };
}

/** How many tools hold term t. */
const df = (ix: BuiltIndex, t: number): number => (ix.start[t + 1] as number) - (ix.start[t] as number);

/** The `take` best ids by score, ties in catalogue order, without sorting the whole set when `take` is small. */
function top(ids: number[], score: Float64Array, take: number): number[] {
  if (take === 0) return [];
  const better = (a: number, b: number): number => (score[b] as number) - (score[a] as number) || a - b;
  if (take * 8 >= ids.length) return ids.sort(better).slice(0, take);
  const best = ids.slice(0, take).sort(better);
  let last = best[take - 1] as number;
  for (let j = take; j < ids.length; j++) {
    const id = ids[j] as number;
    const s = score[id] as number;
    const l = score[last] as number;
    if (s < l || (s === l && id > last)) continue;
    let i = take - 1;
    while (i > 0 && better(id, best[i - 1] as number) < 0) {
      best[i] = best[i - 1] as number;
      i--;
    }
    best[i] = id;
    last = best[take - 1] as number;
  }
  return best;
}
