// A visitor's own catalogue: JSON in any of five shapes, recognised by its entries, converted to the layer's
// tools by the adapters' own functions, and checked by the layer's own hygiene so the page reports what a host
// would see. Every problem names its position; nothing here throws for bad input.
import { createMemoryStore, createToolSearch, type Tool } from 'tool-search-layer';
import { anthropicToolsToTools } from 'tool-search-layer/anthropic';
import { chatToolsToTools, responsesToolsToTools } from 'tool-search-layer/openai';

/** The shapes a pasted catalogue may have. */
export type ToolFormat = 'openai-chat' | 'openai-responses' | 'mcp' | 'anthropic' | 'layer';

/** How each shape is called on the page. */
export const FORMAT_LABELS: Record<ToolFormat, string> = {
  'openai-chat': 'OpenAI Chat Completions function tools',
  'openai-responses': 'OpenAI Responses function tools',
  mcp: 'MCP tools/list result',
  anthropic: 'Anthropic tools',
  layer: "the layer's own Tool[]",
};

/** A catalogue read from text, or the problems that stop it. */
export type Imported =
  | { readonly ok: true; readonly format: ToolFormat; readonly tools: Tool[] }
  | { readonly ok: false; readonly problems: string[] };

type Entry = Record<string, unknown>;
const isRecord = (value: unknown): value is Entry =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasName = (value: unknown): boolean => typeof value === 'string' && value !== '';

/** What an entry must hold in each shape; the first shape the first entry fits is the catalogue's. */
const SHAPES: readonly { format: ToolFormat; fits: (entry: Entry) => boolean; needs: string }[] = [
  {
    format: 'openai-chat',
    fits: (e) => e.type === 'function' && isRecord(e.function) && hasName(e.function.name),
    needs: "{ type: 'function', function: { name } }",
  },
  {
    format: 'openai-responses',
    fits: (e) => e.type === 'function' && hasName(e.name),
    needs: "{ type: 'function', name }",
  },
  { format: 'mcp', fits: (e) => hasName(e.name) && 'inputSchema' in e, needs: '{ name, inputSchema }' },
  { format: 'anthropic', fits: (e) => hasName(e.name) && 'input_schema' in e, needs: '{ name, input_schema }' },
  { format: 'layer', fits: (e) => hasName(e.name) && !('type' in e), needs: '{ name, description?, parameters? }' },
];

/** Line and column of a character offset, for JSON errors a person can find in a textarea. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** JSON.parse's complaint, with the position as line and column. */
function jsonProblem(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(message);
  const where = at ? lineColumn(text, Number(at[1])) : `the end (character ${text.length})`;
  return `Not valid JSON at ${where}: ${message.replace(/\s*\(line \d+ column \d+\)/, '')}`;
}

/** The tool array inside what was pasted: an array, `{ tools }`, or a JSON-RPC response `{ result: { tools } }`. */
function toolArray(value: unknown): unknown[] | string {
  if (Array.isArray(value)) return value;
  if (isRecord(value) && isRecord(value.result) && Array.isArray(value.result.tools)) return value.result.tools;
  if (isRecord(value) && Array.isArray(value.tools)) return value.tools;
  return 'Expected a JSON array of tools, an object with a "tools" array (a request body or a tools/list result), or a JSON-RPC response whose result has one.';
}

/** Reads a catalogue: parse, recognise the shape, check every entry has it, convert, then the layer's findings. */
export async function importTools(text: string): Promise<Imported> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [jsonProblem(text, error)] };
  }
  const entries = toolArray(value);
  if (typeof entries === 'string') return { ok: false, problems: [entries] };
  if (entries.length === 0) return { ok: false, problems: ['The tool list is empty.'] };
  const first = entries[0];
  const shape = isRecord(first) ? SHAPES.find((s) => s.fits(first)) : undefined;
  if (!shape) {
    return {
      ok: false,
      problems: [`Tool 1 (tools[0]) has none of the known shapes: ${SHAPES.map((s) => s.needs).join('; ')}.`],
    };
  }
  const problems: string[] = [];
  entries.forEach((entry, i) => {
    if (!isRecord(entry) || !shape.fits(entry))
      problems.push(
        `Tool ${i + 1} (tools[${i}]) is not ${FORMAT_LABELS[shape.format]} like tool 1: it needs ${shape.needs}.`,
      );
  });
  if (problems.length === 0) problems.push(...repeatedNames(entries as Entry[]));
  if (problems.length > 0) return { ok: false, problems };
  const tools = await convert(shape.format, entries as Entry[]);
  const findings = await layerFindings(tools);
  if (findings.length > 0) return { ok: false, problems: findings.map(positionFirst) };
  return { ok: true, format: shape.format, tools };
}

/** A name given twice, at both positions (MCP's catalogue would drop the second copy without saying where). */
function repeatedNames(entries: readonly Entry[]): string[] {
  const first = new Map<string, number>();
  const problems: string[] = [];
  entries.forEach((entry, i) => {
    const name = String(isRecord(entry.function) ? entry.function.name : entry.name);
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, i);
    else
      problems.push(
        `Tool ${i + 1} (tools[${i}]) repeats the name "${name}" of tool ${earlier + 1} (tools[${earlier}]).`,
      );
  });
  return problems;
}

/** The adapters' conversions, one per shape (the layer's own shape needs none). */
async function convert(format: ToolFormat, entries: Entry[]): Promise<Tool[]> {
  switch (format) {
    case 'openai-chat':
      return chatToolsToTools(entries as never);
    case 'openai-responses':
      return responsesToolsToTools(entries as never);
    case 'anthropic':
      return anthropicToolsToTools(entries as never);
    case 'mcp':
      return mcpTools(entries);
    default:
      return entries as unknown as Tool[];
  }
}

/**
 * MCP tools through the MCP adapter's catalogue, fed by a client whose `tools/list` answers with the pasted
 * result: the names, groups and descriptions are exactly what `createMcpCatalogue` makes of a live server.
 */
async function mcpTools(entries: Entry[]): Promise<Tool[]> {
  const { createMcpCatalogue } = await import('tool-search-layer/mcp');
  const client = {
    listTools: async () => ({ tools: entries }),
    callTool: async () => ({ content: [{ type: 'text', text: 'simulated by the playground' }] }),
    setNotificationHandler: () => {},
    getServerVersion: () => ({ name: 'pasted', version: '0' }),
  };
  const catalogue = await createMcpCatalogue({ pasted: client as never }, { watch: false });
  return [...catalogue.tools];
}

const silent = { warn: () => {} };

/** The layer's own findings about a catalogue (invalid entries, repeated names), as a host's first round gets them. */
async function layerFindings(tools: readonly Tool[]): Promise<string[]> {
  const layer = createToolSearch({ store: createMemoryStore(), maxDirectTools: 0, logger: silent });
  const { warnings } = await layer.prepare({ sessionId: 'check', tools });
  return warnings.filter((warning) => /^tools\[\d+\]/.test(warning));
}

/** "tools[3] (...) is skipped: ..." as "Tool 4 (tools[3]) ...": people count from one. */
function positionFirst(warning: string): string {
  return warning.replace(/^tools\[(\d+)\]/, (_, i) => `Tool ${Number(i) + 1} (tools[${i}])`);
}
