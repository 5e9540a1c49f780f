// The memory of past requests as the store's shared space keeps it: a head `learn:<scope>:m` naming the first and
// last page, and pages `learn:<scope>:m:<n>` that fill in order. A page holds remembered requests (hashed terms, the
// session hashed, the tools by index into the page's own list of names); when the pages outgrow the byte bound, the
// oldest page goes. Plain JSON, every value within what the shared space takes.
import { scopeKey } from './scope-key.ts';

/** The format version of the memory's head and pages. */
export const MEMORY_VERSION = 1;
/** Most terms and tools one remembered request keeps. */
export const MAX_TERMS = 32;
export const MAX_TOOLS = 16;

/** One remembered request: its session (hashed), which request of the session, its terms (hashed), its tools. */
export interface Remembered {
  readonly session: number;
  readonly turn: number;
  readonly terms: readonly number[];
  readonly tools: readonly string[];
}

/** The pages in use: the oldest kept and the one being filled. */
export interface MemoryHead {
  readonly v: typeof MEMORY_VERSION;
  readonly first: number;
  readonly last: number;
}

type StoredEntry = readonly [session: number, turn: number, terms: readonly number[], tools: readonly number[]];

/** One page: about the bytes it takes, the tool names its entries point to, and its entries. */
interface Page {
  readonly v: typeof MEMORY_VERSION;
  readonly b: number;
  readonly t: readonly string[];
  readonly x: readonly StoredEntry[];
}

/** The key of the head of a scope's memory lane `lane`. */
export const memoryHeadKey = (scope: string, lane: number): string => `${scopeKey(scope)}:m${lane}`;
/** The key of page `n` of a scope's memory lane `lane`. */
export const memoryPageKey = (scope: string, lane: number, n: number): string => `${scopeKey(scope)}:m${lane}:${n}`;

/** Lanes at most: each write appends to one lane's page, picked at random, so no key takes every write. */
export const MAX_LANES = 4;

/**
 * The layout a byte bound allows: pages of at most 90 KB, in up to four lanes of at least two pages each (a lane
 * fills its pages in order and drops its oldest when full).
 */
export function pageLayout(maxBytes: number): { pageBytes: number; lanes: number; pagesPerLane: number } {
  const pageBytes = Math.min(90_000, Math.max(4_000, Math.floor(maxBytes / 4)));
  const pages = Math.max(2, Math.floor(maxBytes / pageBytes));
  const lanes = Math.min(MAX_LANES, Math.max(1, Math.floor(pages / 2)));
  return { pageBytes, lanes, pagesPerLane: Math.floor(pages / lanes) };
}

/** A stored value as a head; anything else reads as an empty memory. */
export function readMemoryHead(value: unknown): MemoryHead {
  const head = value as Partial<MemoryHead> | undefined;
  return head?.v === MEMORY_VERSION && Number.isInteger(head.first) && Number.isInteger(head.last)
    ? (head as MemoryHead)
    : { v: MEMORY_VERSION, first: 0, last: 0 };
}

function readPage(value: unknown): Page {
  const page = value as Partial<Page> | undefined;
  return page?.v === MEMORY_VERSION && Array.isArray(page.t) && Array.isArray(page.x)
    ? (page as Page)
    : { v: MEMORY_VERSION, b: 0, t: [], x: [] };
}

/** A stored page's requests; anything malformed is skipped. */
export function pageEntries(value: unknown): Remembered[] {
  const page = readPage(value);
  const out: Remembered[] = [];
  for (const entry of page.x) {
    if (!Array.isArray(entry) || entry.length !== 4) continue;
    const [session, turn, terms, tools] = entry;
    if (typeof session !== 'number' || typeof turn !== 'number' || !Array.isArray(terms) || !Array.isArray(tools))
      continue;
    const names = tools.map((i) => page.t[i]).filter((name): name is string => typeof name === 'string');
    out.push({ session, turn, terms: terms.filter((x) => typeof x === 'number'), tools: names });
  }
  return out;
}

const digits = (x: number): number => String(x).length;

/**
 * Appends requests to a page while it stays within `pageBytes` (a pure change, safe to replay onto a fresher value).
 * Returns the page and the requests that did not fit, for the next page.
 */
export function appendToPage(
  value: unknown,
  requests: readonly Remembered[],
  pageBytes: number,
): { page: Page; left: Remembered[]; added: number } {
  const page = readPage(value);
  const names = [...page.t];
  const index = new Map(names.map((name, i) => [name, i]));
  const x = [...page.x];
  let bytes = page.b;
  const left: Remembered[] = [];
  for (const [k, request] of requests.entries()) {
    let size = digits(request.session) + digits(request.turn) + 8;
    for (const term of request.terms) size += digits(term) + 1;
    const fresh = request.tools.filter((tool) => !index.has(tool));
    for (const tool of fresh) size += tool.length * 3 + 3;
    size += request.tools.length * 4;
    if (bytes + size > pageBytes && x.length > 0) {
      left.push(...requests.slice(k));
      break;
    }
    for (const tool of fresh) {
      index.set(tool, names.length);
      names.push(tool);
    }
    x.push([request.session, request.turn, request.terms, request.tools.map((tool) => index.get(tool) as number)]);
    bytes += size;
  }
  return { page: { v: MEMORY_VERSION, b: bytes, t: names, x }, left, added: x.length - page.x.length };
}
