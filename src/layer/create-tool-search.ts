// The layer: options resolved once, then prepare / search / clear per round.

import { ToolSearchError } from '../base/errors.ts';
import type { Tool } from '../base/types.ts';
import type { CallCheck } from '../core/calls.ts';
import { type CatalogueInfo, catalogueOf, groupsKey, inspect, visibility } from '../core/catalogue.ts';
import { catalogueWarner } from '../core/catalogue-warnings.ts';
import {
  applyHistory,
  applyTouches,
  boundedByCatalogue,
  type DiscoveredRecord,
  readEvents,
} from '../core/discovered.ts';
import { eventSink } from '../core/events.ts';
import { namesList } from '../core/names-list.ts';
import { expose, listedTools } from '../core/prepare.ts';
import { loadSearch } from '../core/search-loader.ts';
import { MAX_RELATED, SEARCH_TOOL_NAME, type SearchResult, searchToolDefinition } from '../core/search-tool.ts';
import { sessionsOf } from '../core/sessions.ts';
import { guardStore } from '../core/store-guard.ts';
import { modeOf } from '../exposure/mode.ts';
import { exposureModes } from './exposure-loader.ts';
import { lazyLearner } from './learner-loader.ts';
import { resolveOptions, type ToolSearchOptions, textsReady } from './options.ts';
import { lazySemanticRanker } from './semantic-loader.ts';
import { checkContext, type ToolSearch } from './tool-search.ts';

export type { PrepareInput, PrepareResult, SearchContext, ToolSearch } from './tool-search.ts';

const DEFINITIONS_KEPT = 16;

/** Cloudflare Workers cancel what a request left running once it has answered, unless it went to waitUntil. */
const inWorkers = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers';
/** Whether a round waits for its learned credit to be written: only in a Worker that gave no waitUntil. */
const waits = (input: { waitUntil?: unknown }): boolean => inWorkers && input.waitUntil === undefined;

/** Sets a key in a small map that forgets its oldest entry past DEFINITIONS_KEPT. */
function keepRecent<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  if (map.size >= DEFINITIONS_KEPT) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/**
 * Creates a tool-search layer. Creation is cheap (indexes are cached across layers), so a Worker may create one per request.
 * @example
 * const layer = createToolSearch({ maxDirectTools: 5, alwaysDirectTools: ['web_search'] })
 * const { tools } = await layer.prepare({ sessionId, tools: allTools, messages })
 */
export function createToolSearch(options?: ToolSearchOptions): ToolSearch {
  const resolved = resolveOptions(options);
  const { texts, logger } = resolved;
  // 'zh' texts load with the first call; `texts` is filled in when they are there.
  let ready = textsReady(resolved);
  const loaded = async () => {
    if (ready) await ready;
    ready = undefined;
  };
  // Answers to calls of tools the model was not shown: most rounds never need them, so they load when one does.
  // Their hints name the closest tools, so the search's index loads first.
  const refusals = () => loadSearch().then(() => import('../core/calls.ts'));
  const keep = resolved.maxDiscoveredKeep;
  const emit = eventSink(resolved.onEvent, (message) => logger.warn(`[tool-search-layer] ${message}`));
  const store = guardStore(resolved.store, {
    timeoutMs: resolved.storeTimeoutMs,
    retryMs: resolved.storeRetryMs,
    keep,
    emit,
    debug: (message) => logger.debug?.(`[tool-search-layer] ${message}`),
  });
  const warnedDirect = new Set<string>();
  // One definition object per catalogue and group set, and one per distinct names list: the search
  // tool stays the same object, byte for byte, while the round's tools are unchanged.
  const definitions = new WeakMap<CatalogueInfo, Map<string, Tool>>();
  const byNames = new Map<string, Tool>();
  const loggingWarn = (message: string) => logger.warn(`[tool-search-layer] ${message}`);
  const guard = { timeoutMs: resolved.storeTimeoutMs, retryMs: resolved.storeRetryMs };
  // Only a store the host gave outlives the layer: the default one would hold a copy of the module-wide vectors.
  const semantic =
    resolved.semantic &&
    lazySemanticRanker(
      resolved.semantic,
      loggingWarn,
      (message) => logger.debug?.(`[tool-search-layer] ${message}`),
      options?.store ? { store: resolved.store, guard } : undefined,
    );
  const sessions = sessionsOf(store, emit, loggingWarn);
  const learner = resolved.learn && lazyLearner(resolved.learn, resolved.store, guard);
  const warnCatalogue = catalogueWarner();
  const modes = exposureModes(resolved, semantic !== undefined);

  function searchToolFor(info: CatalogueInfo, key: string, listed: () => Tool[], groups?: readonly string[]): Tool {
    const byGroups = definitions.get(info) ?? new Map<string, Tool>();
    definitions.set(info, byGroups);
    let definition = byGroups.get(key);
    if (!definition) {
      const names = resolved.showToolNames ? namesList(listed(), resolved.toolNamesBudget, texts, groups) : '';
      definition = byNames.get(names) ?? searchToolDefinition(texts, names || undefined, semantic !== undefined);
      keepRecent(byNames, names, definition);
      keepRecent(byGroups, key, definition);
    }
    return definition;
  }

  /** Counts the kept tools only: a skipped entry is never sent, so it cannot make a round large. */
  function bypasses(info: CatalogueInfo): boolean {
    return !resolved.enabled || info.counted <= resolved.maxDirectTools;
  }

  return {
    options: resolved,

    async prepare(input) {
      checkContext(input, 'prepare');
      const mode = modeOf(input, resolved, 'prepare');
      await loaded();
      const warnings: string[] = [];
      const warn = (message: string) => {
        warnings.push(message);
        logger.warn(`[tool-search-layer] ${message}`);
      };
      const { sessionId, tools, enabledGroups } = input;
      if (!resolved.enabled) return { tools: [...tools], bypassed: true, discovered: [], warnings };
      const info = inspect(tools);
      warnCatalogue(info, warn);
      if (bypasses(info)) {
        // Skipped entries are not sent even when the layer steps aside: a provider would reject the request.
        const kept = info.skipped.length === 0 ? [...tools] : tools.filter((_, i) => info.kept[i] === 1);
        return { tools: kept, bypassed: true, discovered: [], warnings };
      }
      const catalogue = catalogueOf(tools);
      const visible = visibility(catalogue, enabledGroups, SEARCH_TOOL_NAME);
      const known = (name: string) => name !== SEARCH_TOOL_NAME && catalogue.byName.has(name);
      const events = readEvents(input.messages, SEARCH_TOOL_NAME, known);
      const learning = learner && (await learner()).round(sessionId, input.messages, SEARCH_TOOL_NAME, known);
      const record: DiscoveredRecord | undefined = await sessions.change(
        sessionId,
        (current) => {
          const next = boundedByCatalogue(applyHistory(current, events, keep), keep, catalogue.tools.length, known);
          return learning ? learning.apply(next) : next;
        },
        (name) => (events.some((event) => event.via === 'call' && event.name === name) ? 'call' : 'history'),
        warn,
      );
      // Off the round: the host's waitUntil keeps the write alive past the response; a long-lived process
      // writes in the background (flush() waits for it). A Worker given no waitUntil would lose it: it waits.
      const inline = waits(input);
      const written = learning?.commit(inline ? warn : loggingWarn, inline);
      if (written && input.waitUntil) input.waitUntil(written);
      else if (written && inline) await written;
      const searchTool = searchToolFor(
        catalogue.info,
        groupsKey(enabledGroups),
        () => listedTools(catalogue, visible, resolved.alwaysDirectTools),
        enabledGroups,
      );
      const discovered = [...(record?.order ?? [])];
      const exposure = expose({
        catalogue,
        visible,
        searchTool,
        alwaysDirectTools: resolved.alwaysDirectTools,
        discovered,
      });
      for (const name of exposure.missingDirect) {
        if (warnedDirect.has(name)) continue;
        warnedDirect.add(name);
        warn(`alwaysDirectTools names "${name}", which is not among this round's tools; it is not exposed`);
      }
      const exposed =
        mode.exposure === 'bridge'
          ? await modes.tools(sessionId, catalogue, visible, groupsKey(enabledGroups))
          : exposure.tools;
      logger.debug?.(`[tool-search-layer] ${sessionId}: exposing ${exposed.length} of ${tools.length} tools`);
      return { tools: exposed, bypassed: false, discovered, warnings };
    },

    async search(context, args) {
      checkContext(context, 'search');
      const mode = modeOf(context, resolved, 'search');
      await loaded();
      const { parseSearchArgs, searchWindow, rankSearch, pageIds, runSearch } = await loadSearch();
      const parsed = parseSearchArgs(args, texts);
      if (!parsed.ok) return parsed.result;
      const catalogue = catalogueOf(context.tools);
      warnCatalogue(catalogue.info, loggingWarn);
      const visible = visibility(catalogue, context.enabledGroups, SEARCH_TOOL_NAME);
      const { take } = searchWindow(parsed, resolved.maxSearchResults);
      // The tools the query matched, marked by the lexical ranking (the learner passes its own array), order `related`.
      let matched: Uint8Array | undefined;
      const rank = (n: number, members: Uint8Array = new Uint8Array(catalogue.tools.length)) => {
        matched = members;
        return semantic
          ? semantic.rank(catalogue, visible, parsed.query, n)
          : rankSearch(catalogue, visible, parsed.query, n, members);
      };
      const ranked = learner
        ? await (await learner()).rank(catalogue, visible, parsed.query, take, rank, loggingWarn)
        : await rank(take);
      const shown = mode.exposure === 'tools' && !mode.compact ? texts : await modes.searchTexts(mode);
      const { ids } = pageIds(parsed, resolved.maxSearchResults, ranked);
      const found = ids.map((id) => (catalogue.tools[id] as Tool).name);
      const { sessionId } = context;
      emit({ type: 'search', sessionId, query: parsed.query, found: ranked.found, names: found });
      let result = runSearch(catalogue, parsed, resolved.maxSearchResults, shown, ranked);
      if (found.length > 0) {
        const after = await sessions.change(sessionId, (current) => applyTouches(current, found, keep), 'search');
        // The session's set (after this search) is left out of `related`: the model has those tools' definitions.
        if (catalogue.groups.size > 0) {
          const { related } = await import('../core/related.ts');
          const names = related(catalogue, ids, visible, matched, after?.order ?? [], MAX_RELATED);
          // Before the hint, in the order the fields are documented.
          if (names.length > 0) result = { ...withoutHint(result), related: names, hint: result.hint };
        }
      }
      logger.debug?.(`[tool-search-layer] ${context.sessionId}: "${parsed.query}" found ${result.found}`);
      return mode.compact ? modes.compact(result) : result;
    },

    async checkCall(context, name, callOptions = {}) {
      checkContext(context, 'checkCall');
      if (typeof name !== 'string') throw new ToolSearchError('checkCall: name must be a string');
      const mode = callOptions.onUndiscoveredCall ?? 'hint';
      if (mode !== 'hint' && mode !== 'discover') {
        throw new ToolSearchError('checkCall: onUndiscoveredCall must be "hint" or "discover"');
      }
      if (name === SEARCH_TOOL_NAME) return { ok: true };
      await loaded();
      const { sessionId, tools, enabledGroups } = context;
      const catalogue = catalogueOf(tools);
      warnCatalogue(catalogue.info, loggingWarn);
      const visible = visibility(catalogue, enabledGroups, SEARCH_TOOL_NAME);
      const id = catalogue.byName.get(name);
      // A bypassed round sent its tools as they are, enabledGroups aside (SPEC 4.1): what the model was shown may run.
      if (id !== undefined && (!resolved.enabled || bypasses(catalogue.info))) return { ok: true };
      if (id === undefined || !visible(id)) {
        const result = (await refusals()).unknownToolResult(catalogue, visible, name, texts);
        emit({ type: 'call-refused', sessionId, name: result.notCalled, reason: 'unknown' });
        return { ok: false, result };
      }
      if (resolved.alwaysDirectTools.includes(name)) return { ok: true };
      const record = await store.get(sessionId, loggingWarn);
      if (record?.order.includes(name)) return { ok: true };
      emit({ type: 'call-refused', sessionId, name, reason: 'undiscovered' });
      if (mode === 'discover')
        await sessions.change(sessionId, (current) => applyTouches(current, [name], keep), 'call');
      return { ok: false, result: (await refusals()).undiscoveredResult(catalogue.tools[id] as Tool, mode, texts) };
    },

    ...sessions.control,

    async callTool(context, args, callOptions) {
      checkContext(context, 'callTool');
      modeOf(context, resolved, 'callTool');
      await loaded();
      // checkCall announces its own refusals; callTool's others are announced here, with their reason.
      let checked: CallCheck | undefined;
      const parts = {
        checkCall: async (name: string) => {
          checked = await this.checkCall(context, name, callOptions);
          return checked;
        },
        stored: () => store.get(context.sessionId, loggingWarn),
        warn: loggingWarn,
      };
      const result = await modes.callTool(parts, context, args);
      if (!result.ok && checked?.ok !== false) {
        const { notCalled: name } = result.result;
        const { refusalReason } = await import('../core/call-events.ts');
        const reason = refusalReason(name, checked, args, context.tools);
        emit({ type: 'call-refused', sessionId: context.sessionId, name, reason });
      }
      return result;
    },

    async clear(sessionId) {
      if (sessionId !== undefined && typeof sessionId !== 'string') {
        throw new ToolSearchError('clear: sessionId must be a string, or omitted to clear every session');
      }
      // Credit still being written would land after the store is cleared.
      if (sessionId === undefined && learner) await (await learner()).drop();
      await store.delete(sessionId);
      if (sessionId === undefined && learner) (await learner()).clearMemory();
    },

    async flush() {
      if (learner) await (await learner()).flush();
    },

    async inspectLearned() {
      if (!learner) return [];
      return (await learner()).inspect(loggingWarn);
    },

    async forgetLearned(scope) {
      if (scope !== undefined && (typeof scope !== 'string' || scope === '')) {
        throw new ToolSearchError("forgetLearned: scope must be a non-empty string, or omitted for this layer's own");
      }
      if (!learner) throw new ToolSearchError('forgetLearned: this layer has no `learn` option, so it learns nothing');
      await (await learner()).forget(scope);
    },
  };
}

/** A result without its hint, so that a field added after it still reads before it. */
function withoutHint(result: SearchResult): Omit<SearchResult, 'hint'> {
  const { hint: _hint, ...rest } = result;
  return rest;
}
