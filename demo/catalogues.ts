// The real catalogues the playground offers (see catalogues/README.md), loaded on demand so the
// page does not fetch bfcl's megabyte until someone picks it.
import type { Tool } from 'tool-search-layer';
import { openAiToolsJson } from './session.ts';

/** A catalogue entry as the benchmark stores it: one `group` per tool. */
interface RawTool {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: Record<string, unknown> | null;
  readonly group?: string;
  readonly [extra: string]: unknown;
}

/** The catalogues, in the order of the picker, with the scripted session's request and the words it searches with. */
export const CATALOGUES = [
  {
    id: 'mcp-github',
    label: 'GitHub MCP server (117 tools)',
    request: 'Please open a pull request for my fix branch.',
    example: 'create pull request',
  },
  {
    id: 'mcp-npm-capture',
    label: 'Five npm MCP servers (79 tools)',
    request: 'Take a screenshot of the page I have open.',
    example: 'take a screenshot',
  },
  {
    id: 'metatool',
    label: 'MetaTool ChatGPT plugins (199 tools)',
    request: "What's the weather forecast for Lisbon this weekend?",
    example: 'weather forecast',
  },
  {
    id: 'bfcl',
    label: 'Berkeley Function Calling Leaderboard (1,703 tools)',
    request: 'What is the area of a triangle with a base of 10 and a height of 5?',
    example: 'area of a triangle',
  },
] as const;

const files = import.meta.glob<RawTool[]>('./catalogues/*.json', { import: 'default' });

/** Loads a catalogue and maps each tool's single `group` to the layer's `groups`, as adapters do. */
export async function loadCatalogue(id: string): Promise<Tool[]> {
  const load = files[`./catalogues/${id}.json`];
  if (!load) throw new Error(`no catalogue named ${id}`);
  return (await load()).map(({ group, ...tool }) => (group ? { ...tool, groups: [group] } : tool));
}

/** Each group with how many tools it holds, in first-seen order. */
export function groupCounts(tools: readonly Tool[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tool of tools) for (const group of tool.groups ?? []) counts.set(group, (counts.get(group) ?? 0) + 1);
  return counts;
}

// The o200k tokenizer is 2 MB of merge ranks: it loads in the background so the page is usable
// at once, and counts read "…" until it is there.
let countTokens: ((text: string) => number) | undefined;
/** Resolves once token counts are available. */
export const tokenizerReady: Promise<void> = import('gpt-tokenizer/encoding/o200k_base').then((tokenizer) => {
  countTokens = tokenizer.countTokens;
});

// Counting bfcl's whole catalogue takes a few hundred milliseconds: count each distinct list once.
const counted = new Map<string, number>();

/** o200k_base tokens of the tools serialised as OpenAI chat tools; undefined until the tokenizer has loaded. */
export function toolTokens(tools: readonly Tool[]): number | undefined {
  if (!countTokens) return undefined;
  const json = openAiToolsJson(tools);
  let tokens = counted.get(json);
  if (tokens === undefined) {
    tokens = countTokens(json);
    if (counted.size > 50) counted.clear();
    counted.set(json, tokens);
  }
  return tokens;
}
