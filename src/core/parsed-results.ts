// The names a search_tools result returned, parsed once: results repeat in every round's history.
import { MAX_PARSED_RESULT, MAX_PARSED_TOTAL } from './limits.ts';

/** Most results kept parsed, whatever their size: each entry costs about 100 bytes besides its text. */
const MAX_ENTRIES = 20_000;

// Bounded by characters as well as entries. Eviction is random, not oldest first: every round reads the whole
// history in order, and an oldest-first cache smaller than that history would miss on every result, every round.
const parsed = new Map<string, readonly string[]>();
const keys: string[] = [];
let held = 0;
let seed = 0x9e3779b9;

function evictOne(): void {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  const at = (seed >>> 0) % keys.length;
  const key = keys[at] as string;
  keys[at] = keys[keys.length - 1] as string;
  keys.pop();
  parsed.delete(key);
  held -= key.length;
}

function parseNames(content: string): readonly string[] {
  try {
    const tools = (JSON.parse(content) as { tools?: unknown } | null)?.tools;
    if (!Array.isArray(tools)) return [];
    return tools
      .map((tool: { name?: unknown } | null) => tool?.name)
      .filter((name): name is string => typeof name === 'string');
  } catch {
    return []; // not JSON: skipped, as the spec asks
  }
}

/** The tool names of a search result's content; anything that is not a result's JSON reads as none. */
export function namesInSearchResult(content: unknown): readonly string[] {
  if (typeof content !== 'string') return [];
  const cached = parsed.get(content);
  if (cached) return cached;
  const names = parseNames(content);
  // A result past the per-entry bound is parsed again when read: holding megabytes for one history is worse.
  if (content.length > MAX_PARSED_RESULT) return names;
  while (keys.length > 0 && (held + content.length > MAX_PARSED_TOTAL || keys.length >= MAX_ENTRIES)) evictOne();
  parsed.set(content, names);
  keys.push(content);
  held += content.length;
  return names;
}
