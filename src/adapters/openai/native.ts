// The Responses API's native tool search, searched by the layer on the client. The documented rules
// (https://developers.openai.com/api/docs/guides/tools-tool-search): `tool_search` goes in the tools
// array with at least one deferred tool beside it; deferred functions carry `defer_loading: true`;
// namespaces group functions, and `defer_loading` applies to the functions inside a namespace, not to
// the namespace. A client-executed search (`execution: 'client'`) is answered with a
// `tool_search_output` item carrying the loaded definitions, which the API appends at the end of the
// context, so the tools array and the cached prefix stay as they were.
import type {
  FunctionTool,
  NamespaceTool,
  Tool as ResponsesTool,
  ResponseToolSearchOutputItemParam,
  ToolSearchTool,
} from 'openai/resources/responses/responses';
import { visibility } from '../../core/catalogue.ts';
import type { ToolSearch } from '../../core/create-tool-search.ts';
import { SEARCH_TOOL_NAME, searchToolDefinition } from '../../core/search-tool.ts';
import type { Tool } from '../../core/types.ts';
import { type ConvertedTools, strictSearchParameters } from '../provider-tools.ts';

/** Describes a group's namespace to the model, given the group and its tools' names. */
export type DescribeGroup = (group: string, names: readonly string[]) => string;

/** The native tools array of a round, and how to answer a search with the definitions it loads. */
export interface NativePlan {
  readonly tools: ResponsesTool[];
  /** The `tool_search_output` loading these names (unknown and non-deferred names are left out). */
  output(callId: string, names: readonly string[]): ResponseToolSearchOutputItemParam;
}

const defaultDescribe: DescribeGroup = (group, names) => `Tools of the "${group}" group: ${names.join(', ')}.`;

// One deferred copy per caller object, so the arrays built each round hold the same objects.
const deferredCopies = new WeakMap<object, FunctionTool>();

function deferred(tool: FunctionTool): FunctionTool {
  let copy = deferredCopies.get(tool);
  if (!copy) {
    copy = { ...tool, defer_loading: true };
    deferredCopies.set(tool, copy);
  }
  return copy;
}

const searchTools = new WeakMap<ToolSearch, ToolSearchTool>();

/** The client-executed `tool_search` tool: the layer's search description and a strict-compatible schema. */
function toolSearchTool(layer: ToolSearch): ToolSearchTool {
  let tool = searchTools.get(layer);
  if (!tool) {
    const definition = searchToolDefinition(layer.options.texts, undefined);
    tool = {
      type: 'tool_search',
      execution: 'client',
      description: definition.description ?? null,
      parameters: strictSearchParameters(definition),
    };
    searchTools.set(layer, tool);
  }
  return tool;
}

/** A namespace name the API accepts (letters, digits, `_` and `-`, at most 64), unique in the round. */
function namespaceName(group: string, taken: Set<string>): string {
  const base = group.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60) || 'group';
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

interface Placed {
  readonly definition: FunctionTool;
  readonly namespace?: { readonly name: string; readonly description: string } | undefined;
}

/**
 * The native tools of a round: `tool_search`, the direct tools, then every other visible tool deferred,
 * in catalogue order, each group's tools in one namespace placed where the group first appears. It depends
 * on the catalogue, the enabled groups and the direct tools only, never on what the session discovered.
 */
export function nativePlan(
  layer: ToolSearch,
  converted: ConvertedTools<ResponsesTool>,
  options: {
    readonly enabledGroups?: readonly string[] | undefined;
    readonly describeGroup?: DescribeGroup | undefined;
  },
): NativePlan {
  const catalogue = converted.tools;
  const visible = visibility(catalogue, options.enabledGroups, SEARCH_TOOL_NAME);
  const direct = new Set(layer.options.alwaysDirectTools);
  const seen = new Set<string>();
  const directTools: ResponsesTool[] = [];
  const groups = new Map<string, Tool[]>();
  const order: (Tool | string)[] = [];
  catalogue.forEach((tool, id) => {
    if (seen.has(tool.name) || !visible(id)) return;
    seen.add(tool.name);
    if (direct.has(tool.name)) return;
    const group = tool.groups?.[0];
    if (group === undefined) order.push(tool);
    else if (groups.has(group)) groups.get(group)?.push(tool);
    else {
      groups.set(group, [tool]);
      order.push(group);
    }
  });
  for (const name of layer.options.alwaysDirectTools) {
    const id = catalogue.findIndex((tool) => tool.name === name);
    const original = id >= 0 && visible(id) ? converted.original(catalogue[id] as Tool) : undefined;
    if (original) directTools.push(original);
  }
  const describeGroup = options.describeGroup ?? defaultDescribe;
  const placed = new Map<string, Placed>();
  // A namespace never takes the name of a top-level tool, nor of another namespace.
  const taken = new Set<string>([
    ...layer.options.alwaysDirectTools,
    ...order.flatMap((entry) => (typeof entry === 'string' ? [] : [entry.name])),
  ]);
  const deferredTools: ResponsesTool[] = order.map((entry) => {
    if (typeof entry !== 'string') {
      const definition = deferred(converted.original(entry) as FunctionTool);
      placed.set(entry.name, { definition });
      return definition;
    }
    const members = groups.get(entry) ?? [];
    const namespace = {
      name: namespaceName(entry, taken),
      description: describeGroup(
        entry,
        members.map((tool) => tool.name),
      ),
    };
    const tools = members.map((tool) => {
      const definition = deferred(converted.original(tool) as FunctionTool);
      placed.set(tool.name, { definition, namespace });
      return definition;
    });
    return { type: 'namespace', ...namespace, tools } satisfies NamespaceTool;
  });
  // The API requires a deferred tool beside tool_search; with none there is nothing to search.
  const tools = deferredTools.length > 0 ? [toolSearchTool(layer), ...directTools, ...deferredTools] : directTools;
  return { tools, output: (callId, names) => searchOutput(callId, names, placed) };
}

function searchOutput(
  callId: string,
  names: readonly string[],
  placed: ReadonlyMap<string, Placed>,
): ResponseToolSearchOutputItemParam {
  const tools: ResponsesTool[] = [];
  const namespaces = new Map<string, NamespaceTool>();
  for (const name of names) {
    const entry = placed.get(name);
    if (!entry) continue;
    if (!entry.namespace) {
      tools.push(entry.definition);
      continue;
    }
    let namespace = namespaces.get(entry.namespace.name);
    if (!namespace) {
      namespace = { type: 'namespace', ...entry.namespace, tools: [] };
      namespaces.set(entry.namespace.name, namespace);
      tools.push(namespace);
    }
    namespace.tools.push(entry.definition);
  }
  return { type: 'tool_search_output', call_id: callId, execution: 'client', status: 'completed', tools };
}
