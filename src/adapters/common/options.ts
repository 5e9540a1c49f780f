// The options every adapter takes, declared once with their docs: an adapter's options extend this shape (or pick
// the fields it reads) and narrow `exposure` to its modes; the session's context for the core is built one way.
import type { Tool } from '../../base/types.ts';
import type { UndiscoveredCallMode } from '../../core/calls.ts';
import type { Exposure, SearchResultsMode } from '../../exposure/mode.ts';
import type { SearchContext } from '../../layer/create-tool-search.ts';

/** Names a tool's group or groups (an MCP server, a toolset); provider tool objects have no field for it. */
export type GroupOf = (name: string) => string | readonly string[] | undefined;

/** The options shared by every adapter; each adapter's own options say its modes and its default. */
export interface AdapterOptions<E extends string> {
  /** The conversation: its discovered set is kept under this id. */
  readonly sessionId: string;
  /** The groups enabled this round: a tool in none of them is hidden. Omitted: every tool is visible. */
  readonly enabledGroups?: readonly string[] | undefined;
  /** Groups of the tools, by name. */
  readonly groupOf?: GroupOf | undefined;
  /** How the layer's tools reach the model; each adapter's options say its modes and its default. */
  readonly exposure?: E | undefined;
  /** 'compact': search results with a one-line parameter summary where the definition reaches the model anyway. Default 'full'. */
  readonly searchResults?: SearchResultsMode | undefined;
  /** What a call of a tool the model has not been shown gets: a hint to search ('hint', the default), or the definition. */
  readonly onUndiscoveredCall?: UndiscoveredCallMode | undefined;
}

/** The options of a provider adapter's request helper: the shared ones but the answer to an undiscovered call. */
export type ProviderOptions<E extends string> = Omit<AdapterOptions<E>, 'onUndiscoveredCall'>;

/**
 * The core's context for a round of an adapter's session. The adapter's mode is passed per call (the core runs
 * 'tools' or 'bridge'; an adapter's own modes run on top of one of them), so any layer works with any adapter.
 */
export function sessionContext(
  options: Pick<AdapterOptions<string>, 'sessionId' | 'enabledGroups'>,
  tools: readonly Tool[],
  exposure: Exposure,
  searchResults: SearchResultsMode | undefined,
): SearchContext {
  return {
    sessionId: options.sessionId,
    tools,
    enabledGroups: options.enabledGroups,
    exposure,
    ...(searchResults !== undefined && { searchResults }),
  };
}
