// Native exposure through the AI SDK's provider packages, as read in their sources (@ai-sdk/anthropic 4,
// @ai-sdk/openai 4). Anthropic: a function tool's `providerOptions.anthropic.deferLoading` becomes `defer_loading`,
// and a tool result of `content` parts `{ type: 'custom', providerOptions: { anthropic: { type: 'tool-reference',
// toolName } } }` becomes `tool_reference` blocks. OpenAI Responses: `providerOptions.openai.deferLoading` becomes
// `defer_loading`, and the provider tool `openai.tool_search` with `execution: 'client'` is answered by our
// `execute`, whose `{ tools }` goes back as a `tool_search_output` item. Other providers drop these options and would
// send every tool in full, so a native step with any other model throws.
import { type Tool as AiTool, jsonSchema } from 'ai';
import { ToolSearchError } from '../../base/errors.ts';
import type { Tool } from '../../base/types.ts';
import { visibility } from '../../core/catalogue.ts';
import { SEARCH_TOOL_NAME, type SearchErrorResult, type SearchResult } from '../../core/search-tool.ts';
import { strictSearchParameters } from '../common/provider-tools.ts';
import type { AnyTool } from './catalogue.ts';
import type { AdapterSession, NativeProvider } from './session.ts';

type ProviderOptions = Record<string, Record<string, unknown> | undefined>;

/** The provider whose deferral a model's requests carry, or undefined when its package passes none through. */
export function nativeProviderOf(model: unknown): NativeProvider | undefined {
  const provider = typeof model === 'object' && model !== null ? (model as { provider?: unknown }).provider : undefined;
  if (typeof provider !== 'string') return undefined;
  // anthropic.messages, and the Anthropic models of other hosts built on the same package (vertex.anthropic.messages).
  if (provider.includes('anthropic')) return 'anthropic';
  if (provider.endsWith('.responses')) return 'openai';
  return undefined;
}

/** Throws for a native step whose model cannot defer tools. */
export function unsupportedModel(model: unknown): never {
  const provider =
    typeof model === 'string' ? `the model id "${model}"` : `provider "${(model as { provider?: unknown })?.provider}"`;
  throw new ToolSearchError(
    `withToolSearch: exposure "native" needs an Anthropic model (@ai-sdk/anthropic) or an OpenAI Responses model (@ai-sdk/openai), and got ${provider}; use exposure "bridge" with other models`,
  );
}

/**
 * A tool's provider options with deferral on for both packages (each reads only its own key). Anthropic refuses
 * `cache_control` on a deferred tool, so a cache breakpoint on it is dropped.
 */
export function deferredOptions(options: ProviderOptions | undefined): ProviderOptions {
  const withoutCache = (entry: Record<string, unknown> | undefined) => {
    const { cacheControl: _c, cache_control: _cc, ...rest } = entry ?? {};
    return rest;
  };
  const out: ProviderOptions = {};
  for (const [key, entry] of Object.entries(options ?? {})) out[key] = withoutCache(entry);
  out.anthropic = { ...out.anthropic, deferLoading: true };
  out.openai = { ...out.openai, deferLoading: true };
  return out;
}

/** The names a native step sends deferred: every visible catalogue tool but the direct ones, catalogue order. */
export function deferredNames(
  round: readonly Tool[],
  enabledGroups: readonly string[] | undefined,
  direct: ReadonlySet<string>,
): string[] {
  const visible = visibility(round, enabledGroups, SEARCH_TOOL_NAME);
  const names: string[] = [];
  const seen = new Set<string>();
  round.forEach((tool, id) => {
    if (visible(id) && !direct.has(tool.name) && !seen.has(tool.name)) names.push(tool.name);
    seen.add(tool.name);
  });
  return names;
}

// Search results answered with tool_reference blocks: the names they load, by result object.
const references = new WeakMap<object, readonly string[]>();

/** Marks a search result of a native Anthropic step, so its model output loads the deferred tools found. */
export function referTo(session: AdapterSession, result: SearchResult | SearchErrorResult): typeof result {
  if (session.state.native !== 'anthropic' || !('tools' in result)) return result;
  // A tool marked `shown` is loaded already: an earlier tool_reference in the history holds its definition. A search
  // that found only such tools answers as JSON, which names them and says where their parameters are.
  const loadable = result.tools
    .filter((tool) => !tool.shown && session.state.deferred.has(tool.name))
    .map((tool) => tool.name);
  if (loadable.length > 0) references.set(result, loadable);
  return result;
}

/**
 * `search_tools`' model output: `tool_reference` blocks for the deferred tools a native Anthropic search found (a
 * result that loads tools holds only those, as Anthropic's custom tool search documents), JSON otherwise.
 */
export function searchModelOutput({ output }: { output: unknown }): unknown {
  const names = typeof output === 'object' && output !== null ? references.get(output) : undefined;
  if (!names) return { type: 'json', value: output };
  return {
    type: 'content',
    value: names.map((toolName) => ({
      type: 'custom',
      providerOptions: { anthropic: { type: 'tool-reference', toolName } },
    })),
  };
}

/**
 * OpenAI's client-executed `tool_search`: the layer searches, and the definitions of the deferred tools found go
 * back in the `tool_search_output`, which the API appends at the end of the context.
 */
export function openAiToolSearch(
  session: AdapterSession,
  definition: () => Tool,
  tools: ReadonlyMap<string, AnyTool>,
): AiTool {
  return {
    type: 'provider',
    isProviderExecuted: false,
    id: 'openai.tool_search',
    // Getters: the texts are the layer's once its first call has loaded them (locale 'zh' loads on first use).
    args: {
      execution: 'client',
      get description() {
        return definition().description ?? '';
      },
      get parameters() {
        return strictSearchParameters(definition());
      },
    },
    inputSchema: jsonSchema({ type: 'object', properties: { arguments: {}, call_id: {} } }),
    execute: async (input: { arguments?: unknown }) => {
      const context = await session.context();
      const result = await session.layer.search(context, input?.arguments);
      if (!('tools' in result)) return { tools: [] };
      // The definitions as the catalogue has them (a layer with compact results summarises the parameters).
      const byName = new Map(context.tools.map((tool) => [tool.name, tool]));
      const deferred = result.tools.filter((tool) => session.state.deferred.has(tool.name));
      // A tool marked `shown` is loaded already by an earlier tool_search_output in the input. A search that found
      // only such tools loads them all again: an empty output reads as "nothing found".
      const fresh = deferred.filter((tool) => !tool.shown);
      const found = (fresh.length > 0 ? fresh : deferred).map((tool) => byName.get(tool.name) as Tool);
      return {
        tools: found.map((tool) => ({
          type: 'function',
          name: tool.name,
          description: tool.description ?? '',
          parameters: tool.parameters ?? { type: 'object', properties: {} },
          strict: tools.get(tool.name)?.strict ?? false,
          defer_loading: true,
        })),
      };
    },
  } as unknown as AiTool;
}
