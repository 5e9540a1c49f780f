// prepare: the tools the model is sent this round, from the session's discovered set after the history is read.
import { CALL_TOOL_NAME } from '../base/names.ts';
import type { Tool } from '../base/types.ts';
import { type Catalogue, type CatalogueInfo, catalogueOf, groupsKey, inspect, visibility } from '../core/catalogue.ts';
import { applyHistory, boundedByCatalogue, type HistoryEvent, readEvents } from '../core/discovered.ts';
import { expose, listedTools } from '../core/expose.ts';
import { namesList } from '../core/names-list.ts';
import { SEARCH_TOOL_NAME, searchToolDefinition } from '../core/search-tool.ts';
import { modeOf } from '../exposure/mode.ts';
import type { Layer } from './parts.ts';
import { checkContext, type PrepareInput, type PrepareResult } from './tool-search.ts';

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

type SearchToolFor = (info: CatalogueInfo, key: string, listed: () => Tool[], groups?: readonly string[]) => Tool;

/**
 * Names lists made by any layer, per findings: a Worker builds a layer per request, and listing a large catalogue's
 * names cost each request's first `prepare` about 2.7 ms at 4,076 tools. A list depends only on the findings (the
 * names and groups at each position), the group selection, the always-direct tools, the budget and four texts.
 */
const namesLists = new WeakMap<CatalogueInfo, Map<string, string>>();

/** The names list of the search tool's description, made once per findings and everything else it depends on. */
function namesFor(layer: Layer, info: CatalogueInfo, key: string, listed: () => Tool[], groups?: readonly string[]) {
  const { toolNamesBudget, alwaysDirectTools, texts } = layer.resolved;
  const { namesIntro, listSeparator, namesMore, namesMoreGroups } = texts;
  const of = JSON.stringify([
    key,
    toolNamesBudget,
    alwaysDirectTools,
    namesIntro,
    listSeparator,
    namesMore,
    namesMoreGroups,
  ]);
  const lists = namesLists.get(info) ?? new Map<string, string>();
  namesLists.set(info, lists);
  let names = lists.get(of);
  if (names === undefined) {
    names = namesList(listed(), toolNamesBudget, texts, groups);
    keepRecent(lists, of, names);
  }
  return names;
}

/**
 * One search tool definition per catalogue and group set, and one per distinct names list: the search tool stays
 * the same object, byte for byte, while the round's tools are unchanged.
 */
function searchTools(layer: Layer): SearchToolFor {
  const { resolved } = layer;
  const definitions = new WeakMap<CatalogueInfo, Map<string, Tool>>();
  const byNames = new Map<string, Tool>();
  return (info, key, listed, groups) => {
    const byGroups = definitions.get(info) ?? new Map<string, Tool>();
    definitions.set(info, byGroups);
    let definition = byGroups.get(key);
    if (!definition) {
      const names = resolved.showToolNames ? namesFor(layer, info, key, listed, groups) : '';
      definition =
        byNames.get(names) ?? searchToolDefinition(resolved.texts, names || undefined, layer.semantic !== undefined);
      keepRecent(byNames, names, definition);
      keepRecent(byGroups, key, definition);
    }
    return definition;
  };
}

/**
 * Reads the round's history into the session's set (and the learner's memory) in one store call, then writes the
 * learned credit: off the round where the host's waitUntil keeps the write alive past the response, or where a
 * long-lived process writes in the background (flush() waits for it); a Worker given no waitUntil would lose it, so
 * it waits.
 */
async function readHistory(
  layer: Layer,
  input: PrepareInput,
  catalogue: Catalogue,
  warn: (message: string) => void,
): Promise<{ readonly order: readonly string[]; readonly full: string[] }> {
  const { sessionId } = input;
  const keep = layer.resolved.maxDiscoveredKeep;
  const known = (name: string) => name !== SEARCH_TOOL_NAME && catalogue.byName.has(name);
  const { events, full } = readEvents(input.messages, SEARCH_TOOL_NAME, known);
  const learning = layer.learner && (await layer.learner()).round(sessionId, input.messages, SEARCH_TOOL_NAME, known);
  const record = await layer.sessions.change(
    sessionId,
    (current) => {
      const next = boundedByCatalogue(applyHistory(current, events, keep), keep, catalogue.tools.length, known);
      return learning ? learning.apply(next) : next;
    },
    (name) => (events.some((event: HistoryEvent) => event.via === 'call' && event.name === name) ? 'call' : 'history'),
    warn,
  );
  const inline = waits(input);
  const written = learning?.commit(inline ? warn : layer.warn, inline);
  if (written && input.waitUntil) input.waitUntil(written);
  else if (written && inline) await written;
  return { order: record?.order ?? [], full };
}

/** The layer's `prepare`. */
export function createPrepare(layer: Layer): (input: PrepareInput) => Promise<PrepareResult> {
  const { resolved } = layer;
  const searchToolFor = searchTools(layer);
  const warnedDirect = new Set<string>();
  return async (input) => {
    checkContext(input, 'prepare');
    const mode = modeOf(input, resolved, 'prepare');
    await layer.loaded();
    const warnings: string[] = [];
    const warn = (message: string) => {
      warnings.push(message);
      layer.warn(message);
    };
    const { sessionId, tools, enabledGroups } = input;
    if (!resolved.enabled) return { tools: [...tools], bypassed: true, discovered: [], warnings };
    const info = inspect(tools);
    layer.warnCatalogue(info, warn);
    if (layer.bypasses(info)) {
      // Skipped entries are not sent even when the layer steps aside: a provider would reject the request.
      const kept = info.skipped.length === 0 ? [...tools] : tools.filter((_, i) => info.kept[i] === 1);
      return { tools: kept, bypassed: true, discovered: [], warnings };
    }
    const catalogue = catalogueOf(tools);
    const visible = visibility(catalogue, enabledGroups, SEARCH_TOOL_NAME);
    const history = await readHistory(layer, input, catalogue, warn);
    const discovered = [...history.order];
    const searchTool = searchToolFor(
      catalogue.info,
      groupsKey(enabledGroups),
      () => listedTools(catalogue, visible, resolved.alwaysDirectTools),
      enabledGroups,
    );
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
        ? await layer.modes.tools(sessionId, catalogue, visible, groupsKey(enabledGroups))
        : exposure.tools;
    // What the model holds in full from now: the definitions in the history's results and in this tools block.
    // The round's own array, extended in place: copying the history's names into a new one would cost a long history.
    const held = history.full;
    for (const tool of exposed)
      if (tool.name !== SEARCH_TOOL_NAME && tool.name !== CALL_TOOL_NAME) held.push(tool.name);
    layer.held.set(sessionId, held, Array.isArray(input.messages));
    layer.debug(`${sessionId}: exposing ${exposed.length} of ${tools.length} tools`);
    return { tools: exposed, bypassed: false, discovered, warnings };
  };
}
