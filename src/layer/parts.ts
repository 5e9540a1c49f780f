// What the verbs of one layer share: its resolved options, its guarded store and sessions, and the parts that load
// on first use (the locale's texts, the refusals, the learner, the semantic ranker, the exposure modes).
import type { CatalogueInfo } from '../core/catalogue.ts';
import { catalogueWarner } from '../core/catalogue-warnings.ts';
import { type Emit, eventSink } from '../core/events.ts';
import { createHeldMemory, type HeldMemory } from '../core/held.ts';
import { loadSearch } from '../core/search-loader.ts';
import { type Sessions, sessionsOf } from '../core/sessions.ts';
import { type GuardedStore, guardStore } from '../core/store-guard.ts';
import type { Learner } from '../learn/learner.ts';
import type { SemanticRanker } from '../semantic/ranker.ts';
import { type ExposureModes, exposureModes } from './exposure-loader.ts';
import { lazyLearner } from './learner-loader.ts';
import { type ResolvedOptions, resolveOptions, type ToolSearchOptions, textsReady } from './options.ts';
import { lazySemanticRanker } from './semantic-loader.ts';

/** One layer's shared state, made once by `createToolSearch` and read by each verb. */
export interface Layer {
  readonly resolved: ResolvedOptions;
  /** Resolves once the locale's texts are there (at once for 'en'); every verb awaits it first. */
  readonly loaded: () => Promise<void>;
  /** The answers to calls of tools the model was not shown, loaded with the first such call. */
  readonly refusals: () => Promise<typeof import('../core/calls.ts')>;
  readonly emit: Emit;
  readonly store: GuardedStore;
  readonly sessions: Sessions;
  /** Per session, the definitions its model already holds in full (core/held.ts). */
  readonly held: HeldMemory;
  /** The learner of a layer with the `learn` option, loaded with its first round. */
  readonly learner: (() => Promise<Learner>) | undefined;
  readonly semantic: SemanticRanker | undefined;
  readonly modes: ExposureModes;
  /** Warns once per layer about a catalogue's skipped entries and foreign shapes. */
  readonly warnCatalogue: (info: CatalogueInfo, warn: (message: string) => void) => void;
  /** The logger's warn, with the library's prefix. */
  readonly warn: (message: string) => void;
  /** The logger's debug (when it has one), with the library's prefix. */
  readonly debug: (message: string) => void;
  /** Whether a round passes its tools through: the layer is off, or the catalogue is small. */
  readonly bypasses: (info: CatalogueInfo) => boolean;
}

/** Resolves the options and builds the layer's shared state; nothing optional is loaded yet. */
export function createLayer(options: ToolSearchOptions | undefined): Layer {
  const resolved = resolveOptions(options);
  const { logger } = resolved;
  const warn = (message: string) => logger.warn(`[tool-search-layer] ${message}`);
  const debug = (message: string) => logger.debug?.(`[tool-search-layer] ${message}`);
  // 'zh' texts load with the first call; `resolved.texts` is filled in when they are there.
  let ready = textsReady(resolved);
  const emit = eventSink(resolved.onEvent, warn);
  const guard = { timeoutMs: resolved.storeTimeoutMs, retryMs: resolved.storeRetryMs };
  const store = guardStore(resolved.store, { ...guard, keep: resolved.maxDiscoveredKeep, emit, debug });
  // Only a store the host gave outlives the layer: the default one would hold a copy of the module-wide vectors.
  const persistence = options?.store ? { store: resolved.store, guard } : undefined;
  const semantic = resolved.semantic && lazySemanticRanker(resolved.semantic, warn, debug, persistence);
  return {
    resolved,
    async loaded() {
      if (ready) await ready;
      ready = undefined;
    },
    // Their hints name the closest tools, so the search's index loads first.
    refusals: () => loadSearch().then(() => import('../core/calls.ts')),
    emit,
    store,
    sessions: sessionsOf(store, emit, warn),
    held: createHeldMemory(),
    learner: resolved.learn ? lazyLearner(resolved.learn, resolved.store, guard) : undefined,
    semantic: semantic || undefined,
    modes: exposureModes(resolved, semantic !== undefined),
    warnCatalogue: catalogueWarner(),
    warn,
    debug,
    // Counts the kept tools only: a skipped entry is never sent, so it cannot make a round large.
    bypasses: (info) => !resolved.enabled || info.counted <= resolved.maxDirectTools,
  };
}
