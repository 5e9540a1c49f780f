// The search's run and the lexical index, loaded with the first search: a round that only exposes tools (or steps
// aside) never ranks, so the core entry does not carry the index, the tokenizer or the stemmer.
import { ToolSearchError } from '../base/errors.ts';
import type { Tool } from '../base/types.ts';

type SearchRun = typeof import('./search-run.ts');

let loaded: SearchRun | undefined;
let loading: Promise<SearchRun> | undefined;

/** Loads the search's run once; later calls resolve with the same module. */
export function loadSearch(): Promise<SearchRun> {
  loading ??= import('./search-run.ts').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

/** The index of these tools; only code that runs after `loadSearch()` (a search, a refused call's hint) reads it. */
export function indexOf(tools: readonly Tool[]): ReturnType<SearchRun['getToolIndex']> {
  if (!loaded) throw new ToolSearchError('internal: the search index was read before the search code loaded');
  return loaded.getToolIndex(tools);
}
