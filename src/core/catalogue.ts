// What the layer derives once per catalogue: hygiene findings, name lookup, group members, the search index.

import { SEARCH_TOOL_NAME } from '../base/names.ts';
import type { Tool } from '../base/types.ts';
import type { ToolIndex } from '../search/index.ts';
import { sameObjects } from '../search/same-objects.ts';
import type { Catalogue, CatalogueInfo, ForeignShape } from './catalogue-types.ts';
import { indexOf } from './search-loader.ts';

export type { Catalogue, CatalogueInfo, ForeignShape } from './catalogue-types.ts';

// Adapters rebuild their arrays every step, so findings are also found by the objects they hold, then by signature.
const RECENT = 4;
const infoByArray = new WeakMap<readonly unknown[], CatalogueInfo>();
const byArray = new WeakMap<readonly Tool[], Catalogue>();
/**
 * The catalogue last made for each findings: a new array of the same tool objects takes it, so what is kept per
 * catalogue (the index, a learned term's resolution) stands across an adapter's steps. Without it a search with
 * learning resolved every term again at each step: about 0.06 ms more a search at 4,076 tools.
 */
const byInfo = new WeakMap<CatalogueInfo, Catalogue>();
let recent: CatalogueInfo[] = [];

/** Returns the findings of a round's tools: which entries are kept, and the warnings for the rest. Cheap: no index is built. */
export function inspect(tools: readonly Tool[]): CatalogueInfo {
  let info = infoByArray.get(tools);
  if (info) return info;
  info = recent.find((r) => sameObjects(r.source as readonly Tool[], tools));
  if (!info) {
    const signature = signaturesOf(tools);
    info = recent.find((r) => sameStrings(r.signature, signature)) ?? findingsOf(tools, signature);
  }
  const found = info;
  recent = [found, ...recent.filter((r) => r !== found)].slice(0, RECENT);
  infoByArray.set(tools, found);
  return found;
}

/** Returns the catalogue of a round's tools, with the index built over the whole array (skipped positions are never visible). */
export function catalogueOf(tools: readonly Tool[]): Catalogue {
  const known = byArray.get(tools);
  if (known) return known;
  const info = inspect(tools);
  const prior = byInfo.get(info);
  if (prior && sameObjects(prior.tools, tools)) {
    byArray.set(tools, prior);
    return prior;
  }
  let index: ToolIndex | undefined;
  const catalogue: Catalogue = {
    tools,
    get index() {
      index ??= indexOf(tools);
      return index;
    },
    info,
    ...info,
  };
  byArray.set(tools, catalogue);
  byInfo.set(info, catalogue);
  return catalogue;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The name of an entry in the OpenAI shape `{ type: 'function', function: { name } }`, else undefined. */
function openAiName(entry: Record<string, unknown>): string | undefined {
  const fn = entry.type === 'function' && isRecord(entry.function) ? entry.function.name : undefined;
  return typeof fn === 'string' ? fn : undefined;
}

const article = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : /^[aeiou]/.test(typeof value)
        ? `an ${typeof value}`
        : `a ${typeof value}`;

/** Why an entry is skipped, with `#` for its position; undefined for a valid tool. */
function problem(entry: unknown): string | undefined {
  if (!isRecord(entry)) return `tools[#] is skipped: a tool is an object, and this entry is ${article(entry)}`;
  const { name, groups } = entry;
  if (typeof name !== 'string' || name === '') {
    const fn = openAiName(entry);
    if (fn !== undefined)
      return `tools[#] ("${fn}") is skipped: it has the OpenAI shape { type: 'function', function } and no name of its own`;
    const has = name === '' ? 'an empty name' : name === undefined ? 'no name' : `${article(name)} as its name`;
    return `tools[#] is skipped: a tool needs a non-empty string name, and this one has ${has}`;
  }
  if (groups !== undefined && !(Array.isArray(groups) && groups.every((g) => typeof g === 'string')))
    return `tools[#] ("${name}") is skipped: its groups must be an array of strings`;
  return undefined;
}

const isMcpShape = (tool: Record<string, unknown>): boolean => 'inputSchema' in tool && tool.parameters === undefined;

/**
 * Each position's findings as two strings, pushed: equal signatures at every position mean equal findings. A valid
 * tool's name stands alone (a skipped entry's reason starts with \0, and a name that does too is prefixed), then its
 * only group, or '' for none; more groups, an MCP shape, or a group that could pass for an encoded form are
 * length-prefixed. No string is joined for a plain tool: JSON here was most of a cold start's first inspection.
 */
function signaturesOf(tools: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const entry of tools) {
    const skip = problem(entry);
    if (skip !== undefined) {
      out.push(`\0${skip}`, '');
      continue;
    }
    const tool = entry as Record<string, unknown>;
    const name = tool.name as string;
    out.push(name.charCodeAt(0) === 0 ? `\0\0${name}` : name);
    const groups = (tool.groups as readonly string[] | undefined) ?? [];
    const mcp = isMcpShape(tool);
    const only = groups.length === 1 ? (groups[0] as string) : undefined;
    if (!mcp && groups.length === 0) out.push('');
    else if (!mcp && only && only.charCodeAt(0) > 1) out.push(only);
    else {
      let signature = `\u0001${mcp ? 1 : 0}`;
      for (const group of groups) signature += `${group.length}:${group}`;
      out.push(signature);
    }
  }
  return out;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The per-layer warning for tools in a foreign shape, naming the adapter that converts them. */
export function shapeWarning(shape: ForeignShape): string {
  return shape === 'mcp'
    ? "tools carry an MCP inputSchema but no parameters, so their parameters are neither searched nor returned; convert MCP tools with the adapter 'tool-search-layer/mcp'"
    : "tools in the OpenAI shape { type: 'function', function } are skipped; convert them with the adapter 'tool-search-layer/openai'";
}

function findingsOf(tools: readonly Tool[], signature: readonly string[]): CatalogueInfo {
  const byName = new Map<string, number>();
  const groups = new Map<string, number[]>();
  const kept = new Uint8Array(tools.length);
  const skipped: string[] = [];
  const shapes = new Set<ForeignShape>();
  let counted = 0;
  tools.forEach((entry: unknown, i) => {
    const skip = problem(entry);
    if (skip !== undefined) {
      if (isRecord(entry) && openAiName(entry) !== undefined) shapes.add('openai');
      skipped.push(skip.replace('#', String(i)));
      return;
    }
    const tool = entry as Tool;
    const first = byName.get(tool.name);
    if (first !== undefined) {
      skipped.push(`tools[${i}] ("${tool.name}") is skipped: it repeats the name of tools[${first}], which is kept`);
      return;
    }
    if (isMcpShape(tool)) shapes.add('mcp');
    kept[i] = 1;
    byName.set(tool.name, i);
    if (tool.name !== SEARCH_TOOL_NAME) counted++;
    const own = tool.groups ?? [];
    // A Set per tool showed in a cold start; most tools have a group or two, and a long list is deduplicated by a Set.
    const distinct = own.length > 8 ? [...new Set(own)] : own;
    for (let k = 0; k < distinct.length; k++) {
      const group = distinct[k] as string;
      if (distinct !== own || own.indexOf(group) === k) {
        const members = groups.get(group);
        if (members) members.push(i);
        else groups.set(group, [i]);
      }
    }
  });
  return { byName, groups, kept, counted, skipped, shapes: [...shapes], source: [...tools], signature };
}

const isToolArray = (source: readonly Tool[] | Pick<Catalogue, 'tools' | 'kept'>): source is readonly Tool[] =>
  Array.isArray(source);

/**
 * Which positions the model may see: only kept entries, never the search tool itself; with `enabledGroups`,
 * ungrouped tools and tools with at least one enabled group.
 */
export function visibility(
  source: readonly Tool[] | Pick<Catalogue, 'tools' | 'kept'>,
  enabledGroups: readonly string[] | undefined,
  searchToolName: string,
): (id: number) => boolean {
  // An array (the adapters' converted tools) is inspected here: cached per array, so it costs one lookup.
  const { tools, kept } = isToolArray(source) ? { tools: source, kept: inspect(source).kept } : source;
  const mask = maskOf(tools, kept, enabledGroups, searchToolName);
  return (id) => mask[id] === 1;
}

/**
 * Visibility masks kept per findings (their `kept` array), for their last few group selections. A search asks
 * visibility of every tool its terms touch, thousands at a time: reading each tool's object for that cost about as
 * much as the ranking. An adapter's new array of the same tools has the same findings (equal names and groups at
 * every position, which is all a mask reads), so it takes the same masks instead of reading every tool again.
 */
const MASKS_KEPT = 8;
const masks = new WeakMap<Uint8Array, Map<string, Uint8Array>>();

function maskOf(
  tools: readonly Tool[],
  kept: Uint8Array,
  enabledGroups: readonly string[] | undefined,
  searchToolName: string,
): Uint8Array {
  let byKey = masks.get(kept);
  if (!byKey) {
    byKey = new Map();
    masks.set(kept, byKey);
  }
  const key = `${searchToolName}\n${groupsKey(enabledGroups)}`;
  const known = byKey.get(key);
  if (known) return known;
  const enabled = enabledGroups && new Set(enabledGroups);
  const mask = new Uint8Array(tools.length);
  for (let id = 0; id < tools.length; id++) {
    const tool = tools[id] as Tool;
    if (kept[id] !== 1 || tool.name === searchToolName) continue;
    if (!enabled || !tool.groups || tool.groups.length === 0 || tool.groups.some((group) => enabled.has(group)))
      mask[id] = 1;
  }
  if (byKey.size >= MASKS_KEPT) byKey.delete(byKey.keys().next().value as string);
  byKey.set(key, mask);
  return mask;
}

/** A cache key for a set of enabled groups (order and repeats do not matter). */
export function groupsKey(enabledGroups: readonly string[] | undefined): string {
  return enabledGroups ? JSON.stringify([...new Set(enabledGroups)].sort()) : '*';
}
