// The options of createToolSearch: schema, defaults, and errors that name the path and the reason.
import * as v from 'valibot';
import type { Logger } from '../base/types.ts';
import { count, parseOptions } from '../base/validate.ts';
import type { EventListener } from '../core/events.ts';
import { locales, type Texts } from '../core/texts.ts';
import { BRIDGE_TEXT_KEYS, type Exposure, exposureOptions, modeOf, type SearchResultsMode } from '../exposure/mode.ts';
import type { BridgeTexts } from '../exposure/texts.ts';
import { type LearnOptions, learnSchema, type ResolvedLearn } from '../learn/options.ts';
import { type ResolvedSemantic, type SemanticOptions, semanticSchema } from '../semantic/options.ts';
import { createMemoryStore } from '../stores/memory.ts';
import type { DiscoveredStore } from '../stores/store.ts';
import { type LocaleTexts, localeTexts } from './locale-loader.ts';

/** What `createToolSearch` accepts; every field is optional and defaults as documented. */
export interface ToolSearchOptions {
  /** false: `prepare` passes the tools through unchanged. Default true. */
  readonly enabled?: boolean;
  /** The search tool's description lists the other tools' names. Default true. */
  readonly showToolNames?: boolean;
  /** A round with at most this many tools (not counting search_tools) is passed through. Default 5. */
  readonly maxDirectTools?: number;
  /** The most tools one search returns; 0 = no limit. Default 5. */
  readonly maxSearchResults?: number;
  /** Tools always exposed with their full definitions, in this order. Default []. */
  readonly alwaysDirectTools?: readonly string[];
  /** The discovered set keeps at most this many tools, the most recently used; 0 = no limit (bounded by the catalogue, docs/core.md). Default 20. */
  readonly maxDiscoveredKeep?: number;
  /** The most characters the names list may take before it is cut (whole names, catalogue order); 0 = no limit. Default 6,000. */
  readonly toolNamesBudget?: number;
  /** Where discovered sets are kept. Default: a bounded in-memory store of this layer. */
  readonly store?: DiscoveredStore;
  /** The longest wait for one store call before the round goes on from memory, in ms; 0 = no limit. Default 1,000. */
  readonly storeTimeoutMs?: number;
  /** After a store failed, how long the layer keeps the affected sessions in memory before trying it again, in ms. Default 10,000. */
  readonly storeRetryMs?: number;
  /** Receives warnings. Default: console.warn. */
  readonly logger?: Logger;
  /** The built-in model-facing texts; 'zh' is loaded with the layer's first call. Default 'en'. */
  readonly locale?: 'en' | 'zh';
  /** Overrides single texts of the locale (the bridge's texts included). */
  readonly texts?: Partial<Texts & BridgeTexts>;
  /** A semantic ranker (the host's embedding model) fused with the built-in ranking. Default: none. */
  readonly semantic?: SemanticOptions;
  /** Learn from this layer's sessions which tools answer which searches, and reorder searches by it (docs/ranking.md). Default false. */
  readonly learn?: boolean | LearnOptions;
  /** Receives the layer's events (searches, discoveries, evictions, refused calls, store outages); see docs/core.md. */
  readonly onEvent?: EventListener;
  /** What `prepare` sends when a call does not say: 'tools' (SPEC 4) or 'bridge' (a constant tools block, SPEC 11). Default 'tools'. */
  readonly exposure?: Exposure;
  /** 'compact': search results carry a one-line parameter summary ('tools' mode only; refused with 'bridge'). Default 'full'. */
  readonly searchResults?: SearchResultsMode;
}

/** The options with every default applied and the texts merged. */
export interface ResolvedOptions {
  readonly enabled: boolean;
  readonly showToolNames: boolean;
  readonly maxDirectTools: number;
  readonly maxSearchResults: number;
  readonly alwaysDirectTools: readonly string[];
  readonly maxDiscoveredKeep: number;
  readonly toolNamesBudget: number;
  readonly store: DiscoveredStore;
  readonly storeTimeoutMs: number;
  readonly storeRetryMs: number;
  readonly logger: Logger;
  readonly texts: Texts;
  readonly semantic: ResolvedSemantic | undefined;
  readonly learn: ResolvedLearn | undefined;
  readonly onEvent?: EventListener | undefined;
  readonly locale: 'en' | 'zh';
  readonly exposure: Exposure;
  readonly searchResults: SearchResultsMode;
}

const isFunction = (value: unknown): boolean => typeof value === 'function';
const methods =
  (...names: string[]) =>
  (value: unknown) =>
    typeof value === 'object' &&
    value !== null &&
    names.every((name) => isFunction((value as Record<string, unknown>)[name]));

const textKeys = [...Object.keys(locales.en), ...BRIDGE_TEXT_KEYS];

const schema = v.strictObject(
  {
    enabled: v.optional(v.boolean(), true),
    showToolNames: v.optional(v.boolean(), true),
    maxDirectTools: count(5),
    maxSearchResults: count(5),
    alwaysDirectTools: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
        v.check(
          (names) => new Set(names).size === names.length,
          (issue) => {
            const names = issue.input as string[];
            return `must not repeat a name ("${names.find((name, i) => names.indexOf(name) !== i)}")`;
          },
        ),
      ),
      [],
    ),
    maxDiscoveredKeep: count(20),
    toolNamesBudget: count(6000),
    store: v.optional(
      v.custom<DiscoveredStore>(
        methods('get', 'update', 'delete', 'clear'),
        'must be a store with get, update, delete and clear',
      ),
    ),
    storeTimeoutMs: count(1000),
    storeRetryMs: count(10_000),
    logger: v.optional(v.custom<Logger>(methods('warn'), 'must be an object with a warn function')),
    locale: v.optional(v.picklist(['en', 'zh'], 'must be "en" or "zh"'), 'en'),
    texts: v.optional(
      v.strictObject(Object.fromEntries(textKeys.map((key) => [key, v.optional(v.string())])), 'is not a text key'),
      {},
    ),
    semantic: semanticSchema,
    learn: learnSchema,
    onEvent: v.optional(v.custom<EventListener>(isFunction, 'must be a function')),
    ...exposureOptions,
  },
  'is not an option',
);

const pending = new WeakMap<ResolvedOptions, Promise<void>>();

/** The promise a layer awaits before its first call while its locale's texts load; undefined once they are there. */
export const textsReady = (options: ResolvedOptions): Promise<void> | undefined => pending.get(options);

/** Validates options and applies defaults; throws ToolSearchError naming the option path and the reason. */
export function resolveOptions(input: unknown): ResolvedOptions {
  const { locale, texts, store, logger, semantic, ...rest } = parseOptions(schema, input, 'createToolSearch');
  modeOf({ searchResults: rest.searchResults }, rest, 'createToolSearch: invalid option "searchResults"');
  const defined = Object.fromEntries(Object.entries(texts).filter(([, text]) => text !== undefined));
  const warn = (message: string) => (logger ?? console).warn(`[tool-search-layer] ${message}`);
  const localized: LocaleTexts = localeTexts(locale, defined, warn);
  const resolved: ResolvedOptions = Object.freeze({
    ...rest,
    alwaysDirectTools: Object.freeze([...rest.alwaysDirectTools]),
    store: store ?? createMemoryStore(),
    logger: logger ?? { warn: (message: string) => console.warn(message) },
    locale,
    texts: localized.texts,
    semantic: semantic && Object.freeze({ ...semantic, model: semantic.model }),
  });
  if (localized.ready) pending.set(resolved, localized.ready);
  return resolved;
}
