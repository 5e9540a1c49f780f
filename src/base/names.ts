// The layer's own tool names, in a file of their own so that every module can import them without a cycle.
import { parsedOnce } from './parsed-results.ts';

/** The name of the meta-tool the model calls to find tools. */
export const SEARCH_TOOL_NAME = 'search_tools';

/** The name of the bridge's meta-tool that calls a tool found with search_tools. */
export const CALL_TOOL_NAME = 'call_tool';

// call_tool arguments repeat in every round's history; parsing each once keeps `prepare` cheap.
// Parsed once per arguments text, in a cache bounded by characters (arguments may carry a file's content).
const parsedCalls = parsedOnce((args: string): string | undefined => {
  try {
    const parsed = (JSON.parse(args) as { name?: unknown } | null)?.name;
    return typeof parsed === 'string' && parsed !== '' ? parsed : undefined;
  } catch {
    return undefined; // not JSON: no use is read from it
  }
});

/** The tool a `call_tool` call names in its JSON arguments, or undefined when they name none. */
export function bridgedName(args: unknown): string | undefined {
  return typeof args === 'string' ? parsedCalls(args) : undefined;
}
