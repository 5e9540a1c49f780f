// Anthropic Messages API: the request helper, in four exposure modes. 'native' (the default), 'bridge' and
// 'inline' keep `system`, `tools` and the earlier messages byte-identical from round to round, as Anthropic's
// prompt cache and its prefix check on thinking blocks need; 'tools' replaces the tools array at each discovery.
import type { ToolReferenceBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages/messages';
import { ToolSearchError } from '../../base/errors.ts';
import type { Tool } from '../../base/types.ts';
import type { SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import { type ProviderOptions, sessionContext } from '../common/options.ts';
import { type ConvertedTools, uniqueTools } from '../common/provider-tools.ts';
import { ANTHROPIC_SEARCH_LIMIT, checkToolLimit } from '../common/tool-limit.ts';
import type { AnthropicInlineBody, AnthropicMessagesBody } from './bodies.ts';
import { inlineBody } from './inline.ts';
import { anthropicMessagesToMessages, convertAnthropicTools, toolToAnthropicTool } from './messages.ts';
import { nativeTools, referencedNames } from './native.ts';

/** How the layer's tools reach the model; see docs/anthropic.md for which to pick. */
export type AnthropicExposure = 'native' | 'bridge' | 'inline' | 'tools';

const EXPOSURES: readonly AnthropicExposure[] = ['native', 'bridge', 'inline', 'tools'];

/**
 * Options shared by `prepareAnthropicMessages` and `answerAnthropicToolUse` (pass the same `exposure` to both).
 * `exposure`: 'native' (default): catalogue tools deferred, found tools loaded by `tool_reference`; 'bridge':
 * `search_tools` and `call_tool` only; 'inline': found tools added in `role: 'system'` messages (beta); 'tools': the
 * tools array is replaced at each discovery (not append-only). `searchResults` 'compact' gives each tool's name,
 * description and a one-line parameter summary, since the definition reaches the model anyway ('tools': in `tools`;
 * 'native': by `tool_reference`; 'inline': in a `tool_addition`); refused with 'bridge', where results are the
 * model's only schemas.
 */
export interface AnthropicOptions extends ProviderOptions<AnthropicExposure> {
  /** @deprecated `native: true` is `exposure: 'native'`, `native: false` is `exposure: 'tools'`. */
  readonly native?: boolean | undefined;
  /**
   * Turns on Anthropic's prompt cache for every round (a top-level `cache_control`, which puts a breakpoint on the
   * last cacheable block; the append-only modes keep each round's prefix cached for the next). Default true; left
   * alone when the body has its own top-level `cache_control` or already four breakpoints, and in a round the layer
   * steps aside from (sent as the caller gave it).
   */
  readonly promptCache?: boolean | undefined;
}

/** Breakpoints the API takes in one request. */
const MAX_BREAKPOINTS = 4;

/** The `cache_control` marks already in a body's system, tools and messages. */
function breakpoints(body: { system?: unknown; tools?: unknown; messages?: unknown }): number {
  let count = 0;
  const visit = (value: unknown) => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === 'object' && value !== null) {
      if ((value as { cache_control?: unknown }).cache_control) count++;
      const { content } = value as { content?: unknown };
      if (Array.isArray(content)) visit(content);
    }
  };
  visit(body.system);
  visit(body.tools);
  visit(body.messages);
  return count;
}

/** The body with the prompt cache on, unless the caller chose otherwise or has no breakpoint left for it. */
function withPromptCache<T extends object>(body: T, options: AnthropicOptions): T {
  if (options.promptCache === false || 'cache_control' in body) return body;
  if (breakpoints(body) >= MAX_BREAKPOINTS) return body;
  return { ...body, cache_control: { type: 'ephemeral' } };
}

/** The core's context for a call in this mode: the core runs 'bridge' itself, every other mode on top of 'tools'. */
export const coreContext = (
  options: AnthropicOptions,
  exposure: AnthropicExposure,
  tools: readonly Tool[],
): SearchContext => sessionContext(options, tools, exposure === 'bridge' ? 'bridge' : 'tools', options.searchResults);

/** The exposure of a call: `exposure`, else the deprecated `native`, else 'native'. Throws on an unknown mode. */
export function exposureOf(options: AnthropicOptions): AnthropicExposure {
  const { exposure, native } = options;
  if (exposure === undefined) return native === false ? 'tools' : 'native';
  if (!EXPOSURES.includes(exposure)) {
    throw new ToolSearchError(
      `anthropic: options.exposure must be one of ${EXPOSURES.map((e) => `"${e}"`).join(', ')} (received ${JSON.stringify(exposure)})`,
    );
  }
  return exposure;
}

/** The tools to send, each name once: the API rejects repeated names with a 400, even of one object sent twice. */
const unique = (tools: readonly ToolUnion[]): ToolUnion[] =>
  uniqueTools(tools, (tool) => ('name' in tool ? tool.name : undefined));

/**
 * A bypassed round's tools: the caller's own array when it has no repeated or malformed entry, else the entries the
 * layer kept (first of each name) with Anthropic's own tools in place.
 */
function bypassedTools(body: AnthropicMessagesBody, converted: ConvertedTools<ToolUnion>, kept: readonly Tool[]) {
  const all = body.tools ?? [];
  if (kept.length === converted.tools.length && new Set(all).size === all.length) return undefined;
  const keep = new Set(kept.map((tool) => converted.original(tool)));
  const passthrough = new Set(converted.passthrough);
  return unique(all.filter((tool) => passthrough.has(tool) || keep.has(tool)));
}

/**
 * Returns the body for this round. 'native': `search_tools`, the direct tools and every other visible tool with
 * `defer_loading: true`. 'bridge': `search_tools`, `call_tool` and the direct tools. 'inline': `search_tools` and
 * the direct tools, found tools added to the messages in `tool_addition` blocks, with the betas this needs (send it
 * with `client.beta.messages.create`). 'tools': `search_tools`, the direct tools and the tools found so far.
 * Anthropic's own tools (bash, web search, tool search …) are kept, after the layer's.
 * @example
 * const request = await prepareAnthropicMessages(layer, { model, max_tokens, messages, tools }, { sessionId })
 * const message = await client.messages.create(request)
 */
export async function prepareAnthropicMessages<B extends AnthropicMessagesBody>(
  layer: ToolSearch,
  body: B,
  options: AnthropicOptions & { readonly exposure: 'inline' },
): Promise<AnthropicInlineBody<B>>;
export async function prepareAnthropicMessages<B extends AnthropicMessagesBody>(
  layer: ToolSearch,
  body: B,
  options: AnthropicOptions & { readonly exposure?: Exclude<AnthropicExposure, 'inline'> | undefined },
): Promise<B>;
export async function prepareAnthropicMessages<B extends AnthropicMessagesBody>(
  layer: ToolSearch,
  body: B,
  options: AnthropicOptions,
): Promise<B | AnthropicInlineBody<B>>;
export async function prepareAnthropicMessages<B extends AnthropicMessagesBody>(
  layer: ToolSearch,
  body: B,
  options: AnthropicOptions,
): Promise<B | AnthropicInlineBody<B>> {
  const exposure = exposureOf(options);
  const converted = convertAnthropicTools(body.tools, options.groupOf);
  const prepared = await layer.prepare({
    ...coreContext(options, exposure, converted.tools),
    messages: anthropicMessagesToMessages(body.messages, body.system),
  });
  if (prepared.bypassed) {
    const tools = bypassedTools(body, converted, prepared.tools);
    return tools ? { ...body, tools } : body;
  }
  const original = (tool: Tool): ToolUnion => converted.original(tool) ?? toolToAnthropicTool(tool);
  if (exposure === 'native') {
    const referenced = referencedNames(body.messages);
    const tools = unique([
      ...nativeTools(layer, converted, prepared.tools, { enabledGroups: options.enabledGroups, referenced }),
      ...converted.passthrough,
    ]);
    // The one published limit: tool search's catalogue. Other modes send fewer tools than native does.
    checkToolLimit(layer, options.sessionId, ANTHROPIC_SEARCH_LIMIT, tools.length);
    return withPromptCache({ ...body, tools }, options);
  }
  if (exposure !== 'inline') {
    return withPromptCache(
      { ...body, tools: unique([...prepared.tools.map(original), ...converted.passthrough]) },
      options,
    );
  }
  const direct = layer.options.alwaysDirectTools;
  return withPromptCache(inlineBody(body, converted, prepared.tools, { direct, original }), options);
}

/** `tool_reference` blocks that load these tools (native mode). */
export const references = (names: readonly string[]): ToolReferenceBlockParam[] =>
  names.map((name) => ({ type: 'tool_reference', tool_name: name }));
