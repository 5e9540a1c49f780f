// The Responses API's native tool search, searched by the layer on the client. The documented rules
// (https://developers.openai.com/api/docs/guides/tools-tool-search): `tool_search` goes in the tools
// array with at least one deferred tool beside it; deferred functions carry `defer_loading: true`;
// namespaces group functions, and `defer_loading` applies to the functions inside a namespace, not to
// the namespace. The model sees only a namespace's name and description until a search loads it, and the
// guide asks for fewer than 10 functions per namespace with a clear, high-level description.
import type {
  FunctionTool,
  NamespaceTool,
  Tool as ResponsesTool,
  ToolSearchTool,
} from 'openai/resources/responses/responses';
import type { Tool } from '../../base/types.ts';
import { visibility } from '../../core/catalogue.ts';
import { SEARCH_TOOL_NAME, searchToolDefinition } from '../../core/search-tool.ts';
import type { ToolSearch } from '../../layer/create-tool-search.ts';
import { type ConvertedTools, strictSearchParameters } from '../common/provider-tools.ts';

/** Describes a group's namespace to the model, given the group and the names of the tools in that namespace. */
export type DescribeGroup = (group: string, names: readonly string[]) => string;

/** Where a deferred tool sits: its deferred definition, and the namespace holding it, if any. */
export interface Placed {
  readonly definition: FunctionTool;
  readonly namespace?: { readonly name: string; readonly description: string } | undefined;
}

/** The native tools array of a round, and where each deferred tool sits in it. */
export interface NativePlan {
  readonly tools: ResponsesTool[];
  readonly placed: ReadonlyMap<string, Placed>;
}

/** OpenAI's guide: "aim to keep each namespace to fewer than 10 functions". */
export const NAMESPACE_MAX_TOOLS = 9;
/** A default namespace description stays a line: the model reads it on every request. */
export const NAMESPACE_DESCRIPTION_CHARS = 120;

/** The default description: the group, then as many of its tools' names as fit in one short line. */
export const describeGroupShortly: DescribeGroup = (group, names) => {
  const head = `Tools of the "${group}" group: `;
  const listed: string[] = [];
  let length = head.length;
  for (const name of names) {
    const rest = names.length - listed.length - 1;
    const tail = rest > 0 ? ` and ${rest} more.` : '.';
    if (listed.length > 0 && length + name.length + 2 + tail.length > NAMESPACE_DESCRIPTION_CHARS) break;
    listed.push(name);
    length += name.length + 2;
  }
  const more = names.length - listed.length;
  return `${head}${listed.join(', ')}${more > 0 ? ` and ${more} more.` : '.'}`;
};

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

/** A group's tools in runs of at most NAMESPACE_MAX_TOOLS, as even as can be (10 tools: 5 and 5, not 9 and 1). */
function chunks<T>(items: readonly T[]): T[][] {
  const count = Math.ceil(items.length / NAMESPACE_MAX_TOOLS);
  const out: T[][] = [];
  for (let i = 0, start = 0; i < count; i++) {
    const end = start + Math.ceil((items.length - start) / (count - i));
    out.push(items.slice(start, end));
    start = end;
  }
  return out;
}

/** The visible tools in catalogue order, each name once: ungrouped tools alone, grouped ones by first group. */
function layout(
  catalogue: readonly Tool[],
  visible: (id: number) => boolean,
  direct: ReadonlySet<string>,
): { order: (Tool | string)[]; groups: Map<string, Tool[]> } {
  const seen = new Set<string>();
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
  return { order, groups };
}

/**
 * The native tools of a round: `tool_search`, the direct tools, then every other visible tool deferred, in
 * catalogue order, a group's tools in namespaces of at most NAMESPACE_MAX_TOOLS placed where the group first
 * appears. It depends on the catalogue, the enabled groups and the direct tools only, never on what the session
 * discovered, so it is the same every round.
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
  const directNames = layer.options.alwaysDirectTools;
  const { order, groups } = layout(catalogue, visible, new Set(directNames));
  const directTools: ResponsesTool[] = [];
  for (const name of directNames) {
    const id = catalogue.findIndex((tool) => tool.name === name);
    const original = id >= 0 && visible(id) ? converted.original(catalogue[id] as Tool) : undefined;
    if (original) directTools.push(original);
  }
  const describeNamespace = options.describeGroup ?? describeGroupShortly;
  const placed = new Map<string, Placed>();
  // A namespace never takes the name of a top-level tool, of another namespace, or of a caller's own tool
  // the layer passes through (a namespace of their own, a custom tool).
  const taken = new Set<string>([
    ...directNames,
    ...order.flatMap((e) => (typeof e === 'string' ? [] : [e.name])),
    ...converted.passthrough.flatMap((tool) => ('name' in tool && typeof tool.name === 'string' ? [tool.name] : [])),
  ]);
  const deferredTools: ResponsesTool[] = order.flatMap((entry): ResponsesTool[] => {
    if (typeof entry !== 'string') {
      const definition = deferred(converted.original(entry) as FunctionTool);
      placed.set(entry.name, { definition });
      return [definition];
    }
    return chunks(groups.get(entry) ?? []).map((members) => {
      const names = members.map((tool) => tool.name);
      const namespace = { name: namespaceName(entry, taken), description: describeNamespace(entry, names) };
      const tools = members.map((tool) => {
        const definition = deferred(converted.original(tool) as FunctionTool);
        placed.set(tool.name, { definition, namespace });
        return definition;
      });
      return { type: 'namespace', ...namespace, tools } satisfies NamespaceTool;
    });
  });
  // The API requires a deferred tool beside tool_search; with none there is nothing to search.
  const tools = deferredTools.length > 0 ? [toolSearchTool(layer), ...directTools, ...deferredTools] : directTools;
  return { tools, placed };
}
