// A search's run: the model's untrusted arguments, the ranking, the page and its hint. Loaded with the first
// search (with the lexical index), so a layer that only exposes tools never loads the ranking.
import * as v from 'valibot';
import type { Tool } from '../base/types.ts';
import { asKeyword, type RankResult, rankTools } from '../search/index.ts';
import type { Catalogue } from './catalogue-types.ts';
import { type SearchErrorResult, type SearchResult, toFoundTool } from './search-tool.ts';
import { format, type Texts } from './texts.ts';

const MAX_QUERY_CHARS = 1000;
const MAX_KEYWORDS = 64;

// null for an optional field is what strict structured outputs send for "not given".
const optionalCount = (min: number) => v.nullish(v.pipe(v.number(), v.integer(), v.minValue(min)));
const argsSchema = v.object({ query: v.string(), limit: optionalCount(1), offset: optionalCount(0) });

/** Arguments as the search runs them, or the error the model gets back. */
export type ParsedArgs =
  | {
      readonly ok: true;
      readonly query: string;
      readonly limit: number | undefined;
      readonly offset: number;
      readonly truncated: boolean;
      /** Argument names the tool does not have; answered with a hint rather than an error. */
      readonly ignored: readonly string[];
    }
  | { readonly ok: false; readonly result: SearchErrorResult };

/** Validates the model's arguments: an object, or a string holding a JSON object. Never throws. */
export function parseSearchArgs(args: unknown, texts: Texts): ParsedArgs {
  const fail = (reason: string): ParsedArgs => ({
    ok: false,
    result: { error: format(texts.argsError, { reason }), hint: texts.argsHint },
  });
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return fail(texts.reasonNotObject);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(texts.reasonNotObject);
  const parsed = v.safeParse(argsSchema, value);
  if (!parsed.success) {
    const key = parsed.issues[0].path?.[0]?.key;
    return fail(key === 'limit' ? texts.reasonLimit : key === 'offset' ? texts.reasonOffset : texts.reasonQuery);
  }
  const { query, truncated } = cutQuery(parsed.output.query);
  const ignored = Object.keys(value).filter((key) => key !== 'query' && key !== 'limit' && key !== 'offset');
  return {
    ok: true,
    query,
    limit: parsed.output.limit ?? undefined,
    offset: parsed.output.offset ?? 0,
    truncated,
    ignored,
  };
}

function cutQuery(query: string): { query: string; truncated: boolean } {
  let cut = query;
  if (cut.length > MAX_QUERY_CHARS) {
    cut = cut.slice(0, MAX_QUERY_CHARS);
    // Never leave half of a surrogate pair at the end.
    if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  }
  // Stopwords and one-letter words are not keywords, so they do not count towards the 64.
  const seen = new Set<string>();
  for (const word of cut.matchAll(/\S+/g)) {
    const keyword = asKeyword(word[0]);
    if (keyword === undefined || seen.has(keyword)) continue;
    if (seen.size === MAX_KEYWORDS) {
      cut = cut.slice(0, word.index).trimEnd();
      break;
    }
    seen.add(keyword);
  }
  return { query: cut, truncated: cut !== query };
}

/** How many of the ranked set a search needs from the top (offset + limit), and the page size; Infinity: no limit. */
export function searchWindow(
  args: Extract<ParsedArgs, { ok: true }>,
  maxSearchResults: number,
): { readonly limit: number; readonly take: number; readonly cap: number } {
  const cap = maxSearchResults === 0 ? Number.POSITIVE_INFINITY : maxSearchResults;
  const limit = Math.min(args.limit ?? cap, cap);
  return { limit, take: args.offset + limit, cap };
}

/**
 * When a search may return fewer than the cap: `'best'` keeps the tools scoring at least `ratio` times the best,
 * `'gap'` stops at the first tool scoring under `ratio` times the one before it; with `whole`, a first tool that
 * holds every query term the catalogue knows stands alone when the second scores under `whole` times it; and with
 * `held`, when the first tool holds every query term, the page stops after the first tools in a row whose name's terms
 * the query all holds with at most `held` other known terms (RankResult.held).
 */
export interface ConfidentCut {
  readonly rule: 'best' | 'gap';
  readonly ratio: number;
  readonly whole?: number;
  readonly held?: number;
}

/**
 * How many of a ranking's first tools a search without `limit` returns (at least 1, at most `cap`), from the
 * ranking's own scores: a tool without a score (a substring-only hit) scores 0; no scores at all (another ranking
 * reordered the page) means no confidence, so the whole cap.
 */
export function confidentCount(
  scores: readonly number[],
  cap: number,
  cut: ConfidentCut,
  whole = false,
  held: readonly number[] = [],
): number {
  if (scores.length === 0) return cap;
  const best = scores[0] as number;
  if (whole && cut.whole !== undefined && (scores[1] ?? 0) < cut.whole * best) return 1;
  let k = 1;
  while (k < cap) {
    const next = scores[k] ?? 0;
    const bar = cut.rule === 'best' ? best : (scores[k - 1] as number);
    if (next < cut.ratio * bar) break;
    k++;
  }
  if (cut.held === undefined) return k;
  let n = 0;
  while (n < held.length && (held[n] as number) <= cut.held) n++;
  return n > 0 ? Math.min(k, n) : k;
}

/**
 * The cut searches ship, fitted by bench/result-page.ts under leave-one-set-out on the labelled sets: a page without
 * `limit` stops at the first tool scoring under a quarter of the one before it, and is the first tool alone when that
 * tool holds every query term and the second scores under half of it, and, when the first tool holds every query
 * term, stops after the first tools in a row whose whole name the query holds with at most 2 other words ("list open
 * issues in a repository": list_issues). No held-out set lost a point of the recall of the page of five.
 */
export const CONFIDENT_CUT: ConfidentCut = { rule: 'gap', ratio: 0.25, whole: 0.5, held: 2 };

/**
 * The ids of a search's page: `offset` onwards, at most `limit` of them; a first page the model asked no `limit` of
 * stops where the ranking is confident (SPEC 14: maxSearchResults is an upper bound). Later pages are not cut, so
 * paging on from `nextOffset` gives the next tools of the same order.
 */
export function pageIds(
  args: Extract<ParsedArgs, { ok: true }>,
  maxSearchResults: number,
  ranked: RankResult,
): { readonly ids: readonly number[]; readonly cut: boolean } {
  const { take, cap } = searchWindow(args, maxSearchResults);
  const cut = args.limit === undefined && args.offset === 0 && Number.isFinite(cap) && ranked.scores;
  const end = cut
    ? confidentCount(ranked.scores as readonly number[], cap, CONFIDENT_CUT, ranked.whole, ranked.held)
    : take;
  return { ids: ranked.ids.slice(args.offset, end), cut: Boolean(cut) && end < ranked.ids.length };
}

/** Ranks a parsed search with the built-in ranking alone: the top `take` ids, `found`, the keywords that counted. */
export function rankSearch(
  catalogue: Catalogue,
  visible: (id: number) => boolean,
  query: string,
  take: number,
  members?: Uint8Array,
): RankResult {
  return rankTools(catalogue.index, query, { visible, members, ...(Number.isFinite(take) && { take }) });
}

/** Turns a ranking of a parsed search into the result: the page, pagination and hint, with `related` (see related.ts). */
export function runSearch(
  catalogue: Catalogue,
  args: Extract<ParsedArgs, { ok: true }>,
  maxSearchResults: number,
  texts: Texts,
  ranked: RankResult,
): SearchResult {
  const { limit, cap } = searchWindow(args, maxSearchResults);
  const { offset } = args;
  const { ids, cut } = pageIds(args, maxSearchResults, ranked);
  const { found } = ranked;
  const tools = ids.map((id) => toFoundTool(catalogue.tools[id] as Tool));
  const nextOffset = offset + ids.length < found && ids.length > 0 ? offset + ids.length : null;
  const paged = offset > 0 || ids.length < found;
  const hints: string[] = args.truncated ? [texts.hintTruncated] : [];
  if (args.ignored.length > 0) hints.push(format(texts.hintIgnored, { keys: args.ignored.join(', ') }));
  if (args.limit !== undefined && args.limit > cap) hints.push(format(texts.hintCapped, { max: cap }));
  if (found === 0)
    hints.push(ranked.keywords.length === 0 && args.query.trim() !== '' ? texts.hintNoKeywords : texts.hintNone);
  else if (ids.length === 0) hints.push(format(texts.hintPastEnd, { offset, found }));
  else hints.push(format(texts.hintFound, { found, count: ids.length }));
  if (nextOffset !== null) hints.push(format(texts.hintMore, { remaining: found - nextOffset, nextOffset }));
  // A page cut by confidence says its own size, so that offset + limit is where the next page starts.
  const size = cut || !Number.isFinite(limit) ? ids.length : limit;
  return {
    found,
    tools,
    ...(paged && { pagination: { offset, limit: size, total: found, nextOffset } }),
    // `related` is added by the layer's search when the catalogue has groups and it names a tool (see related.ts).
    hint: hints.join(' '),
  };
}

export { getToolIndex } from '../search/index.ts';
export { markShown } from './shown.ts';
