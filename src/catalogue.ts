// What the layer derives once per catalogue: the search index, name lookup, group members, visibility.
import { ToolSearchError } from './errors.ts';
import { sameObjects } from './search/cache.ts';
import { getToolIndex, type ToolIndex } from './search/index.ts';
import type { Tool } from './types.ts';

/** Lookups shared by every array with the same names and groups at the same positions. */
export interface CatalogueInfo {
  readonly byName: ReadonlyMap<string, number>;
  readonly groups: ReadonlyMap<string, readonly number[]>;
  /** The tool objects these lookups were made from: the same objects need no further check. */
  readonly source: readonly Tool[];
  /** Each position's name and groups, to check that another array of equal tools has the same ones. */
  readonly signature: readonly string[];
}

/** A round's tools with their index and lookups. */
export interface Catalogue extends CatalogueInfo {
  readonly tools: readonly Tool[];
  readonly index: ToolIndex;
  /** Keys per-catalogue caches; shared by arrays of the same tools. */
  readonly info: CatalogueInfo;
}

const byArray = new WeakMap<readonly Tool[], Catalogue>();
const byIndex = new WeakMap<ToolIndex, CatalogueInfo>();

/** Returns the catalogue of a round's tools, validating them the first time this array is seen. */
export function catalogueOf(tools: readonly Tool[]): Catalogue {
  const known = byArray.get(tools);
  if (known) return known;
  const index = getToolIndex(tools);
  let info = byIndex.get(index);
  // The same objects were validated when first seen; checking 4,000 tools again costs more than a search.
  if (!info || !sameObjects(info.source, tools)) {
    validate(tools);
    // The index is shared by tools with equal searchable text, which says nothing about their groups.
    if (!info || !sameSignature(info, tools)) {
      info = lookupsOf(tools);
      byIndex.set(index, info);
    }
  }
  const catalogue = { tools, index, info, ...info };
  byArray.set(tools, catalogue);
  return catalogue;
}

function validate(tools: readonly Tool[]): void {
  tools.forEach((tool, i) => {
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || tool.name === '') {
      throw new ToolSearchError(`invalid tool at tools[${i}]: a tool is an object with a non-empty string name`);
    }
    if (tool.groups !== undefined && !(Array.isArray(tool.groups) && tool.groups.every((g) => typeof g === 'string'))) {
      throw new ToolSearchError(`invalid tool "${tool.name}" at tools[${i}]: groups must be an array of strings`);
    }
  });
}

const signatureOf = (tool: Tool): string => (tool.groups ? JSON.stringify([tool.name, tool.groups]) : tool.name);

function sameSignature(info: CatalogueInfo, tools: readonly Tool[]): boolean {
  return info.signature.length === tools.length && tools.every((tool, i) => info.signature[i] === signatureOf(tool));
}

function lookupsOf(tools: readonly Tool[]): CatalogueInfo {
  const byName = new Map<string, number>();
  const groups = new Map<string, number[]>();
  const signature = tools.map(signatureOf);
  tools.forEach((tool, i) => {
    if (!byName.has(tool.name)) byName.set(tool.name, i);
    for (const group of tool.groups ?? []) {
      const members = groups.get(group);
      if (members) members.push(i);
      else groups.set(group, [i]);
    }
  });
  return { byName, groups, source: [...tools], signature };
}

/**
 * Which positions the model may see: never the search tool itself; with `enabledGroups`, ungrouped
 * tools and tools with at least one enabled group.
 */
export function visibility(
  tools: readonly Tool[],
  enabledGroups: readonly string[] | undefined,
  searchToolName: string,
): (id: number) => boolean {
  const enabled = enabledGroups && new Set(enabledGroups);
  return (id) => {
    const tool = tools[id];
    if (!tool || tool.name === searchToolName) return false;
    if (!enabled || !tool.groups || tool.groups.length === 0) return true;
    return tool.groups.some((group) => enabled.has(group));
  };
}

/** A cache key for a set of enabled groups (order and repeats do not matter). */
export function groupsKey(enabledGroups: readonly string[] | undefined): string {
  return enabledGroups ? JSON.stringify([...new Set(enabledGroups)].sort()) : '*';
}
