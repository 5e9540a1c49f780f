// The bridge's tools block: [search_tools, call_tool, ...direct tools], the same bytes (and objects) every
// round of a session, so the provider's prompt cache and Anthropic's prefix check hold (SPEC 11).
import type { Catalogue, CatalogueInfo } from '../core/catalogue.ts';
import { namesList } from '../core/names-list.ts';
import type { ResolvedOptions } from '../core/options.ts';
import { listedTools } from '../core/prepare.ts';
import { searchToolDefinition } from '../core/search-tool.ts';
import type { Texts } from '../core/texts.ts';
import type { Tool } from '../core/types.ts';
import { CALL_TOOL_NAME } from './mode.ts';
import { type BridgeTexts, bridgeTexts } from './texts.ts';

/** One tools block and what it names: the tools it lists by name and the direct tools it carries. */
interface Block {
  readonly tools: readonly Tool[];
  readonly listed: readonly string[];
  readonly direct: readonly Tool[];
}

/** A session's block, and the catalogue and groups it was last checked against. */
interface Pinned {
  readonly block: Block;
  readonly info: CatalogueInfo;
  readonly key: string;
}

/** Sessions whose block a layer remembers; past this the least recent is forgotten (and rebuilt if it comes back). */
const SESSIONS_KEPT = 1024;

/** A layer's bridge: its texts, its tools block per session, its call_tool definition. */
export interface Bridge {
  readonly texts: Texts & BridgeTexts;
  /** The texts of a bridge search: its hint says to call what it found through call_tool. */
  readonly searchTexts: Texts;
  /** The tools block of a round: the session's pinned block while it is still safe, else the round's own. */
  tools(sessionId: string, catalogue: Catalogue, visible: (id: number) => boolean, key: string): Tool[];
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

/** Creates the bridge of a layer (one per layer, made when it is first used). */
export function createBridge(options: ResolvedOptions, semantic: boolean): Bridge {
  const texts = bridgeTexts(options.texts, options.locale);
  const callTool = callToolDefinition(texts);
  const searchTexts = { ...texts, description: texts.bridgeDescription };
  // Shared by every session: one block object per catalogue and group set, one search tool per names list.
  const blocks = new WeakMap<CatalogueInfo, Map<string, Block>>();
  const searchTools = new Map<string, Tool>();
  const sessions = new Map<string, Pinned>();

  function build(catalogue: Catalogue, visible: (id: number) => boolean): Block {
    const listed = options.showToolNames ? listedTools(catalogue, visible, options.alwaysDirectTools) : [];
    const names = listed.length > 0 ? namesList(listed, options.toolNamesBudget, texts) : '';
    let searchTool = searchTools.get(names);
    if (!searchTool) {
      searchTool = searchToolDefinition(searchTexts, names || undefined, semantic);
      if (searchTools.size >= 16) searchTools.delete(searchTools.keys().next().value as string);
      searchTools.set(names, searchTool);
    }
    const direct: Tool[] = [];
    for (const name of new Set(options.alwaysDirectTools)) {
      const id = catalogue.byName.get(name);
      if (id !== undefined && visible(id) && name !== searchTool.name && name !== CALL_TOOL_NAME) {
        direct.push(catalogue.tools[id] as Tool);
      }
    }
    return { tools: [searchTool, callTool, ...direct], listed: listed.map((tool) => tool.name), direct };
  }

  function blockOf(catalogue: Catalogue, visible: (id: number) => boolean, key: string): Block {
    const byKey = blocks.get(catalogue.info) ?? new Map<string, Block>();
    blocks.set(catalogue.info, byKey);
    let block = byKey.get(key);
    // Arrays of tools with the same names and groups share their findings, not their definitions.
    if (!block || !sameDirect(block, catalogue)) {
      block = build(catalogue, visible);
      if (byKey.size >= 16) byKey.delete(byKey.keys().next().value as string);
      byKey.set(key, block);
    }
    return block;
  }

  return {
    texts,
    searchTexts: Object.freeze({ ...options.texts, hintFound: texts.bridgeHintFound }),
    tools(sessionId, catalogue, visible, key) {
      const pinned = sessions.get(sessionId);
      sessions.delete(sessionId);
      let block: Block;
      if (pinned && pinned.info === catalogue.info && pinned.key === key && sameDirect(pinned.block, catalogue)) {
        block = pinned.block;
      } else {
        const own = blockOf(catalogue, visible, key);
        // The round's own block when it has the pinned bytes (a host that rebuilds its tool objects), else the pinned one while safe.
        const keep = pinned && !sameBytes(own, pinned.block) && stillSafe(pinned.block, catalogue, visible);
        block = keep ? pinned.block : own;
      }
      if (sessions.size >= SESSIONS_KEPT) sessions.delete(sessions.keys().next().value as string);
      sessions.set(sessionId, { block, info: catalogue.info, key });
      return [...block.tools];
    },
  };
}

/** Whether two blocks serialise to the same bytes: the same search tool object and equal direct tools. */
const sameBytes = (a: Block, b: Block): boolean =>
  a === b ||
  (a.tools[0] === b.tools[0] &&
    a.direct.length === b.direct.length &&
    a.direct.every((tool, i) => tool === b.direct[i] || JSON.stringify(tool) === JSON.stringify(b.direct[i])));

/** Whether a block's direct tools are this round's own objects. */
const sameDirect = (block: Block, catalogue: Catalogue): boolean =>
  block.direct.every((tool) => catalogue.tools[catalogue.byName.get(tool.name) as number] === tool);

/**
 * Whether a session may keep its block after the round's tools or groups changed: it names no tool that is
 * gone or invisible now, and its direct tools are still the round's, unchanged. A tool that joined is
 * left out of the names list (search finds it): the block stays append-only.
 */
function stillSafe(block: Block, catalogue: Catalogue, visible: (id: number) => boolean): boolean {
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
