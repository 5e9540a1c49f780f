// The exposure modes of SPEC 11: the option, the per-call override, and the little the core needs eagerly.
// Everything else of the bridge (its tools, callTool, the validator, compact results) loads on first use.
import * as v from 'valibot';
import { ToolSearchError } from '../base/errors.ts';
import type { Texts } from '../core/texts.ts';

/** What `prepare` sends: 'tools' (discovered tools join the tools block) or 'bridge' (a constant block, SPEC 11). */
export type Exposure = 'tools' | 'bridge';

/** How search results carry each tool: 'full' (the whole schema) or 'compact' (a one-line parameter summary). */
export type SearchResultsMode = 'full' | 'compact';

/** The per-call fields of a context that choose the mode; adapters pass them, overriding the layer's options. */
export interface ExposureContext {
  readonly exposure?: Exposure | undefined;
  readonly searchResults?: SearchResultsMode | undefined;
}

/**
 * The few of the layer's resolved options that the exposure modes read (the texts, the locale for the bridge's own
 * words, and what the names list shows), so that they depend on these fields and not on the whole option set.
 */
export interface ExposureSettings {
  readonly texts: Texts;
  readonly locale: 'en' | 'zh';
  readonly showToolNames: boolean;
  readonly toolNamesBudget: number;
  readonly alwaysDirectTools: readonly string[];
}

const EXPOSURES = ['tools', 'bridge'] as const;
const RESULTS = ['full', 'compact'] as const;
const oneOf = (values: readonly string[]) => `must be "${values.join('" or "')}"`;
// The core has no provider to defer tools to: the error says where the mode is.
const EXPOSURE_ERROR = `${oneOf(EXPOSURES)} ("native" is a mode of the OpenAI Responses, Anthropic and AI SDK adapters)`;

/** The valibot entries of the two options, spread into the options schema. */
export const exposureOptions: {
  readonly exposure: v.OptionalSchema<v.PicklistSchema<typeof EXPOSURES, string>, 'tools'>;
  readonly searchResults: v.OptionalSchema<v.PicklistSchema<typeof RESULTS, string>, 'full'>;
} = {
  exposure: v.optional(v.picklist(EXPOSURES, EXPOSURE_ERROR), 'tools'),
  searchResults: v.optional(v.picklist(RESULTS, oneOf(RESULTS)), 'full'),
};

// Bridge search results are the only place the model reads schemas: they are never compact.
const COMPACT_BRIDGE = '"compact" cannot be used with exposure "bridge"';

/**
 * The mode of one call: the context's fields over the layer's options. Throws ToolSearchError for a bad field.
 * A layer's own 'compact' gives way to a per-call 'bridge' (an adapter's mode works with any layer); a per-call
 * 'compact' with 'bridge' is refused.
 */
export function modeOf(
  context: ExposureContext,
  options: { readonly exposure: Exposure; readonly searchResults: SearchResultsMode },
  call: string,
): { readonly exposure: Exposure; readonly compact: boolean } {
  const { exposure = options.exposure, searchResults } = context;
  const bad = !EXPOSURES.includes(exposure)
    ? `exposure ${EXPOSURE_ERROR}`
    : searchResults !== undefined && !RESULTS.includes(searchResults)
      ? `searchResults ${oneOf(RESULTS)}`
      : exposure === 'bridge' && searchResults === 'compact'
        ? COMPACT_BRIDGE
        : undefined;
  if (bad) throw new ToolSearchError(`${call}: ${bad}`);
  return { exposure, compact: exposure !== 'bridge' && (searchResults ?? options.searchResults) === 'compact' };
}

/** The keys of the bridge's texts (their words load with the bridge): the `texts` option accepts them too. */
export const BRIDGE_TEXT_KEYS = [
  'bridgeDescription',
  'callToolDescription',
  'callNameParam',
  'callArgumentsParam',
  'bridgeHintFound',
  'compactHintFound',
  'callArgsError',
  'callArgsHint',
  'reasonCallNotObject',
  'reasonCallName',
  'reasonCallArguments',
  'callSelfError',
  'callSelfHint',
  'callSearchHint',
  'unavailableError',
  'unavailableHint',
  'invalidArgsError',
  'invalidArgsHint',
  'refusedArgsError',
  'refusedArgsHint',
] as const;
