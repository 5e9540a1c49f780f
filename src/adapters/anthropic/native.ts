// Native mode's tools array: Anthropic's documented custom tool search
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool#custom-tool-search-implementation).
// `search_tools` and the direct tools are sent in full, every other visible tool with `defer_loading: true`,
// the same objects every round, so the prefix (tools, system, earlier messages) never changes.
import type { Tool as AnthropicTool, ToolUnion } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Tool } from '../../base/types.ts';
import { visibility } from '../../core/catalogue.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { ToolSearch } from '../../layer/create-tool-search.ts';
import type { ConvertedTools } from '../common/provider-tools.ts';
import { type AnthropicMessage, serverSearchResults, toolToAnthropicTool } from './messages.ts';

// One deferred copy per caller object, so every round sends the same objects and the same bytes.
const deferredCopies = new WeakMap<object, AnthropicTool>();

/**
 * A caller's tool with `defer_loading: true` and without `cache_control`: the API refuses a breakpoint on a
 * deferred tool with a 400 (tool search docs), and a deferred tool is not part of the cached prefix anyway.
 */
export function deferred(tool: AnthropicTool): AnthropicTool {
  let copy = deferredCopies.get(tool);
  if (!copy) {
    const { cache_control: _breakpoint, ...rest } = tool;
    copy = { ...rest, defer_loading: true };
    deferredCopies.set(tool, copy);
  }
  return copy;
}

// One copy per tool object and breakpoint, for the same reason.
const markedCopies = new WeakMap<object, Map<string, ToolUnion>>();

/** A tool carrying the breakpoint a deferred tool had to give up. */
function withBreakpoint(tool: ToolUnion, breakpoint: NonNullable<AnthropicTool['cache_control']>): ToolUnion {
  const key = JSON.stringify(breakpoint);
  const copies = markedCopies.get(tool) ?? new Map<string, ToolUnion>();
  markedCopies.set(tool, copies);
  let copy = copies.get(key);
  if (!copy) {
    copy = { ...tool, cache_control: breakpoint } as ToolUnion;
    copies.set(key, copy);
  }
  return copy;
}

/** The names that the history's `tool_reference` blocks load (search results, server tool search results). */
export function referencedNames(messages: readonly AnthropicMessage[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    const blocks = (Array.isArray(message.content) ? message.content : []) as unknown as readonly {
      [key: string]: unknown;
    }[];
    for (const block of blocks) {
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) continue;
      for (const item of block.content as { type?: unknown; tool_name?: unknown }[]) {
        if (item?.type === 'tool_reference' && typeof item.tool_name === 'string') names.add(item.tool_name);
      }
    }
    for (const result of serverSearchResults(blocks)) for (const name of result.names) names.add(name);
  }
  return names;
}

/** The names native mode defers: every visible catalogue tool but the direct ones, and every tool the history references. */
export function deferredNames(
  layer: ToolSearch,
  tools: readonly Tool[],
  enabledGroups: readonly string[] | undefined,
  referenced: ReadonlySet<string> = new Set(),
): Set<string> {
  const visible = visibility(tools, enabledGroups, SEARCH_TOOL_NAME);
  const direct = new Set(layer.options.alwaysDirectTools);
  const names = new Set<string>();
  tools.forEach((tool, id) => {
    // A referenced tool stays declared after enabledGroups narrow: the API rejects a `tool_reference` in the
    // history to a tool `tools` lacks ("Tool reference '…' not found in available tools"). Calls of it are still
    // refused, because checkCall reads the enabled groups.
    if (direct.has(tool.name) && visible(id)) return;
    if (visible(id) || referenced.has(tool.name)) names.add(tool.name);
  });
  return names;
}

/**
 * The native tools: `search_tools`, the direct tools, then the deferred tools in catalogue order. A caller's
 * breakpoint on a deferred tool moves to the last tool sent in full, so the tools block is still cached.
 */
export function nativeTools(
  layer: ToolSearch,
  converted: ConvertedTools<ToolUnion>,
  prepared: readonly Tool[],
  options: { readonly enabledGroups?: readonly string[] | undefined; readonly referenced: ReadonlySet<string> },
): ToolUnion[] {
  const [searchTool, ...rest] = prepared;
  const direct = new Set(layer.options.alwaysDirectTools);
  const full: ToolUnion[] = rest
    .filter((tool) => direct.has(tool.name))
    .map((tool) => converted.original(tool) ?? toolToAnthropicTool(tool));
  const names = deferredNames(layer, converted.tools, options.enabledGroups, options.referenced);
  const deferredTools: AnthropicTool[] = [];
  let breakpoint: AnthropicTool['cache_control'];
  for (const tool of converted.tools) {
    if (!names.delete(tool.name)) continue;
    const original = converted.original(tool) as AnthropicTool;
    breakpoint = original.cache_control ?? breakpoint;
    deferredTools.push(deferred(original));
  }
  // The API needs a deferred tool for a search to load; with none, search_tools would find nothing to load.
  if (deferredTools.length === 0 || !searchTool) return full;
  full.unshift(toolToAnthropicTool(searchTool));
  const last = full.length - 1;
  const hasBreakpoint = full.some((tool) => 'cache_control' in tool && tool.cache_control);
  if (breakpoint && !hasBreakpoint) full[last] = withBreakpoint(full[last] as ToolUnion, breakpoint);
  return [...full, ...deferredTools];
}
