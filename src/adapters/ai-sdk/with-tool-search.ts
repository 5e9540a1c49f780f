// The AI SDK (`ai` v7) adapter: a tool set with the layer's tools, and a prepareStep that sends what the exposure says.
import type { Tool as AiTool, ToolSet } from 'ai';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import { SEARCH_TOOL_NAME, searchToolDefinition } from '../../core/search-tool.ts';
import type { ToolSearch } from '../../layer/create-tool-search.ts';
import { bridgeTool } from './bridge.ts';
import { type AnyTool, createStepCatalogue } from './catalogue.ts';
import { openAiToolSearch } from './native.ts';
import { checkOptions, OPENAI_TOOL_SEARCH, type ToolSearchSettings, type WithToolSearchOptions } from './options.ts';
import { toolsMarkBreakpoints } from './prompt-cache.ts';
import { createSearchTool } from './search.ts';
import { createAdapterSession, guard } from './session.ts';
import { createPrepareStep } from './step.ts';

/** Tools the layer leaves to the SDK: provider-executed tools, and the SDK's own `toolSearch()` with its `deferLoading` tools. */
function leftToSdk(tool: AnyTool): boolean {
  return (
    tool.type === 'provider' ||
    tool.deferLoading === true ||
    (tool as Record<symbol, unknown>)[Symbol.for('vercel.ai.toolSearch')] === true
  );
}

/**
 * Wraps a tool set for tool search with the AI SDK. The default exposure, 'bridge', sends `search_tools`, `call_tool`
 * and the direct tools, the same at every step; 'native' defers every tool with the provider's own mechanism
 * (Anthropic, OpenAI Responses); 'tools' sends each discovered tool from the next step.
 * @example
 * const layer = createToolSearch()
 * const result = await generateText({ model, ...withToolSearch(layer, { sessionId, tools }), stopWhen: stepCountIs(8), prompt })
 */
/* @__NO_SIDE_EFFECTS__ */
export function withToolSearch<TOOLS extends ToolSet>(
  layer: ToolSearch,
  options: WithToolSearchOptions<TOOLS>,
): ToolSearchSettings<TOOLS> {
  checkOptions(layer, options);
  const { sessionId, enabledGroups } = options;
  const exposure = options.exposure ?? 'bridge';
  const userTools = Object.entries(options.tools) as [string, AnyTool][];
  const searchable = userTools.filter(([, tool]) => !leftToSdk(tool));
  const originals: ReadonlyMap<string, AnyTool> = new Map(searchable);
  const catalogue = createStepCatalogue(searchable, options.groups, layer.options.logger);
  const session = createAdapterSession(layer, catalogue, {
    sessionId,
    enabledGroups,
    mode: options.onUndiscoveredCall ?? 'hint',
    exposure: exposure === 'bridge' ? 'bridge' : 'tools',
  });
  // Read when the SDK asks, not now: a layer with locale 'zh' loads its texts on its first call.
  const fallback = () => searchToolDefinition(layer.options.texts, undefined);
  const search = createSearchTool(session, fallback, new Set(originals.keys()), options.repairToolCall);

  const wrapped = new Map<string, Record<string, unknown>>();
  const tools: Record<string, AiTool> = {
    [SEARCH_TOOL_NAME]: search.tool,
    [CALL_TOOL_NAME]: bridgeTool(session, originals),
    [OPENAI_TOOL_SEARCH]: openAiToolSearch(session, fallback, originals),
  };
  for (const [name, tool] of userTools) {
    if (!originals.has(name)) tools[name] = tool;
    else {
      const guarded = guard(session, name, tool) as unknown as Record<string, unknown>;
      wrapped.set(name, guarded);
      tools[name] = guarded as unknown as AiTool;
    }
  }
  const prepareStep = createPrepareStep(session, {
    sessionId,
    enabledGroups,
    exposure,
    sdkNames: userTools.filter(([name]) => !originals.has(name)).map(([name]) => name),
    originals,
    wrapped,
    checkRepaired: search.checkRepaired,
    promptCache: options.promptCache !== false && !toolsMarkBreakpoints(originals.values()),
  });
  return {
    tools,
    prepareStep,
    repairToolCall: search.repairToolCall,
    experimental_repairToolCall: search.repairToolCall,
  } as unknown as ToolSearchSettings<TOOLS>;
}
