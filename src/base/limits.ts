// The bounds on everything a model or a third-party catalogue controls, in one place (docs/core.md explains each).

/** Characters of a called name the layer reads: a longer name is no tool's, and is echoed cut to this. */
export const MAX_CALLED_NAME = 256;
/** Characters of a called name compared by edit distance: providers cap tool names at 64 or 128. */
export const MAX_SPELLING = 64;
/** Characters of a description (with the host's keywords) that the index reads; the tool still carries all of it. */
export const MAX_INDEXED_DESCRIPTION = 8192;
/** Characters of a schema's parameter texts that the index reads. */
export const MAX_INDEXED_SCHEMA_TEXT = 8192;
/** Characters of one search result kept parsed between rounds; a longer one is parsed again when read. */
export const MAX_PARSED_RESULT = 65_536;
/** Characters of texts kept parsed between rounds, per cache, all sessions together (8 to 16 MB): a history of
 * 10,000 messages holds about 4.5 million characters of search results. */
export const MAX_PARSED_TOTAL = 8_000_000;
/** Sessions held in memory while their store fails; the least recently used is dropped past this. */
export const MAX_FALLBACK_SESSIONS = 10_000;

/** Cuts text to `max` characters, never leaving half a surrogate pair at the end. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = text.charCodeAt(max - 1);
  return text.slice(0, end >= 0xd800 && end <= 0xdbff ? max - 1 : max);
}

const serialisable = new WeakMap<object, boolean>();

/** The parameters a result may carry: the host's own object, or null when JSON cannot carry it (a cycle, a BigInt). */
export function jsonSafe<T>(parameters: T): T | null {
  if (typeof parameters !== 'object' || parameters === null) return parameters;
  let ok = serialisable.get(parameters);
  if (ok === undefined) {
    try {
      JSON.stringify(parameters);
      ok = true;
    } catch {
      ok = false;
    }
    serialisable.set(parameters, ok);
  }
  return ok ? parameters : null;
}
