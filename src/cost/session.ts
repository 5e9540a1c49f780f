// A session's requests in each exposure mode, built from its shape: what each request sends and shares.
import type { PricedRequest } from './price.ts';

/** The modes priced: `none` sends every tool every turn (no layer); the rest are SPEC 11's exposures. */
export type CostMode = 'none' | 'tools' | 'bridge' | 'native';

/** The shape of a session, in tokens, with every default resolved. */
export interface ResolvedShape {
  readonly provider: 'anthropic' | 'openai' | 'gemini';
  readonly catalogueTokens: number;
  readonly toolCount: number;
  readonly groupCount: number;
  readonly turns: number;
  readonly discoveries: number;
  readonly turnTokens: number;
  readonly systemTokens: number;
  readonly outputTokens: number;
  /** Each search's page size in order, the last repeating. */
  readonly toolsPerSearch: number | readonly number[];
  readonly foundToolTokens: number;
  readonly maxDiscoveredKeep: number;
  readonly searchToolTokens: number;
  readonly compactResults: boolean;
}

// Sizes of the layer's own pieces, measured with o200k on the built-in English texts (bench/cost.ts checks
// the model against recorded sessions): the call_tool definition, a search call, a compact result line, the
// overhead of a search result, one OpenAI namespace entry in native mode, and the client tool_search definition.
const CALL_TOOL_TOKENS = 90;
const SEARCH_CALL_TOKENS = 30;
const COMPACT_TOOL_TOKENS = 35;
const REFERENCE_TOKENS = 12;
const RESULT_OVERHEAD_TOKENS = 100;
// A search result travels as a JSON string inside the tool message, so its quotes are escaped: about 10% more.
const ESCAPED = 1.1;
const NAMESPACE_TOKENS = 36;
// OpenAI's client-executed tool_search: the layer's description without a names list (the namespaces list the names).
const CLIENT_SEARCH_TOKENS = 180;

/** The turns at which the session discovers something: spread evenly, the first at the first turn. */
function discoveryTurns(turns: number, discoveries: number): Set<number> {
  const at = new Set<number>();
  for (let i = 0; i < discoveries; i++) at.add(Math.floor((i * turns) / discoveries));
  return at;
}

/** The tools block of a mode before any discovery. */
function baseBlock(mode: CostMode, shape: ResolvedShape): number {
  if (mode === 'none') return shape.catalogueTokens;
  if (mode === 'bridge') return shape.searchToolTokens + CALL_TOOL_TOKENS;
  if (mode === 'native' && shape.provider === 'openai') {
    return CLIENT_SEARCH_TOKENS + shape.groupCount * NAMESPACE_TOKENS;
  }
  return shape.searchToolTokens;
}

/** The requests of one session in one mode, in order, each with the tokens it shares with the one before. */
export function sessionRequests(mode: CostMode, shape: ResolvedShape): PricedRequest[] {
  const toolTokens = shape.foundToolTokens;
  const searches = mode === 'none' ? new Set<number>() : discoveryTurns(shape.turns, shape.discoveries);
  const requests: PricedRequest[] = [];
  let block = baseBlock(mode, shape);
  let exposed = 0;
  let history = 0;
  // Tokens the next request shares with the last one; undefined: all of the last one (nothing changed).
  let changedAt: number | undefined;
  let searched = 0;
  const send = (outputTokens: number) => {
    const tokens = Math.round(block + shape.systemTokens + history);
    const last = requests.at(-1);
    const sharedTokens = last === undefined ? 0 : Math.round(changedAt ?? last.tokens);
    requests.push({ tokens, sharedTokens, outputTokens });
    changedAt = undefined;
  };
  for (let turn = 0; turn < shape.turns; turn++) {
    if (searches.has(turn)) {
      send(SEARCH_CALL_TOKENS);
      const pages = shape.toolsPerSearch;
      const found = typeof pages === 'number' ? pages : (pages[Math.min(searched++, pages.length - 1)] as number);
      // Native results are references the provider expands into the found definitions, in the conversation.
      const resultPerTool =
        mode === 'native'
          ? REFERENCE_TOKENS + toolTokens
          : shape.compactResults && mode === 'tools'
            ? COMPACT_TOOL_TOKENS
            : toolTokens * ESCAPED;
      history += SEARCH_CALL_TOKENS + RESULT_OVERHEAD_TOKENS + found * resultPerTool;
      if (mode === 'tools' && found > 0) {
        const room = shape.maxDiscoveredKeep === 0 ? found : Math.max(0, shape.maxDiscoveredKeep - exposed);
        const added = Math.min(found, room);
        // New tools are appended to the block (its old content stays a prefix); a full set evicts its oldest
        // tools instead, which rewrites the block from the first discovered tool on.
        changedAt = added === found ? block : shape.searchToolTokens;
        block += added * toolTokens;
        exposed += added;
      }
    }
    send(shape.outputTokens);
    history += shape.turnTokens;
  }
  return requests;
}
