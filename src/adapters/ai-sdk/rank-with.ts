// The layer's ranking inside the AI SDK's own tool search: `toolSearch({ search: rankWith(layer) })` keeps the SDK's
// deferLoading and discovery, and ranks the deferred tools with this library (stemming, CJK, parameters, the
// semantic hook, learning) instead of the SDK's word match over names and descriptions.
import type { ModelMessage, ToolSet } from 'ai';
import * as v from 'valibot';
import type { Tool } from '../../base/types.ts';
import { parseOptions } from '../../base/validate.ts';
import type { ToolSearch } from '../../layer/create-tool-search.ts';
import type { AdapterOptions } from '../common/options.ts';
import { readMessages } from './messages.ts';
import { toLayerTools } from './tools.ts';

/** Options of `rankWith`: whose searches they are, and what the layer may index beyond names and descriptions. */
export interface RankWithOptions extends Pick<AdapterOptions<string>, 'enabledGroups'> {
  /** The session the searches belong to: they count as the layer's own (its events, learning). Default `'ai-sdk-tool-search'`. */
  readonly sessionId?: string | undefined;
  /** Your full tool set, so the index covers parameters too. Default: the names and descriptions the SDK passes. */
  readonly tools?: ToolSet | undefined;
  /** Each tool's groups, by tool name (AI SDK tools carry none). */
  readonly groups?: { readonly [name: string]: readonly string[] } | undefined;
}

/**
 * The SDK's search callback: eligible deferred tools in, names in ranked order out. Its `prepareStep`, passed to
 * `generateText`, `streamText` or an agent, lets the layer learn from the step's history: the searches this callback
 * ranked and the tools the model then called with a result.
 */
export interface ToolSearchRanker {
  (options: { query: string; tools: Array<{ name: string; description?: string }> }): Promise<string[]>;
  /** `prepareStep: search.prepareStep`: hands the step's messages to the layer (it changes nothing in the step). */
  readonly prepareStep: (step: { readonly messages: readonly ModelMessage[] }) => Promise<undefined>;
}

const names = v.array(v.string('must be a string'), 'must be an array of strings');
const schema = v.strictObject(
  {
    sessionId: v.optional(v.string('must be a string'), 'ai-sdk-tool-search'),
    tools: v.optional(
      v.custom<ToolSet>((value) => typeof value === 'object' && value !== null, 'must be an AI SDK tool set'),
    ),
    groups: v.optional(v.record(v.string(), names, 'must map tool names to arrays of group names')),
    enabledGroups: v.optional(names),
  },
  'is not an option',
);

/**
 * A `search` callback for the AI SDK's `toolSearch` that ranks with this layer: the same index, rules and
 * `maxSearchResults` as `layer.search` (the SDK's `maxResults` applies after), enabled groups respected. Only the
 * eligible deferred tools the SDK passes are ranked.
 * @example tools: { toolSearch: toolSearch({ search: rankWith(layer, { tools }) }), ...deferred }
 */
export function rankWith(layer: ToolSearch, options?: RankWithOptions): ToolSearchRanker {
  const { sessionId, tools, groups, enabledGroups } = parseOptions(schema, options, 'rankWith');
  let full: Promise<Tool[]> | undefined;
  // The last eligible catalogue, reused while the SDK passes the same tools, so the layer's index is built once.
  let last: { key: string; tools: Tool[] } | undefined;

  async function eligible(listed: readonly { name: string; description?: string }[]): Promise<Tool[]> {
    const key = JSON.stringify(listed);
    if (last?.key === key) return last.tools;
    let catalogue: Tool[];
    if (tools) {
      full ??= toLayerTools(tools, groups);
      const wanted = new Set(listed.map((tool) => tool.name));
      catalogue = (await full).filter((tool) => wanted.has(tool.name));
    } else {
      catalogue = listed.map(({ name, description }) => {
        const toolGroups = groups?.[name];
        return { name, description: description ?? '', ...(toolGroups && { groups: toolGroups }) };
      });
    }
    last = { key, tools: catalogue };
    return catalogue;
  }

  const search = async ({ query, tools: listed }: Parameters<ToolSearchRanker>[0]) => {
    const context = { sessionId, tools: await eligible(listed), enabledGroups };
    const result = await layer.search(context, { query });
    return 'tools' in result ? result.tools.map((tool) => tool.name) : [];
  };

  const prepareStep = async (step: { readonly messages: readonly ModelMessage[] }): Promise<undefined> => {
    // The catalogue the layer knows: your tool set when given, else the tools the SDK passed to the last search.
    if (tools) full ??= toLayerTools(tools, groups);
    const catalogue = full ? await full : last?.tools;
    const searches = toolSearchCalls(step?.messages);
    if (!catalogue || searches.size === 0) return undefined;
    const messages = readMessages(step.messages, { is: (_name, _input, id) => searches.has(id) });
    await layer.prepare({ sessionId, tools: catalogue, messages, enabledGroups });
    return undefined;
  };
  return Object.assign(search, { prepareStep });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The ids of the SDK's `toolSearch()` calls in a history, known by their results: a JSON output with one key,
 * `tools`, a list of `{ name, description? }` (the SDK's output schema, which allows nothing else).
 */
function toolSearchCalls(messages: readonly ModelMessage[] | undefined): Set<string> {
  const ids = new Set<string>();
  if (!Array.isArray(messages)) return ids;
  for (const message of messages as readonly unknown[]) {
    if (!isRecord(message) || message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) {
      if (!isRecord(part) || part.type !== 'tool-result' || typeof part.toolCallId !== 'string') continue;
      const output = part.output;
      if (!isRecord(output) || output.type !== 'json' || !isRecord(output.value)) continue;
      const value = output.value;
      const keys = Object.keys(value);
      if (keys.length !== 1 || keys[0] !== 'tools' || !Array.isArray(value.tools)) continue;
      if (value.tools.every((tool) => isRecord(tool) && typeof tool.name === 'string')) ids.add(part.toolCallId);
    }
  }
  return ids;
}
