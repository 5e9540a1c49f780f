// prepareStep: what each step sends, by exposure. The SDK reads the step's tools after this hook, so the deferral
// a native step needs is set on the tools' provider options here.
import type { ModelMessage } from 'ai';
import type { Tool } from '../../base/types.ts';
import { inspect } from '../../core/catalogue.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { PrepareResult } from '../../layer/create-tool-search.ts';
import type { AdapterOptions } from '../common/options.ts';
import type { AnyTool } from './catalogue.ts';
import { readMessages } from './messages.ts';
import { deferredNames, deferredOptions, nativeProviderOf, unsupportedModel } from './native.ts';
import { type AiSdkExposure, OPENAI_TOOL_SEARCH } from './options.ts';
import { promptCacheOptions } from './prompt-cache.ts';
import type { AdapterSession } from './session.ts';

/** What prepareStep reads of a step. */
export interface StepInput {
  readonly messages: ModelMessage[];
  readonly model?: unknown;
  readonly toolsContext?: unknown;
  readonly experimental_sandbox?: unknown;
}

/**
 * The settings a step returns: the tools sent, in their order (a passed-through round keeps your key order), and
 * for an Anthropic model the prompt cache (merged into the call's own provider options).
 */
export type StepSettings = {
  activeTools: string[];
  toolOrder?: string[];
  providerOptions?: { anthropic: { cacheControl: { type: 'ephemeral' } } };
};

/** What the hook needs besides the session. */
export interface StepOptions extends Pick<AdapterOptions<AiSdkExposure>, 'sessionId' | 'enabledGroups'> {
  readonly exposure: AiSdkExposure;
  /** The tools left to the SDK, active at every step after the layer's. */
  readonly sdkNames: readonly string[];
  /** The catalogue tools as given, and as wrapped in the tool set (whose provider options a native step sets). */
  readonly originals: ReadonlyMap<string, AnyTool>;
  readonly wrapped: ReadonlyMap<string, Record<string, unknown>>;
  /** Checks the last step's calls against what it sent, before this step changes it (search.ts). */
  readonly checkRepaired: (messages: readonly ModelMessage[]) => void;
  /** Anthropic's prompt cache on every step the layer shapes (`promptCache`, default true; off when a tool has a breakpoint). */
  readonly promptCache: boolean;
}

const SEARCHES = { aliases: new Set([OPENAI_TOOL_SEARCH]) };

/** Creates the prepareStep of one withToolSearch. */
export function createPrepareStep(
  session: AdapterSession,
  options: StepOptions,
): (step: StepInput) => Promise<StepSettings> {
  const { state, layer } = session;
  const { exposure, enabledGroups } = options;
  const deferredCopies = new Map<string, unknown>();

  function applyDeferral(): void {
    for (const [name, wrapped] of options.wrapped) {
      const original = options.originals.get(name)?.providerOptions;
      if (!state.deferred.has(name)) wrapped.providerOptions = original;
      else {
        if (!deferredCopies.has(name)) deferredCopies.set(name, deferredOptions(original));
        wrapped.providerOptions = deferredCopies.get(name);
      }
    }
  }

  /** The step's active tools, in the order sent: the layer's first, then the SDK's own. */
  function activate(names: readonly string[], callable: readonly string[], deferred: readonly string[]): StepSettings {
    state.exposed = new Set(callable);
    state.deferred = new Set(deferred);
    applyDeferral();
    const order = [...names, ...options.sdkNames];
    return { activeTools: order, toolOrder: order };
  }

  function bypass(round: readonly Tool[], prepared: PrepareResult): StepSettings {
    // Entries the layer skips (an empty name) are never sent, even when the layer is off.
    const info = inspect(round);
    const kept = new Set(round.filter((_, i) => info.kept[i] === 1));
    const names = prepared.tools.filter((tool) => kept.has(tool)).map((tool) => tool.name);
    state.native = undefined;
    return { activeTools: activate(names, names, []).activeTools };
  }

  /** A shaped step's settings, with the prompt cache asked for where the model is Anthropic's. */
  function withCache(settings: StepSettings, step: StepInput): StepSettings {
    const cache = promptCacheOptions(options.promptCache, step.model, step.messages);
    return cache ? { ...settings, providerOptions: cache } : settings;
  }

  return async (step) => {
    options.checkRepaired(step.messages);
    const round = await session.catalogue.build(
      step.toolsContext as Record<string, unknown> | undefined,
      step.experimental_sandbox,
    );
    const native = exposure === 'native' ? (nativeProviderOf(step.model) ?? unsupportedModel(step.model)) : undefined;
    const prepared = await layer.prepare({
      sessionId: options.sessionId,
      tools: round,
      messages: readMessages(step.messages, SEARCHES),
      enabledGroups,
      exposure: exposure === 'bridge' ? 'bridge' : 'tools',
    });
    if (prepared.bypassed) return bypass(round, prepared);
    state.native = native;
    const [definition, ...rest] = prepared.tools;
    state.definition = definition;
    if (!native) {
      if (exposure === 'bridge') state.callDefinition = rest[0];
      const names = prepared.tools.map((tool) => tool.name);
      return withCache(activate(names, names, []), step);
    }
    const always = new Set(layer.options.alwaysDirectTools);
    const direct = rest.map((tool) => tool.name).filter((name) => always.has(name));
    const deferred = deferredNames(round, enabledGroups, new Set(direct));
    const search = native === 'anthropic' ? SEARCH_TOOL_NAME : OPENAI_TOOL_SEARCH;
    return withCache(activate([search, ...direct, ...deferred], [search, ...direct], deferred), step);
  };
}
