// A search result without the definitions the model already holds (core/held.ts): loaded with the search's run.
import type { Held } from './held.ts';
import type { FoundTool, SearchResult } from './search-tool.ts';

/**
 * The result with each tool the session already holds in full sent as its name and description, marked `shown`, and
 * `hint` saying where its parameters are; the tools it sends in full join the held ones when the session's do grow.
 */
export function markShown(result: SearchResult, held: Held, hint: string): SearchResult {
  let shown = false;
  const tools = result.tools.map((tool): FoundTool => {
    if (!held.names.has(tool.name)) return tool;
    shown = true;
    return { name: tool.name, description: tool.description, shown: true };
  });
  if (held.grows) for (const tool of result.tools) held.names.add(tool.name);
  return shown ? { ...result, tools, hint: `${result.hint} ${hint}` } : result;
}
