// What the provider adapters share: the provider-to-layer tool cache, the strict search schema, and the routing of
// one tool call (search, corrective result, or execution).

import { ToolSearchError } from '../../base/errors.ts';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import type { JsonSchema, Tool } from '../../base/types.ts';
import type { CallCheck, UndiscoveredCallResult } from '../../core/calls.ts';
import type { SearchErrorResult, SearchResult } from '../../core/search-tool.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { CallRefusal } from '../../exposure/call-tool.ts';
import type { CompactSearchResult } from '../../exposure/compact.ts';
import type { SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import type { AdapterOptions, GroupOf } from './options.ts';

/** What a tool executor receives: the call's name, its parsed arguments, and the caller's own tool object. */
export interface ToolExecution<P> {
  readonly name: string;
  /** The model's arguments, parsed from JSON when they were a JSON string. */
  readonly arguments: unknown;
  /** The caller's tool object with this name. */
  readonly tool: P;
}

/** Runs a tool the model may call; a string result is sent as is, anything else as JSON. */
export type ExecuteTool<P> = (call: ToolExecution<P>) => unknown;

/** Layer tools for a provider's tools, and the way back to the caller's objects. */
export interface ConvertedTools<P> {
  /** The provider's function tools as layer tools, same objects across rounds for the same inputs. */
  readonly tools: Tool[];
  /** The tools the layer does not manage (built-in and custom tools); sent as they are. */
  readonly passthrough: P[];
  /** The caller's object behind a layer tool. */
  readonly original: (tool: Tool) => P | undefined;
}

const noGroups: GroupOf = () => undefined;

/** Converts provider tools to layer tools once per object (and per `groupOf`), so the layer's index is reused. */
/* @__NO_SIDE_EFFECTS__ */
export function toolConverter<P extends object>(
  convert: (tool: P, groupsOf: (name: string) => readonly string[] | undefined) => Tool | undefined,
): (tools: readonly P[] | undefined, groupOf?: GroupOf) => ConvertedTools<P> {
  const byGroupOf = new WeakMap<GroupOf, WeakMap<P, Tool | null>>();
  const originals = new WeakMap<Tool, P>();
  return (tools, groupOf = noGroups) => {
    let cache = byGroupOf.get(groupOf);
    if (!cache) {
      cache = new WeakMap();
      byGroupOf.set(groupOf, cache);
    }
    const converted: Tool[] = [];
    const passthrough: P[] = [];
    for (const tool of tools ?? []) {
      let layerTool = cache.get(tool);
      if (layerTool === undefined) {
        layerTool = convert(tool, (name) => groupList(groupOf(name))) ?? null;
        cache.set(tool, layerTool);
        if (layerTool) originals.set(layerTool, tool);
      }
      if (layerTool) converted.push(layerTool);
      else passthrough.push(tool);
    }
    return { tools: converted, passthrough, original: (tool) => originals.get(tool) };
  };
}

function groupList(groups: string | readonly string[] | undefined): readonly string[] | undefined {
  if (groups === undefined) return undefined;
  return typeof groups === 'string' ? [groups] : groups;
}

/** A layer tool from a name, description and schema, leaving out absent fields (the layer's types are exact). */
export function layerTool(
  name: string,
  description: string | null | undefined,
  parameters: unknown,
  groups: readonly string[] | undefined,
): Tool {
  return {
    name,
    ...(typeof description === 'string' && { description }),
    ...(parameters !== undefined && parameters !== null && { parameters: parameters as JsonSchema }),
    ...(groups && { groups }),
  };
}

const strictSchemas = new WeakMap<Tool, JsonSchema>();

/**
 * The search tool's parameters for OpenAI strict mode: every property required, `limit` and `offset`
 * nullable, no other properties (https://platform.openai.com/docs/guides/function-calling#strict-mode).
 * The layer reads null as "not given".
 */
export function strictSearchParameters(searchTool: Tool): JsonSchema {
  let schema = strictSchemas.get(searchTool);
  if (!schema) {
    const properties = (searchTool.parameters?.properties ?? {}) as Record<string, { description?: string }>;
    const nullableInteger = (key: string) => ({
      type: ['integer', 'null'],
      ...(properties[key]?.description !== undefined && { description: properties[key]?.description }),
    });
    schema = {
      type: 'object',
      properties: {
        query: { type: 'string', ...(properties.query?.description && { description: properties.query.description }) },
        limit: nullableInteger('limit'),
        offset: nullableInteger('offset'),
      },
      required: ['query', 'limit', 'offset'],
      additionalProperties: false,
    };
    strictSchemas.set(searchTool, schema);
  }
  return schema;
}

/**
 * A layer tool as a provider's function tool, built once per tool object (a strict `search_tools` apart, since the
 * strict schema applies to it only), so a round sends the same objects as the round before.
 */
/* @__NO_SIDE_EFFECTS__ */
export function definitionCache<D>(
  build: (tool: Tool, strict: boolean) => D,
): (tool: Tool, strictSearch?: boolean) => D {
  const plain = new WeakMap<Tool, D>();
  const strictOnes = new WeakMap<Tool, D>();
  return (tool, strictSearch = false) => {
    const strict = strictSearch && tool.name === SEARCH_TOOL_NAME;
    const cache = strict ? strictOnes : plain;
    let definition = cache.get(tool);
    if (definition === undefined) {
      definition = build(tool, strict);
      cache.set(tool, definition);
    }
    return definition;
  };
}

/** The outcome of one tool call, before it is put in the provider's shape. */
export type RoutedCall =
  | { readonly kind: 'search'; readonly result: SearchResult | CompactSearchResult | SearchErrorResult }
  | { readonly kind: 'corrective'; readonly result: UndiscoveredCallResult | CallRefusal }
  | { readonly kind: 'executed'; readonly output: string };

/** Parses JSON arguments when they are a JSON string; anything else is passed on as it is. */
export function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** The text a tool result carries: strings as they are, anything else as JSON. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  return JSON.stringify(output) ?? '';
}

/** What routing a call needs of an adapter's answer helper: its options and the round's tools. */
export interface Routing<P> extends Pick<AdapterOptions<string>, 'onUndiscoveredCall'> {
  readonly execute?: ExecuteTool<P> | undefined;
  /** The round's tools: the layer's, the way back to the caller's objects, and those the layer does not manage. */
  readonly converted: ConvertedTools<P>;
  /** A caller's tool's name, to find a call of a tool the layer does not manage (always sent, executed as it is). */
  readonly nameOf: (tool: P) => unknown;
}

/**
 * Routes one tool call: `search_tools` to `layer.search`; `call_tool` (the bridge) to `layer.callTool`, running the
 * tool it names with the model's arguments unchanged; any other name through `layer.checkCall`, executing it only
 * when the model may call it (its schema was shown to the model). A call that may not run gets the corrective result.
 */
export async function routeCall<P>(
  layer: ToolSearch,
  context: SearchContext,
  call: { readonly name: string; readonly arguments: unknown },
  options: Routing<P>,
): Promise<RoutedCall> {
  if (call.name === SEARCH_TOOL_NAME) {
    return { kind: 'search', result: await layer.search(context, call.arguments) };
  }
  const own = context.tools.some((tool) => tool.name === call.name);
  if (call.name === CALL_TOOL_NAME && !own) return bridged(layer, context, call.arguments, options);
  const unmanaged = options.converted.passthrough.find((tool) => options.nameOf(tool) === call.name);
  if (unmanaged !== undefined && !own) {
    return execute(options.execute, call, unmanaged);
  }
  const check: CallCheck = await layer.checkCall(
    context,
    call.name,
    options.onUndiscoveredCall ? { onUndiscoveredCall: options.onUndiscoveredCall } : undefined,
  );
  if (!check.ok) return { kind: 'corrective', result: check.result };
  const tool = context.tools.find((t) => t.name === call.name);
  return execute(options.execute, call, tool && options.converted.original(tool));
}

/**
 * The tools to send, in order, each name once: a provider rejects a request that repeats a name, and an entry
 * with no usable name is never sent (the layer skipped it). Tools without a name (built-in ones) are all kept.
 */
export function uniqueTools<P>(tools: readonly P[], nameOf: (tool: P) => unknown): P[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    const name = nameOf(tool);
    if (name === undefined) return true;
    if (typeof name !== 'string' || name === '' || seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

/** A `call_tool` call: the layer says whether the named tool may run, and with which (unchanged) arguments. */
async function bridged<P>(
  layer: ToolSearch,
  context: SearchContext,
  args: unknown,
  options: Routing<P>,
): Promise<RoutedCall> {
  const checked = await layer.callTool(
    context,
    args,
    options.onUndiscoveredCall ? { onUndiscoveredCall: options.onUndiscoveredCall } : undefined,
  );
  if (!checked.ok) return { kind: 'corrective', result: checked.result };
  const run = options.execute;
  const tool = options.converted.original(checked.tool);
  if (!run || tool === undefined) {
    throw new ToolSearchError(`no executor for the tool call "${checked.name}": pass execute, or answer it yourself`);
  }
  const output = await run({ name: checked.name, arguments: checked.arguments, tool });
  return { kind: 'executed', output: outputText(output) };
}

async function execute<P>(
  run: ExecuteTool<P> | undefined,
  call: { readonly name: string; readonly arguments: unknown },
  tool: P | undefined,
): Promise<RoutedCall> {
  if (!run || tool === undefined) {
    throw new ToolSearchError(`no executor for the tool call "${call.name}": pass execute, or answer it yourself`);
  }
  const output = await run({ name: call.name, arguments: parseArguments(call.arguments), tool });
  return { kind: 'executed', output: outputText(output) };
}
