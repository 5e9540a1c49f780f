// The learned credits of one scope, as the store's shared space keeps them: plain JSON, bounded, fading.
import type { ResolvedLearn } from './options.ts';

/** The format version of a stored table. */
export const TABLE_VERSION = 1;

/**
 * A scope's credits. `u` counts the sessions' additions (the clock credit fades by); `n[x]` is
 * [sessions whose search held term x, when last touched]; `t[tool][x]` is [summed credit, sessions that gave it,
 * when last touched]. Every count fades by half each `halfLife` additions, from when it was last touched.
 */
export interface CreditTable {
  readonly v: typeof TABLE_VERSION;
  readonly u: number;
  readonly n: Readonly<Record<string, readonly [number, number]>>;
  readonly t: Readonly<Record<string, Readonly<Record<string, readonly [number, number, number]>>>>;
}

/** What one session adds: credit per (tool, term), the pairs it credits for the first time, the terms it first searched. */
export interface CreditDelta {
  readonly credit: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly newPairs: ReadonlyMap<string, ReadonlySet<string>>;
  readonly newTerms: ReadonlySet<string>;
}

/** Keeps tables well under the smallest shared value a store takes (100 KB of JSON). */
export const MAX_TABLE_BYTES = 90_000;

/** A key's own value: catalogue names and query terms can be "constructor" or "__proto__". */
export const own = <V>(record: Readonly<Record<string, V>>, key: string): V | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

const empty = (): CreditTable => ({ v: TABLE_VERSION, u: 0, n: {}, t: {} });
const round = (x: number): number => Math.round(x * 1000) / 1000;

/** A stored value as a table; anything else (another version, a foreign value) reads as an empty table. */
export function readTable(value: unknown): CreditTable {
  if (typeof value !== 'object' || value === null) return empty();
  const table = value as Partial<CreditTable>;
  if (table.v !== TABLE_VERSION || typeof table.u !== 'number' || typeof table.n !== 'object' || !table.n)
    return empty();
  if (typeof table.t !== 'object' || !table.t) return empty();
  return table as CreditTable;
}

/** How much of a count touched at `at` is left at clock `u`. */
export function fade(u: number, at: number, halfLife: number): number {
  return u <= at ? 1 : 2 ** (-(u - at) / halfLife);
}

/** Adds one session's delta to a table (a pure change, safe to replay onto a fresher value), then bounds it. */
export function addDelta(value: unknown, delta: CreditDelta, options: ResolvedLearn): CreditTable {
  const table = readTable(value);
  const u = table.u + 1;
  const { halfLife } = options;
  // Maps while changing, objects made with fromEntries: assigning a "__proto__" key would set a prototype.
  const n = new Map(Object.entries(table.n));
  for (const term of delta.newTerms) {
    const [count, at] = n.get(term) ?? [0, u];
    n.set(term, [round(count * fade(u, at, halfLife) + 1), u]);
  }
  const t = new Map(Object.entries(table.t));
  for (const [tool, terms] of delta.credit) {
    const entries = new Map(Object.entries(t.get(tool) ?? {}));
    const fresh = delta.newPairs.get(tool);
    for (const [term, credit] of terms) {
      const [c, m, at] = entries.get(term) ?? [0, 0, u];
      const left = fade(u, at, halfLife);
      const sum = Math.max(0, c * left + credit);
      entries.set(term, [round(sum), round(m * left + (fresh?.has(term) ? 1 : 0)), u]);
    }
    t.set(tool, Object.fromEntries(entries));
  }
  return bound({ v: TABLE_VERSION, u, n: Object.fromEntries(n), t: Object.fromEntries(t) }, options);
}

/** A count at the table's clock. */
const now = (table: CreditTable, count: number, at: number, halfLife: number) => count * fade(table.u, at, halfLife);

/** Keeps the most credited terms per tool and tools per table, within MAX_TABLE_BYTES; drops terms no tool holds. */
function bound(table: CreditTable, options: ResolvedLearn): CreditTable {
  const { halfLife, maxTermsPerTool, maxTools } = options;
  const tools = Object.entries(table.t).map(([tool, entries]) => {
    let kept = Object.entries(entries).filter(([, [c]]) => c > 0);
    if (kept.length > maxTermsPerTool) {
      kept = kept
        .sort(([, a], [, b]) => now(table, b[0], b[2], halfLife) - now(table, a[0], a[2], halfLife))
        .slice(0, maxTermsPerTool);
    }
    const weight = kept.reduce((sum, [, [c, , at]]) => sum + now(table, c, at, halfLife), 0);
    return { tool, kept, weight };
  });
  tools.sort((a, b) => b.weight - a.weight || (a.tool < b.tool ? -1 : 1));
  const t: [string, Record<string, readonly [number, number, number]>][] = [];
  const held = new Set<string>();
  // About the JSON size of each entry, so a table never needs a JSON.stringify to be measured.
  let bytes = 40;
  for (const { tool, kept } of tools.slice(0, maxTools)) {
    if (kept.length === 0) continue;
    const size = kept.reduce((sum, [term]) => sum + term.length + 28, tool.length + 6);
    // A quarter of the budget is left for the terms' counts.
    if (bytes + size > MAX_TABLE_BYTES * 0.75) break;
    bytes += size;
    t.push([tool, Object.fromEntries(kept)]);
    for (const [term] of kept) held.add(term);
  }
  const n: [string, readonly [number, number]][] = [];
  for (const term of held) {
    const entry = own(table.n, term);
    if (entry) n.push([term, entry]);
  }
  return { v: TABLE_VERSION, u: table.u, n: Object.fromEntries(n), t: Object.fromEntries(t) };
}
