// Anthropic Messages API: the answer to one `tool_use` block, in the exposure mode of the request.
import type {
  ContentBlock,
  ContentBlockParam,
  ToolResultBlockParam,
  ToolUnion,
  ToolUseBlock,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { ToolSearchError } from '../../base/errors.ts';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import { visibility } from '../../core/catalogue.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import type { AdapterOptions } from '../common/options.ts';
import {
  type ConvertedTools,
  type ExecuteTool,
  outputText,
  parseArguments,
  routeCall,
} from '../common/provider-tools.ts';
import { convertAnthropicTools, serverSearchResults } from './messages.ts';
import { deferredNames } from './native.ts';
import { type AnthropicExposure, type AnthropicOptions, coreContext, exposureOf, references } from './prepare.ts';

/** Options of `answerAnthropicToolUse`: those of `prepareAnthropicMessages`, plus the catalogue and the executor. */
export interface AnswerAnthropicToolUseOptions extends AnthropicOptions, AdapterOptions<AnthropicExposure> {
  /** Every tool of the round, as passed to `prepareAnthropicMessages` in `body.tools`. */
  readonly tools: readonly ToolUnion[];
  /** Runs a tool the model may call; never called for `search_tools` or an undiscovered tool. */
  readonly execute: ExecuteTool<ToolUnion>;
  /**
   * The assistant message the block is from. Pass it when Anthropic's server-side tool search
   * (`tool_search_tool_bm25_*` / `_regex_*`) is among the tools: a tool it loaded in that message may run.
   */
  readonly message?: { readonly content: readonly (ContentBlock | ContentBlockParam)[] } | undefined;
}

/** The caller's tool for a call of a tool Anthropic's own tool search loaded in this message, when it is visible. */
function loadedByServerSearch(
  converted: ConvertedTools<ToolUnion>,
  name: string,
  options: AnswerAnthropicToolUseOptions,
): ToolUnion | undefined {
  if (!options.message) return undefined;
  const loaded = serverSearchResults(options.message.content).some((result) => result.names.includes(name));
  if (!loaded) return undefined;
  const visible = visibility(converted.tools, options.enabledGroups, SEARCH_TOOL_NAME);
  const id = converted.tools.findIndex((tool) => tool.name === name);
  return id >= 0 && visible(id) ? converted.original(converted.tools[id] as never) : undefined;
}

/**
 * Answers one `tool_use` block with the `tool_result` block to send back: `search_tools` with the search result
 * ('native': `tool_reference` blocks of the deferred tools found, or the result as text when none was found), a
 * call of a tool the model has not been shown with the corrective result (nothing is executed; 'native' with
 * 'discover': `tool_reference` blocks that load its definition, marked as an error), and any other call with
 * what `execute` returns.
 */
export async function answerAnthropicToolUse(
  layer: ToolSearch,
  block: ToolUseBlock | ToolUseBlockParam,
  options: AnswerAnthropicToolUseOptions,
): Promise<ToolResultBlockParam> {
  const exposure = exposureOf(options);
  const converted = convertAnthropicTools(options.tools, options.groupOf);
  const answer = { type: 'tool_result' as const, tool_use_id: block.id };
  const context = coreContext(options, exposure, converted.tools);
  if (exposure === 'bridge' && block.name === CALL_TOOL_NAME) {
    const bridged = await callThroughBridge(layer, context, block.input, converted, options);
    return { ...answer, ...bridged };
  }
  const loaded = loadedByServerSearch(converted, block.name, options);
  if (loaded) {
    const output = await options.execute({ name: block.name, arguments: parseArguments(block.input), tool: loaded });
    return { ...answer, content: outputText(output) };
  }
  const routed = await routeCall(
    layer,
    context,
    { name: block.name, arguments: block.input },
    { ...options, converted, nameOf: (tool) => ('name' in tool ? tool.name : undefined) },
  );
  if (routed.kind === 'executed') return { ...answer, content: routed.output };
  // A tool marked `shown` is loaded already: an earlier tool_reference in the history holds its definition.
  const found =
    'tools' in routed.result ? (routed.result.tools ?? []).flatMap((tool) => (tool.shown ? [] : [tool.name])) : [];
  const loadable = found.filter(loadableIn(layer, converted, exposure, options.enabledGroups));
  if (routed.kind === 'search') {
    return loadable.length > 0
      ? { ...answer, content: references(loadable) }
      : { ...answer, content: JSON.stringify(routed.result) };
  }
  // A tool_result that loads tools holds only tool_reference blocks, as the documented custom search returns.
  if (loadable.length > 0) return { ...answer, is_error: true, content: references(loadable) };
  return { ...answer, is_error: true, content: JSON.stringify(routed.result) };
}

/**
 * A `call_tool` use: `layer.callTool` checks it (the tool may run, its arguments fit its schema); then the named
 * tool runs with the arguments unchanged, else the model gets the corrective result.
 */
async function callThroughBridge(
  layer: ToolSearch,
  context: SearchContext,
  input: unknown,
  converted: ConvertedTools<ToolUnion>,
  options: AnswerAnthropicToolUseOptions,
): Promise<{ content: string; is_error?: true }> {
  const onUndiscoveredCall = options.onUndiscoveredCall;
  const called = await layer.callTool(context, input, onUndiscoveredCall ? { onUndiscoveredCall } : undefined);
  if (!called.ok) return { is_error: true, content: JSON.stringify(called.result) };
  const tool = converted.original(called.tool);
  if (tool === undefined) {
    throw new ToolSearchError(`call_tool: "${called.name}" is not among options.tools; pass the round's tools`);
  }
  const output = await options.execute({ name: called.name, arguments: called.arguments, tool });
  return { content: outputText(output) };
}

/** Which found tools a `tool_reference` can load: the deferred ones, in native mode only. */
function loadableIn(
  layer: ToolSearch,
  converted: ConvertedTools<ToolUnion>,
  exposure: AnthropicExposure,
  enabledGroups: AnthropicOptions['enabledGroups'],
): (name: string) => boolean {
  if (exposure !== 'native') return () => false;
  const names = deferredNames(layer, converted.tools, enabledGroups);
  return (name) => names.has(name);
}
