// search: a `search_tools` call answered, ranked lexically (the semantic ranker and the learner on top when set),
// and the tools it returned recorded in the session's set.
import { once } from '../base/once.ts';
import type { Tool } from '../base/types.ts';
import { catalogueOf, visibility } from '../core/catalogue.ts';
import { applyTouches } from '../core/discovered.ts';
import { loadSearch } from '../core/search-loader.ts';
import { MAX_RELATED, SEARCH_TOOL_NAME, type SearchResult } from '../core/search-tool.ts';
import { modeOf } from '../exposure/mode.ts';
import type { Learner } from '../learn/learner.ts';
import type { Layer } from './parts.ts';
import { checkContext, type ToolSearch } from './tool-search.ts';

// The related tools' module, imported once per isolate rather than on every search that names related tools.
const loadRelated = once(() => import('../core/related.ts'));

/** Arrays a layer keeps for marking a search's result set, at most (one is taken per search in flight). */
const MARKS_KEPT = 4;

/** The layer's `search`. */
export function createSearch(layer: Layer): ToolSearch['search'] {
  const { resolved } = layer;
  const keep = resolved.maxDiscoveredKeep;
  // The arrays that mark a search's result set, given back zeroed when its search is done: a new one per search (an
  // ArrayBuffer of a byte per tool) cost a search at 4,076 tools about 3 us with learning off (learn-ab, 2026-12-07).
  // A search in flight keeps its own: the learner reads it after the ranking, and `related` after the session's update.
  const spareMarks: Uint8Array[] = [];
  const takeMarks = (tools: number): Uint8Array => {
    const kept = spareMarks.pop();
    return kept?.length === tools ? kept : new Uint8Array(tools);
  };
  const giveMarks = (marks: Uint8Array): void => {
    marks.fill(0);
    if (spareMarks.length < MARKS_KEPT) spareMarks.push(marks);
  };
  // The learner once loaded: awaiting its loading again would cost every search a turn of the microtask queue.
  let learner: Learner | undefined;
  return async (context, args) => {
    checkContext(context, 'search');
    const mode = modeOf(context, resolved, 'search');
    await layer.loaded();
    const { parseSearchArgs, searchWindow, rankSearch, pageIds, runSearch, markShown } = await loadSearch();
    const parsed = parseSearchArgs(args, resolved.texts);
    if (!parsed.ok) return parsed.result;
    // A ranking that waits on the learner's reads or an embedder has the session's read for the record below begin
    // with it (on KV one round trip in all, not one more after the ranking's); a lexical ranking waits on nothing.
    if (layer.learner || layer.semantic) layer.store.prefetch(context.sessionId);
    const catalogue = catalogueOf(context.tools);
    layer.warnCatalogue(catalogue.info, layer.warn);
    const visible = visibility(catalogue, context.enabledGroups, SEARCH_TOOL_NAME);
    const { take } = searchWindow(parsed, resolved.maxSearchResults);
    if (layer.learner && !learner) learner = await layer.learner();
    // The tools the query matched, marked by the lexical ranking, order `related`, which only a catalogue with groups
    // computes, and tell a learner which tools the keywords found: without either, nothing is marked.
    const marks = catalogue.groups.size > 0 || learner ? takeMarks(catalogue.tools.length) : undefined;
    try {
      const rank = (n: number, members: Uint8Array | undefined = marks) =>
        layer.semantic
          ? layer.semantic.rank(catalogue, visible, parsed.query, n)
          : rankSearch(catalogue, visible, parsed.query, n, members);
      const ranked = learner
        ? await learner.rank(catalogue, visible, parsed.query, take, rank, layer.warn, marks)
        : await rank(take);
      const shown = mode.exposure === 'tools' && !mode.compact ? resolved.texts : await layer.modes.searchTexts(mode);
      const { ids } = pageIds(parsed, resolved.maxSearchResults, ranked);
      const found = ids.map((id) => (catalogue.tools[id] as Tool).name);
      const { sessionId } = context;
      layer.emit({ type: 'search', sessionId, query: parsed.query, found: ranked.found, names: found });
      let result = runSearch(catalogue, parsed, resolved.maxSearchResults, shown, ranked);
      // A definition the model already holds is not sent again (compact results carry none to begin with).
      const held = mode.compact ? undefined : layer.held.get(sessionId);
      if (held) result = markShown(result, held, shown.hintShown);
      if (found.length > 0) {
        const after = await layer.sessions.change(sessionId, (current) => applyTouches(current, found, keep), 'search');
        // The session's set (after this search) is left out of `related`: the model has those tools' definitions.
        if (catalogue.groups.size > 0) {
          const { related } = await loadRelated();
          const names = related(catalogue, ids, visible, marks, after?.order ?? [], MAX_RELATED);
          // Before the hint, in the order the fields are documented.
          if (names.length > 0) result = { ...withoutHint(result), related: names, hint: result.hint };
        }
      }
      layer.debug(`${sessionId}: "${parsed.query}" found ${result.found}`);
      return mode.compact ? layer.modes.compact(result) : result;
    } finally {
      if (marks) giveMarks(marks);
    }
  };
}

/** A result without its hint, so that a field added after it still reads before it. */
function withoutHint(result: SearchResult): Omit<SearchResult, 'hint'> {
  const { hint: _hint, ...rest } = result;
  return rest;
}
