// The AI SDK (`ai` v7) adapter: a tool set with the layer's tools, and a prepareStep that sends what the exposure says.
import {
  type Tool as AiTool,
  jsonSchema,
  type ModelMessage,
  NoSuchToolError,
  type ToolCallRepairFunction,
  type ToolSet,
} from 'ai';
import { inspect } from '../../core/catalogue.ts';
import type { PrepareResult, ToolSearch } from '../../core/create-tool-search.ts';
import { SEARCH_TOOL_NAME, searchToolDefinition } from '../../core/search-tool.ts';
import type { Tool } from '../../core/types.ts';
import { CALL_TOOL_NAME } from '../../exposure/mode.ts';
import { bridgeTool, rerouteToBridge } from './bridge.ts';
import { type AnyTool, createStepCatalogue } from './catalogue.ts';
import { readMessages } from './messages.ts';
import {
  deferredNames,
  deferredOptions,
  nativeProviderOf,
  openAiToolSearch,
  referTo,
  searchModelOutput,
  unsupportedModel,
} from './native.ts';
import { checkOptions, OPENAI_TOOL_SEARCH, type ToolSearchSettings, type WithToolSearchOptions } from './options.ts';
import { createAdapterSession, guard } from './session.ts';

/** Tools the layer leaves to the SDK: provider-executed tools, and the SDK's own `toolSearch()` with its `deferLoading` tools. */
function leftToSdk(tool: AnyTool): boolean {
  return (
    tool.type === 'provider' ||
    tool.deferLoading === true ||
    (tool as Record<symbol, unknown>)[Symbol.for('vercel.ai.toolSearch')] === true
  );
}

// Calls the SDK rejected as not active, answered when the repaired call reaches search_tools; bounded.
const MAX_PENDING = 256;
const SEARCH_ALIASES: ReadonlySet<string> = new Set([OPENAI_TOOL_SEARCH]);

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
  const byName: ReadonlyMap<string, AnyTool> = new Map(searchable);
  const sdkNames = userTools.filter(([, tool]) => leftToSdk(tool)).map(([name]) => name);
  const catalogue = createStepCatalogue(searchable, options.groups, layer.options.logger);
  const session = createAdapterSession(layer, catalogue, {
    sessionId,
    enabledGroups,
    mode: options.onUndiscoveredCall ?? 'hint',
    exposure: exposure === 'bridge' ? 'bridge' : 'tools',
  });
  const { state } = session;
  const fallback = searchToolDefinition(layer.options.texts, undefined);
  const pending = new Map<string, string>();

  const searchTool = {
    description: () => (state.definition ?? fallback).description ?? '',
    // The JSON Schema the model sees, without validation: the layer answers bad arguments itself.
    inputSchema: jsonSchema(fallback.parameters as never),
    execute: async (input: unknown, { toolCallId }: { toolCallId: string }) => {
      const refused = pending.get(toolCallId);
      if (refused !== undefined) {
        pending.delete(toolCallId);
        return session.correct(refused);
      }
      return referTo(session, await layer.search(await session.context(), input));
    },
    toModelOutput: searchModelOutput,
  } as unknown as AiTool;

  const guarded = new Map<string, Record<string, unknown>>();
  const tools: Record<string, AiTool> = {
    [SEARCH_TOOL_NAME]: searchTool,
    [CALL_TOOL_NAME]: bridgeTool(session, byName),
    [OPENAI_TOOL_SEARCH]: openAiToolSearch(session, fallback, byName),
  };
  for (const [name, tool] of userTools) {
    if (leftToSdk(tool)) tools[name] = tool;
    else {
      const wrapped = guard(session, name, tool) as unknown as Record<string, unknown>;
      guarded.set(name, wrapped);
      tools[name] = wrapped as unknown as AiTool;
    }
  }

  // Deferral is a provider option of each tool, set before the SDK reads the step's tools.
  const deferredCopies = new Map<string, unknown>();
  function applyDeferral(): void {
    for (const [name, wrapped] of guarded) {
      const original = byName.get(name)?.providerOptions;
      if (!state.deferred.has(name)) wrapped.providerOptions = original;
      else {
        if (!deferredCopies.has(name)) deferredCopies.set(name, deferredOptions(original));
        wrapped.providerOptions = deferredCopies.get(name);
      }
    }
  }

  /** The step's active tools, in the order sent: the layer's first, then the SDK's own. */
  function activate(names: readonly string[], callable: readonly string[], deferred: readonly string[]) {
    state.exposed = new Set(callable);
    state.deferred = new Set(deferred);
    applyDeferral();
    const order = [...names, ...sdkNames];
    return { activeTools: order, toolOrder: order };
  }

  function bypass(round: readonly Tool[], prepared: PrepareResult) {
    // Entries the layer skips (an empty name) are never sent, even when the layer is off.
    const info = inspect(round);
    const kept = new Set(round.filter((_, i) => info.kept[i] === 1));
    const names = prepared.tools.filter((tool) => kept.has(tool)).map((tool) => tool.name);
    state.native = undefined;
    return { activeTools: activate(names, names, []).activeTools };
  }

  const prepareStep = async (step: {
    messages: ModelMessage[];
    model?: unknown;
    toolsContext?: unknown;
    experimental_sandbox?: unknown;
  }) => {
    const round = await catalogue.build(
      step.toolsContext as Record<string, unknown> | undefined,
      step.experimental_sandbox,
    );
    const native = exposure === 'native' ? (nativeProviderOf(step.model) ?? unsupportedModel(step.model)) : undefined;
    const prepared = await layer.prepare({
      sessionId,
      tools: round,
      messages: readMessages(step.messages, SEARCH_ALIASES),
      enabledGroups,
      exposure: exposure === 'bridge' ? 'bridge' : 'tools',
    });
    if (prepared.bypassed) return bypass(round, prepared);
    state.native = native;
    const [definition, ...rest] = prepared.tools;
    state.definition = definition;
    if (!native) {
      if (exposure === 'bridge') state.callDefinition = rest[0];
      const names = prepared.tools.map((tool) => tool.name);
      return activate(names, names, []);
    }
    const always = new Set(layer.options.alwaysDirectTools);
    const direct = rest.map((tool) => tool.name).filter((name) => always.has(name));
    const deferred = deferredNames(round, enabledGroups, new Set(direct));
    const search = native === 'anthropic' ? SEARCH_TOOL_NAME : OPENAI_TOOL_SEARCH;
    return activate([search, ...direct, ...deferred], [search, ...direct], deferred);
  };

  const repairToolCall = async (repair: Parameters<ToolCallRepairFunction<ToolSet>>[0]) => {
    const { toolCall, error } = repair;
    if (NoSuchToolError.isInstance(error)) {
      const exposed = state.exposed;
      if (exposed?.has(CALL_TOOL_NAME) && byName.has(toolCall.toolName)) return rerouteToBridge(toolCall);
      if (toolCall.toolName !== SEARCH_TOOL_NAME && exposed?.has(SEARCH_TOOL_NAME)) {
        if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value as string);
        pending.set(toolCall.toolCallId, toolCall.toolName);
        // search_tools is active, so the SDK runs it: its execute answers with the corrective result.
        return { ...toolCall, toolName: SEARCH_TOOL_NAME, input: '{}' };
      }
    }
    return options.repairToolCall ? options.repairToolCall(repair as never) : null;
  };

  return {
    tools,
    prepareStep,
    repairToolCall,
    experimental_repairToolCall: repairToolCall,
  } as unknown as ToolSearchSettings<TOOLS>;
}
