// The layer's ranking inside the AI SDK's own tool search: `toolSearch({ search: rankWith(layer) })` keeps the SDK's
// deferLoading and discovery, and ranks the deferred tools with this library (stemming, CJK, parameters, the
// semantic hook, learning) instead of the SDK's word match over names and descriptions.
import type { ToolSet } from 'ai';
import * as v from 'valibot';
import type { ToolSearch } from '../../core/create-tool-search.ts';
import type { Tool } from '../../core/types.ts';
import { parseOptions } from '../../core/validate.ts';
import { toLayerTools } from './tools.ts';

/** Options of `rankWith`: whose searches they are, and what the layer may index beyond names and descriptions. */
export interface RankWithOptions {
  /** The session the searches belong to: they count as the layer's own (its events, learning). Default `'ai-sdk-tool-search'`. */
  readonly sessionId?: string | undefined;
  /** Your full tool set, so the index covers parameters too. Default: the names and descriptions the SDK passes. */
  readonly tools?: ToolSet | undefined;
  /** Each tool's groups, by tool name (AI SDK tools carry none). */
  readonly groups?: { readonly [name: string]: readonly string[] } | undefined;
  /** The groups enabled for this session: a tool outside them is never returned. Omitted: every tool. */
  readonly enabledGroups?: readonly string[] | undefined;
}

/** The SDK's search callback: eligible deferred tools in, names in ranked order out. */
export type ToolSearchRanker = (options: {
  query: string;
  tools: Array<{ name: string; description?: string }>;
}) => Promise<string[]>;

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

  return async ({ query, tools: listed }) => {
    const context = { sessionId, tools: await eligible(listed), enabledGroups };
    const result = await layer.search(context, { query });
    return 'tools' in result ? result.tools.map((tool) => tool.name) : [];
  };
}
