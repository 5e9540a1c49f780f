// The AI SDK (`ai` v7) adapter: a tool set with search_tools, and a prepareStep that activates what the session found.
import {
  type Tool as AiTool,
  jsonSchema,
  type ModelMessage,
  NoSuchToolError,
  type PrepareStepFunction,
  type ToolCallRepairFunction,
  type ToolSet,
} from 'ai';
import type { UndiscoveredCallMode, UndiscoveredCallResult } from '../../core/calls.ts';
import type { SearchContext, ToolSearch } from '../../core/create-tool-search.ts';
import { SEARCH_TOOL_NAME, searchToolDefinition, toFoundTool } from '../../core/search-tool.ts';
import { format } from '../../core/texts.ts';
import type { JsonSchema, Tool } from '../../core/types.ts';
import { toLayerMessages } from './messages.ts';
import { checkOptions } from './options.ts';
import { jsonSchemaOf } from './tools.ts';

/** What `withToolSearch` needs: the session, the full tool set, and how to answer calls of undiscovered tools. */
export interface WithToolSearchOptions<TOOLS extends ToolSet> {
  /** Opaque id of the conversation; discoveries persist across `generateText` calls with the same id. */
  readonly sessionId: string;
  /** Every tool the agent has, as for `generateText({ tools })`. */
  readonly tools: TOOLS;
  /** The groups enabled for this session; omitted: every tool is visible. */
  readonly enabledGroups?: readonly string[] | undefined;
  /** Each tool's groups, by tool name (AI SDK tools carry none). */
  readonly groups?: { readonly [name: string]: readonly string[] } | undefined;
  /** The answer to a call of a tool the model was never shown. Default 'hint'. */
  readonly onUndiscoveredCall?: UndiscoveredCallMode | undefined;
  /** Your own repair function, called for every tool-call error the layer does not answer. */
  readonly repairToolCall?: ToolCallRepairFunction<TOOLS> | undefined;
}

/** Spread into `generateText`, `streamText` or a `ToolLoopAgent`: the tools, the step hook and the call repair. */
export interface ToolSearchSettings<TOOLS extends ToolSet> {
  /** `search_tools` first, then your tools (their `execute` guarded against undiscovered calls). */
  readonly tools: TOOLS & { readonly search_tools: AiTool };
  /** Sets each step's `activeTools` and `toolOrder` from the layer. */
  readonly prepareStep: PrepareStepFunction<TOOLS & { readonly search_tools: AiTool }>;
  /** Answers a call of a tool that is not active this step with the layer's corrective result. */
  readonly repairToolCall: ToolCallRepairFunction<TOOLS & { readonly search_tools: AiTool }>;
  /** The same function under the name `ai` before 7.0.20 reads. */
  readonly experimental_repairToolCall: ToolCallRepairFunction<TOOLS & { readonly search_tools: AiTool }>;
}

type AnyTool = AiTool & {
  readonly type?: string;
  readonly deferLoading?: boolean;
  readonly description?: string | ((options: { context: unknown; experimental_sandbox?: unknown }) => string);
  readonly execute?: (input: unknown, options: { toolCallId: string }) => unknown;
  readonly toModelOutput?: (options: { toolCallId: string; input: unknown; output: unknown }) => unknown;
};

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

/**
 * Wraps a tool set for tool search with the AI SDK: the model starts with `search_tools` (plus the layer's
 * direct tools and what this session discovered before), and every tool it finds is active from the next step.
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
  const { sessionId, enabledGroups, groups } = options;
  const mode = options.onUndiscoveredCall ?? 'hint';
  const texts = layer.options.texts;
  const userTools = Object.entries(options.tools) as [string, AnyTool][];
  const searchable = userTools.filter(([, tool]) => !leftToSdk(tool));
  const sdkNames = userTools.filter(([, tool]) => leftToSdk(tool)).map(([name]) => name);
  const fallback = searchToolDefinition(texts, undefined);

  let definition: Tool | undefined; // the search tool the layer built for the latest step
  let exposed: ReadonlySet<string> | undefined; // names the model was sent in the latest step
  let latest: readonly Tool[] | undefined;
  const pending = new Map<string, string>();
  const corrective = new WeakSet<object>();

  // Each tool's JSON Schema is converted once; a function description is resolved per step, with its context.
  const schemas = new Map<string, Promise<JsonSchema | null>>();
  const schemaOf = (name: string, tool: AnyTool): Promise<JsonSchema | null> => {
    let schema = schemas.get(name);
    if (!schema) {
      schema = Promise.resolve()
        .then(() => jsonSchemaOf(tool))
        .catch((error: unknown) => {
          layer.options.logger.warn(
            `[tool-search-layer] ai-sdk: the input schema of "${name}" has no JSON Schema: ${error}`,
          );
          return null;
        });
      schemas.set(name, schema);
    }
    return schema;
  };
  let staticCatalogue: Promise<Tool[]> | undefined;
  const hasDynamic = searchable.some(([, tool]) => typeof tool.description === 'function');

  async function catalogue(context?: Record<string, unknown>, sandbox?: unknown): Promise<readonly Tool[]> {
    const build = () =>
      Promise.all(
        searchable.map(async ([name, tool]): Promise<Tool> => {
          let description = tool.description;
          if (typeof description === 'function') {
            try {
              description = description({ context: context?.[name], experimental_sandbox: sandbox });
            } catch {
              description = undefined;
            }
          }
          const toolGroups = groups?.[name];
          return {
            name,
            description: typeof description === 'string' ? description : '',
            parameters: await schemaOf(name, tool),
            ...(toolGroups && { groups: toolGroups }),
          };
        }),
      );
    // The same array every step keeps the layer's index and search tool cached by identity.
    if (!hasDynamic) staticCatalogue ??= build();
    const tools = await (staticCatalogue ?? build());
    latest = tools;
    return tools;
  }

  async function contextNow(): Promise<SearchContext> {
    return { sessionId, tools: latest ?? (await catalogue()), enabledGroups };
  }

  function answer(result: UndiscoveredCallResult): UndiscoveredCallResult {
    corrective.add(result);
    return result;
  }

  /** The answer to a call the SDK refused because the tool was not active in that step. */
  async function correct(name: string): Promise<UndiscoveredCallResult> {
    const context = await contextNow();
    const check = await layer.checkCall(context, name, { onUndiscoveredCall: mode });
    if (!check.ok) return answer(check.result);
    // Callable now (found by a search in the same step), but its arguments were written before the model saw it.
    const tool = context.tools.find((t) => t.name === name) as Tool;
    return answer({
      notCalled: name,
      error: format(texts.notDiscoveredError, { name }),
      hint: format(texts.discoveredNowHint, { name }),
      tools: [toFoundTool(tool)],
    });
  }

  const searchTool = {
    description: () => (definition ?? fallback).description ?? '',
    // The JSON Schema the model sees, without validation: the layer answers bad arguments itself.
    inputSchema: jsonSchema(fallback.parameters as never),
    execute: async (input: unknown, { toolCallId }: { toolCallId: string }) => {
      const refused = pending.get(toolCallId);
      if (refused !== undefined) {
        pending.delete(toolCallId);
        return correct(refused);
      }
      return layer.search(await contextNow(), input);
    },
  } as unknown as AiTool;

  const tools: Record<string, AiTool> = { [SEARCH_TOOL_NAME]: searchTool };
  for (const [name, tool] of userTools) tools[name] = leftToSdk(tool) ? tool : guard(name, tool);

  /** The tool with an `execute` that never runs a call of a tool the model was not sent in that step. */
  function guard(name: string, tool: AnyTool): AiTool {
    const execute = tool.execute;
    if (typeof execute !== 'function') return tool;
    const toModelOutput = tool.toModelOutput;
    return {
      ...tool,
      execute: (input: unknown, callOptions: { toolCallId: string }) => {
        // Without our prepareStep every tool was sent, so every schema was seen.
        if (exposed === undefined || exposed.has(name)) return execute(input, callOptions);
        return (async () => {
          const check = await layer.checkCall(await contextNow(), name, { onUndiscoveredCall: mode });
          if (!check.ok) return answer(check.result);
          return lastOf(execute(input, callOptions));
        })();
      },
      ...(toModelOutput && {
        toModelOutput: (output: { toolCallId: string; input: unknown; output: unknown }) =>
          isObject(output.output) && corrective.has(output.output)
            ? { type: 'json', value: output.output }
            : toModelOutput(output),
      }),
    } as AiTool;
  }

  const prepareStep = async (step: {
    messages: ModelMessage[];
    toolsContext?: unknown;
    experimental_sandbox?: unknown;
  }) => {
    const round = await catalogue(step.toolsContext as Record<string, unknown> | undefined, step.experimental_sandbox);
    const prepared = await layer.prepare({
      sessionId,
      tools: round,
      messages: toLayerMessages(step.messages),
      enabledGroups,
    });
    const names = prepared.tools.map((tool) => tool.name);
    exposed = new Set(names);
    if (prepared.bypassed) return { activeTools: [...names, ...sdkNames] };
    definition = prepared.tools[0];
    // The provider sees exactly the layer's order: search_tools, direct tools, discoveries in the order found.
    const order = [...names, ...sdkNames];
    return { activeTools: order, toolOrder: order };
  };

  const repairToolCall = async (repair: Parameters<ToolCallRepairFunction<ToolSet>>[0]) => {
    const { toolCall, error } = repair;
    if (NoSuchToolError.isInstance(error) && toolCall.toolName !== SEARCH_TOOL_NAME && exposed?.has(SEARCH_TOOL_NAME)) {
      if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value as string);
      pending.set(toolCall.toolCallId, toolCall.toolName);
      // search_tools is active, so the SDK runs it: its execute answers with the corrective result.
      return { ...toolCall, toolName: SEARCH_TOOL_NAME, input: '{}' };
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

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** The final output of an execute that may stream preliminary outputs. */
async function lastOf(result: unknown): Promise<unknown> {
  if (isObject(result) && Symbol.asyncIterator in result) {
    let last: unknown;
    for await (const output of result as AsyncIterable<unknown>) last = output;
    return last;
  }
  return result;
}
