// Texts of the history parsed once: search results and bridged calls repeat in every round's history.
import { MAX_PARSED_RESULT, MAX_PARSED_TOTAL } from './limits.ts';

/** Most texts one cache keeps parsed, whatever their size: each entry costs about 100 bytes besides its text. */
const MAX_ENTRIES = 20_000;

/**
 * A parse kept per text, bounded by characters as well as entries; a text past MAX_PARSED_RESULT is parsed again
 * when read, since holding megabytes for one history is worse. Eviction is random, not oldest first: every round
 * reads the whole history in order, and an oldest-first cache smaller than that history would miss every time.
 */
export function parsedOnce<T>(parse: (text: string) => T): (text: string) => T {
  const parsed = new Map<string, T>();
  const keys: string[] = [];
  let held = 0;
  let seed = 0x9e3779b9;
  const evictOne = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const at = (seed >>> 0) % keys.length;
    const key = keys[at] as string;
    keys[at] = keys[keys.length - 1] as string;
    keys.pop();
    parsed.delete(key);
    held -= key.length;
  };
  return (text) => {
    if (parsed.has(text)) return parsed.get(text) as T;
    const value = parse(text);
    if (text.length > MAX_PARSED_RESULT) return value;
    while (keys.length > 0 && (held + text.length > MAX_PARSED_TOTAL || keys.length >= MAX_ENTRIES)) evictOne();
    parsed.set(text, value);
    keys.push(text);
    held += text.length;
    return value;
  };
}

/** A search result's tool names, and those of them it carried in full (not marked `shown`, no compact summary). */
export interface ResultNames {
  readonly names: readonly string[];
  readonly full: readonly string[];
}

const NONE: ResultNames = { names: [], full: [] };

function parseNames(content: string): ResultNames {
  try {
    const tools = (JSON.parse(content) as { tools?: unknown } | null)?.tools;
    if (!Array.isArray(tools)) return NONE;
    const names: string[] = [];
    const full: string[] = [];
    for (const tool of tools as ({ name?: unknown; shown?: unknown; parameters?: unknown } | null)[]) {
      if (typeof tool?.name !== 'string') continue;
      names.push(tool.name);
      if (tool.shown === undefined && typeof tool.parameters !== 'string') full.push(tool.name);
    }
    return { names, full };
  } catch {
    return NONE; // not JSON: skipped, as the spec asks
  }
}

const searchResults = parsedOnce(parseNames);

/**
 * The tool names of a search result's content, and those it carried with their whole definitions; anything that is
 * not a result's JSON reads as none.
 */
export const namesInResult = (content: unknown): ResultNames =>
  typeof content === 'string' ? searchResults(content) : NONE;
