// The memory of past requests as the store's shared space keeps it: a head `learn:<scope>:m` naming the first and
// last page, and pages `learn:<scope>:m:<n>` that fill in order. A page holds remembered requests (hashed terms, five
// characters each in one string, the session hashed, the tools by index into the page's own list of names); when the
// pages outgrow the byte bound, the oldest page goes. Plain JSON, every value within what the shared space takes.
import { fnv1a } from '../search/fnv.ts';
import { scopeKey } from './scope-key.ts';

/** The format version of the memory's head and pages. */
export const MEMORY_VERSION = 1;
/** Most terms and tools one remembered request keeps. */
export const MAX_TERMS = 32;
export const MAX_TOOLS = 16;
/** A term's hash as the memory keeps it: 30 bits, five characters of TERM_DIGITS. */
export const TERM_MASK = 0x3fffffff;
const TERM_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
// Each character's digit by its code (-1 for none), so unpacking a page reads no map.
const DIGIT = new Int8Array(128).fill(-1);
for (const [i, c] of [...TERM_DIGITS].entries()) DIGIT[c.charCodeAt(0)] = i;

/** Terms' hashes as one string of five characters each (a third of their decimal JSON). */
export function packTerms(terms: readonly number[]): string {
  let out = '';
  for (const term of terms)
    for (let shift = 24; shift >= 0; shift -= 6) out += TERM_DIGITS[(term >>> shift) & 63] as string;
  return out;
}

/** The hashes of a packed string; an array of numbers (pages written before terms were packed) is read as 30 bits. */
function unpackTerms(terms: unknown): number[] | undefined {
  if (Array.isArray(terms)) return terms.filter((x): x is number => typeof x === 'number').map((x) => x & TERM_MASK);
  if (typeof terms !== 'string' || terms.length % 5 !== 0) return undefined;
  const out: number[] = [];
  for (let i = 0; i < terms.length; i += 5) {
    let term = 0;
    for (let k = 0; k < 5; k++) {
      const digit = DIGIT[terms.charCodeAt(i + k)] ?? -1;
      if (digit < 0) return undefined;
      term = term * 64 + digit;
    }
    out.push(term);
  }
  return out;
}

/** One remembered request: its session (hashed), which request of the session, its terms (hashed), its tools. */
export interface Remembered {
  readonly session: number;
  readonly turn: number;
  readonly terms: readonly number[];
  readonly tools: readonly string[];
}

/**
 * The pages in use: the oldest kept and the one being filled, and the tag of the lane's run (set when the head is
 * first written, gone when the head is deleted): a layer trusts a closed page it read only while the tag is the same.
 */
export interface MemoryHead {
  readonly v: typeof MEMORY_VERSION;
  readonly first: number;
  readonly last: number;
  readonly f?: string;
}

type StoredEntry = readonly [session: number, turn: number, terms: string, tools: readonly number[]];

/**
 * One page: about the bytes it takes, the tool names its entries point to, its entries, and what tells its content
 * apart across layers: a random tag of its filling and a hash chained over its entries in order (pages written before
 * them have neither and are never shared between layers).
 */
interface Page {
  readonly v: typeof MEMORY_VERSION;
  readonly b: number;
  readonly t: readonly string[];
  readonly x: readonly StoredEntry[];
  readonly f?: string;
  readonly h?: number;
}

/** A random tag, for a page's filling or a lane's run: never the same after a clear, in any isolate. */
export const newTag = (): string => Math.random().toString(36).slice(2, 10).padEnd(8, '0');

/** The hash `h` chained with one entry (its tools by name). */
const chain = (h: number, [session, turn, terms, tools]: StoredEntry, names: readonly string[]): number =>
  fnv1a(`${h} ${session} ${turn} ${terms} ${tools.map((i) => names[i]).join('\u0001')}`);

/**
 * How many of a stored page's entries are those of the page as it was when its content was `held` (pageContent): the
 * same filling (its tag), more entries, and its hash chained on from the held one's over the entries past them. 0 when
 * it is not such a later state (another filling, a page rewritten since, one written before tags): a page being filled
 * is read again after every append, and only what was appended need be read.
 */
export function heldPrefix(value: unknown, held: unknown): number {
  if (typeof held !== 'string') return 0;
  const page = readPage(value);
  const [tag, hash, count] = held.split('.');
  const from = Number(count);
  if (page.f !== tag || typeof page.h !== 'number' || !(from > 0) || !(page.x.length > from)) return 0;
  let h = Number(hash);
  for (let i = from; i < page.x.length; i++) {
    const entry: unknown = page.x[i];
    // A malformed entry is read by a whole reload, which skips it: its hash is not for this to compute.
    if (!Array.isArray(entry) || entry.length !== 4 || !Array.isArray(entry[3])) return 0;
    h = chain(h, entry as unknown as StoredEntry, page.t);
  }
  return h === page.h ? from : 0;
}

/**
 * What tells a stored page's content from any other's, across layers and isolates: its filling's tag, the hash of its
 * entries and their number; 'empty' for a missing or unreadable page; undefined for a page written before tags.
 */
export function pageContent(value: unknown): string | undefined {
  const page = readPage(value);
  if (page !== value) return 'empty';
  return typeof page.f === 'string' && typeof page.h === 'number' ? `${page.f}.${page.h}.${page.x.length}` : undefined;
}

/** The key of the head of a scope's memory lane `lane`. */
export const memoryHeadKey = (scope: string, lane: number): string => `${scopeKey(scope)}:m${lane}`;
/**
 * The keys of a scope's memory pages (page `n` of lane `lane`), its start escaped once: a read of the memory names a
 * dozen pages, and escaping the scope for each (a regular expression) was most of what naming them cost.
 */
export function memoryPageKeys(scope: string): (lane: number, n: number) => string {
  const start = `${scopeKey(scope)}:m`;
  return (lane, n) => `${start}${lane}:${n}`;
}

/** The key of page `n` of a scope's memory lane `lane`. */
export const memoryPageKey = (scope: string, lane: number, n: number): string => memoryPageKeys(scope)(lane, n);

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

/** A stored page's requests, those past its first `from` stored entries only when given; anything malformed is skipped. */
export function pageEntries(value: unknown, from = 0): Remembered[] {
  const page = readPage(value);
  const out: Remembered[] = [];
  for (let i = from; i < page.x.length; i++) {
    const entry: unknown = page.x[i];
    if (!Array.isArray(entry) || entry.length !== 4) continue;
    const [session, turn, packed, tools] = entry as unknown[];
    const terms = unpackTerms(packed);
    if (typeof session !== 'number' || typeof turn !== 'number' || !terms || !Array.isArray(tools)) continue;
    const names = tools.map((i) => page.t[i]).filter((name): name is string => typeof name === 'string');
    out.push({ session, turn, terms, tools: names });
  }
  return out;
}

const digits = (x: number): number => String(x).length;
const utf8 = new TextEncoder();

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
  // A page written before tags (or by a version that drops them) is tagged anew, its hash taken over what it holds.
  const tagged = typeof page.f === 'string' && typeof page.h === 'number';
  const f = tagged ? (page.f as string) : newTag();
  let h = tagged ? (page.h as number) : page.x.reduce((sum, entry) => chain(sum, entry, page.t), 0);
  const index = new Map(names.map((name, i) => [name, i]));
  const x = [...page.x];
  let bytes = page.b;
  const left: Remembered[] = [];
  for (const [k, request] of requests.entries()) {
    let size = digits(request.session) + digits(request.turn) + 10 + request.terms.length * 5;
    const fresh = request.tools.filter((tool) => !index.has(tool));
    for (const tool of fresh) size += utf8.encode(JSON.stringify(tool)).length + 1;
    size += request.tools.length * 4;
    if (bytes + size > pageBytes && x.length > 0) {
      left.push(...requests.slice(k));
      break;
    }
    for (const tool of fresh) {
      index.set(tool, names.length);
      names.push(tool);
    }
    const entry: StoredEntry = [
      request.session,
      request.turn,
      packTerms(request.terms),
      request.tools.map((tool) => index.get(tool) as number),
    ];
    x.push(entry);
    h = chain(h, entry, names);
    bytes += size;
  }
  return { page: { v: MEMORY_VERSION, b: bytes, t: names, x, f, h }, left, added: x.length - page.x.length };
}
