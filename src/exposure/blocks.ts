// The bridge's tools blocks, [search_tools, call_tool, ...direct tools], built once per catalogue and group
// set and shared by every session, and the checks that decide whether a session may keep the block it was sent.

import { CALL_TOOL_NAME } from '../base/names.ts';
import type { Tool } from '../base/types.ts';
import type { Catalogue, CatalogueInfo } from '../core/catalogue.ts';
import { listedTools } from '../core/expose.ts';
import { namesList } from '../core/names-list.ts';
import { searchToolDefinition } from '../core/search-tool.ts';
import type { ExposureSettings } from './mode.ts';
import { type BridgeTexts, textsWith } from './texts.ts';

/** One tools block and what it names: the tools it lists by name and the direct tools it carries. */
export interface Block {
  readonly tools: readonly Tool[];
  readonly listed: readonly string[];
  readonly direct: readonly Tool[];
}

/** The block of a round: its catalogue, which of its tools are visible, and the key of its enabled groups. */
export type BlockOf = (catalogue: Catalogue, visible: (id: number) => boolean, key: string) => Block;

const KEPT = 16;

/** Sets a key in a small map that forgets its oldest entry past KEPT. */
function keep<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= KEPT) map.delete(map.keys().next().value as K);
  map.set(key, value);
  return value;
}

/** Builds the call_tool definition. */
export function callToolDefinition(texts: BridgeTexts): Tool {
  return {
    name: CALL_TOOL_NAME,
    description: texts.callToolDescription,
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: texts.callNameParam },
        arguments: { type: 'object', description: texts.callArgumentsParam },
      },
      required: ['name', 'arguments'],
      additionalProperties: false,
    },
  };
}

/** Creates the block source of a layer: one block object per catalogue and group set, one search tool per names list. */
export function createBlocks(options: ExposureSettings, bridge: BridgeTexts, semantic: boolean): BlockOf {
  const callTool = callToolDefinition(bridge);
  // Read when a block is built (the layer's texts are complete by then: prepare waits for its locale).
  const searchTexts = textsWith(options.texts, () => ({ description: bridge.bridgeDescription }));
  const blocks = new WeakMap<CatalogueInfo, Map<string, Block>>();
  const searchTools = new Map<string, Tool>();

  function build(catalogue: Catalogue, visible: (id: number) => boolean, key: string): Block {
    const listed = options.showToolNames
      ? listedTools(catalogue, visible, options.alwaysDirectTools).filter((tool) => tool.name !== CALL_TOOL_NAME)
      : [];
    const names = listed.length > 0 ? namesList(enabledOnly(listed, key), options.toolNamesBudget, options.texts) : '';
    const searchTool =
      searchTools.get(names) ??
      keep(searchTools, names, searchToolDefinition(searchTexts(), names || undefined, semantic));
    const direct: Tool[] = [];
    for (const name of new Set(options.alwaysDirectTools)) {
      const id = catalogue.byName.get(name);
      if (id !== undefined && visible(id) && name !== searchTool.name && name !== CALL_TOOL_NAME) {
        direct.push(catalogue.tools[id] as Tool);
      }
    }
    return { tools: [searchTool, callTool, ...direct], listed: listed.map((tool) => tool.name), direct };
  }

  return (catalogue, visible, key) => {
    const byKey = blocks.get(catalogue.info) ?? new Map<string, Block>();
    blocks.set(catalogue.info, byKey);
    const block = byKey.get(key);
    // Arrays of tools with the same names and groups share their findings, not their definitions.
    if (block && sameDirect(block, catalogue)) return block;
    return keep(byKey, key, build(catalogue, visible, key));
  };
}

/**
 * The listed tools with only their enabled groups, for the names list's closing line: a visible tool may also
 * belong to a disabled group, whose name must not be sent (SPEC 6). `key` is `groupsKey(enabledGroups)`.
 */
function enabledOnly(listed: readonly Tool[], key: string): readonly Tool[] {
  if (key === '*') return listed;
  const enabled = new Set<string>(JSON.parse(key));
  return listed.map((tool) =>
    tool.groups?.every((group) => enabled.has(group)) !== false
      ? tool
      : { name: tool.name, groups: tool.groups.filter((group) => enabled.has(group)) },
  );
}

/** Whether two blocks serialise to the same bytes: the same search tool object and equal direct tools. */
export const sameBytes = (a: Block, b: Block): boolean =>
  a === b ||
  (a.tools[0] === b.tools[0] &&
    a.direct.length === b.direct.length &&
    a.direct.every((tool, i) => tool === b.direct[i] || JSON.stringify(tool) === JSON.stringify(b.direct[i])));

/** Whether a block's direct tools are this round's own objects. */
export const sameDirect = (block: Block, catalogue: Catalogue): boolean =>
  block.direct.every((tool) => catalogue.tools[catalogue.byName.get(tool.name) as number] === tool);

/**
 * Whether a session may keep its block after the round's tools or groups changed: it names no tool that is
 * gone or invisible now, and its direct tools are still the round's, unchanged. A tool that joined is
 * left out of the names list (search finds it): the block stays append-only.
 */
export function stillSafe(block: Block, catalogue: Catalogue, visible: (id: number) => boolean): boolean {
  const shown = (name: string) => {
    const id = catalogue.byName.get(name);
    return id !== undefined && visible(id);
  };
  if (!block.listed.every(shown)) return false;
  return block.direct.every((tool) => {
    const id = catalogue.byName.get(tool.name);
    if (id === undefined || !visible(id)) return false;
    const now = catalogue.tools[id] as Tool;
    return now === tool || JSON.stringify(now) === JSON.stringify(tool);
  });
}
