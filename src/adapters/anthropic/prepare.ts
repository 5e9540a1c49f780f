// Anthropic Messages API: the request helper and the tool-call answer, in the portable mode (the tools
// array is replaced each round) and the native mode, Anthropic's documented custom tool search
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool#custom-tool-search-implementation):
// every catalogue tool is sent with `defer_loading: true` except the direct tools and `search_tools`,
// and a search answers with `tool_reference` blocks inside its `tool_result`, which the API expands
// into the definitions in place. The tools array never changes, so the cached prefix (tools, system,
// earlier messages) holds.
import type {
  Tool as AnthropicTool,
  MessageParam,
  TextBlockParam,
  ToolReferenceBlockParam,
  ToolResultBlockParam,
  ToolUnion,
  ToolUseBlock,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { UndiscoveredCallMode } from '../../core/calls.ts';
import { visibility } from '../../core/catalogue.ts';
import type { ToolSearch } from '../../core/create-tool-search.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { Tool } from '../../core/types.ts';
import { type ConvertedTools, type ExecuteTool, type GroupOf, routeCall } from '../provider-tools.ts';
import { anthropicMessagesToMessages, convertAnthropicTools, toolToAnthropicTool } from './messages.ts';

/** The part of a `messages.create` body the layer reads and rewrites. */
export interface AnthropicMessagesBody {
  readonly messages: readonly MessageParam[];
  readonly system?: string | readonly TextBlockParam[] | undefined;
  readonly tools?: readonly ToolUnion[] | undefined;
}

/** Options shared by `prepareAnthropicMessages` and `answerAnthropicToolUse`. */
export interface AnthropicOptions {
  readonly sessionId: string;
  readonly enabledGroups?: readonly string[] | undefined;
  /** Groups of the tools, by name. */
  readonly groupOf?: GroupOf | undefined;
  /** Native mode: catalogue tools are sent with `defer_loading: true` and found tools load through `tool_reference`. Default false. */
  readonly native?: boolean | undefined;
}

/** Options of `answerAnthropicToolUse`: those of `prepareAnthropicMessages`, plus the catalogue and the executor. */
export interface AnswerAnthropicToolUseOptions extends AnthropicOptions {
  /** Every tool of the round, as passed to `prepareAnthropicMessages` in `body.tools`. */
  readonly tools: readonly ToolUnion[];
  /** What a call of a tool the model has not been shown gets: a hint to search (default), or the definition. */
  readonly onUndiscoveredCall?: UndiscoveredCallMode | undefined;
  /** Runs a tool the model may call; never called for `search_tools` or an undiscovered tool. */
  readonly execute: ExecuteTool<ToolUnion>;
}

// One deferred copy per caller object, so every round sends the same objects and the same bytes.
const deferredCopies = new WeakMap<object, AnthropicTool>();

function deferred(tool: AnthropicTool): AnthropicTool {
  let copy = deferredCopies.get(tool);
  if (!copy) {
    copy = { ...tool, defer_loading: true };
    deferredCopies.set(tool, copy);
  }
  return copy;
}

/** The names the native tools array defers: every visible catalogue tool but the direct ones. */
function deferredNames(
  layer: ToolSearch,
  converted: ConvertedTools<ToolUnion>,
  enabledGroups: AnthropicOptions['enabledGroups'],
): Set<string> {
  const visible = visibility(converted.tools, enabledGroups, SEARCH_TOOL_NAME);
  const direct = new Set(layer.options.alwaysDirectTools);
  const names = new Set<string>();
  converted.tools.forEach((tool, id) => {
    if (visible(id) && !direct.has(tool.name)) names.add(tool.name);
  });
  return names;
}

/** The native tools: `search_tools`, the direct tools, then every other visible tool deferred, in catalogue order. */
function nativeTools(
  layer: ToolSearch,
  converted: ConvertedTools<ToolUnion>,
  prepared: readonly Tool[],
  enabledGroups: AnthropicOptions['enabledGroups'],
): ToolUnion[] {
  const [searchTool, ...rest] = prepared;
  const direct = new Set(layer.options.alwaysDirectTools);
  const directTools = rest.filter((tool) => direct.has(tool.name)).map((tool) => converted.original(tool) as ToolUnion);
  const names = deferredNames(layer, converted, enabledGroups);
  const deferredTools: ToolUnion[] = [];
  for (const tool of converted.tools) {
    if (!names.delete(tool.name)) continue;
    deferredTools.push(deferred(converted.original(tool) as AnthropicTool));
  }
  // The API needs a deferred tool for a search to load; with none, search_tools would find nothing to load.
  if (deferredTools.length === 0 || !searchTool) return directTools;
  return [toolToAnthropicTool(searchTool), ...directTools, ...deferredTools];
}

/**
 * Returns the body with its tools replaced for this round. Portable mode: `search_tools`, the direct
 * tools and the tools this session discovered, as the caller's own objects. Native mode: `search_tools`,
 * the direct tools, and every other visible tool with `defer_loading: true`, the same every round.
 * Anthropic's own tools (bash, web search, …) are kept, after the layer's. A bypassed round comes back unchanged.
 * @example
 * const request = await prepareAnthropicMessages(layer, { model, max_tokens, messages, tools }, { sessionId })
 * const message = await client.messages.create(request)
 */
export async function prepareAnthropicMessages<B extends AnthropicMessagesBody>(
  layer: ToolSearch,
  body: B,
  options: AnthropicOptions,
): Promise<B> {
  const converted = convertAnthropicTools(body.tools, options.groupOf);
  const prepared = await layer.prepare({
    sessionId: options.sessionId,
    tools: converted.tools,
    messages: anthropicMessagesToMessages(body.messages, body.system),
    enabledGroups: options.enabledGroups,
  });
  if (prepared.bypassed) return body;
  const tools = options.native
    ? nativeTools(layer, converted, prepared.tools, options.enabledGroups)
    : prepared.tools.map((tool) => converted.original(tool) ?? toolToAnthropicTool(tool));
  return { ...body, tools: [...tools, ...converted.passthrough] };
}

const references = (names: readonly string[]): ToolReferenceBlockParam[] =>
  names.map((name) => ({ type: 'tool_reference', tool_name: name }));

/**
 * Answers one `tool_use` block with the `tool_result` block to send back: `search_tools` with the search
 * result (native mode: `tool_reference` blocks of the deferred tools found, or the result as text when
 * none was found), a call of a tool the model has not been shown with the corrective result (nothing is
 * executed; native 'discover' mode: `tool_reference` blocks that load its definition, marked as an error),
 * and any other call with what `execute` returns.
 */
export async function answerAnthropicToolUse(
  layer: ToolSearch,
  block: ToolUseBlock | ToolUseBlockParam,
  options: AnswerAnthropicToolUseOptions,
): Promise<ToolResultBlockParam> {
  const converted = convertAnthropicTools(options.tools, options.groupOf);
  const routed = await routeCall(
    layer,
    { sessionId: options.sessionId, tools: converted.tools, enabledGroups: options.enabledGroups },
    { name: block.name, arguments: block.input },
    {
      onUndiscoveredCall: options.onUndiscoveredCall,
      original: converted.original,
      execute: options.execute,
      passthrough: (name) => converted.passthrough.find((tool) => 'name' in tool && tool.name === name),
    },
  );
  const answer = { type: 'tool_result' as const, tool_use_id: block.id };
  if (routed.kind === 'executed') return { ...answer, content: routed.output };
  const found = 'tools' in routed.result ? (routed.result.tools ?? []).map((tool) => tool.name) : [];
  const loadable = options.native ? found.filter(deferredIn(layer, converted, options.enabledGroups)) : [];
  if (routed.kind === 'search') {
    return loadable.length > 0
      ? { ...answer, content: references(loadable) }
      : { ...answer, content: JSON.stringify(routed.result) };
  }
  // A tool_result that loads tools holds only tool_reference blocks, as the documented custom search returns.
  if (loadable.length > 0) return { ...answer, is_error: true, content: references(loadable) };
  return { ...answer, is_error: true, content: JSON.stringify(routed.result) };
}

function deferredIn(
  layer: ToolSearch,
  converted: ConvertedTools<ToolUnion>,
  enabledGroups: AnthropicOptions['enabledGroups'],
) {
  const names = deferredNames(layer, converted, enabledGroups);
  return (name: string) => names.has(name);
}
