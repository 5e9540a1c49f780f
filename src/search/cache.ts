import type { Tool } from '../base/types.ts';
import { type BuiltIndex, buildIndex, type ToolIndex } from './build.ts';
import { type Fields, toolFields } from './fields.ts';
import { sameObjects } from './same-objects.ts';

// Adapters rebuild their tool arrays every step, and a Worker may create a layer per request:
// a few recent catalogues are kept module-wide, matched by array, by tool objects, then by content.
const LIMIT = 4;

interface Entry {
  readonly tools: readonly Tool[];
  readonly index: BuiltIndex;
}

let recent: Entry[] | undefined;

const sameFields = (a: readonly Fields[], b: readonly Fields[]): boolean =>
  a.length === b.length && a.every((f, i) => f.every((text, j) => text === b[i]?.[j]));

/** Puts an index made elsewhere (a loaded serialised one) in the cache as the most recent, for these tools. */
export function seedToolIndex(tools: readonly Tool[], index: BuiltIndex): void {
  recent = [{ tools: tools.slice(), index }, ...(recent ?? []).filter((e) => e.index !== index)].slice(0, LIMIT);
}

/** Returns the index for these tools, reusing a cached one for the same array, a new array of the same tool objects, or equal tools. */
export function getToolIndex(tools: readonly Tool[]): ToolIndex {
  recent ??= [];
  let entry = recent.find((e) => e.tools === tools) ?? recent.find((e) => sameObjects(e.tools, tools));
  if (!entry) {
    const fields = tools.map(toolFields);
    // The size first: a loaded index reads its fields only when asked, and only an equal count can match.
    const equal = recent.find((e) => e.index.size === fields.length && sameFields(e.index.fields, fields));
    entry = { tools: tools.slice(), index: equal ? equal.index : buildIndex(tools, fields) };
  }
  // Most recently used first; the least recently used falls off the end.
  recent = [entry, ...recent.filter((e) => e !== entry)].slice(0, LIMIT);
  return entry.index;
}
