// The host's side of one conversation, with no DOM: the history, the layer calls a host makes (search, prepare,
// clear) and a record of every round. Each round is prepared once per core mode, so the chart can set the tools
// block of every mode beside the plain list a host without the layer would send.
import {
  CALL_TOOL_NAME,
  type CompactSearchResult,
  type Message,
  type PrepareResult,
  SEARCH_TOOL_NAME,
  type SearchErrorResult,
  type SearchResult,
  type Tool,
  type ToolSearch,
} from 'tool-search-layer';
import { exampleArguments, simulatedResult, withToolCall } from './session.ts';

/** The core's exposure modes, prepared every round for the chart. */
export type CoreMode = 'tools' | 'bridge';

/** Every core mode this build of the library has. */
export const CORE_MODES: readonly CoreMode[] = ['tools', 'bridge'];

/** One `prepare` of the session, with what it is compared with. */
export interface Round {
  readonly number: number;
  /** What happened since the last round, in a few words. */
  readonly step: string;
  readonly history: readonly Message[];
  /** The round as `prepare` returned it in each core mode. */
  readonly prepared: Readonly<Record<CoreMode, PrepareResult>>;
  /** The tools block of each core mode, and `none`: every visible tool, as a host without the layer sends. */
  readonly blocks: Readonly<Record<CoreMode | 'none', readonly Tool[]>>;
  /** The store's recency order after the round, least recent first. */
  readonly recent: readonly string[];
  /** Searches so far that found something: the cost model's discoveries. */
  readonly searches: number;
}

/** What the host needs from the page: the current layer, catalogue, session and mode. */
export interface HostContext {
  readonly layer: () => ToolSearch;
  readonly recent: (sessionId: string) => Promise<readonly string[]>;
  readonly tools: () => readonly Tool[];
  readonly enabledGroups: () => readonly string[] | undefined;
  readonly sessionId: () => string;
  readonly mode: () => CoreMode;
}

/** The tools a host without the layer would send: the enabled groups' tools and the ungrouped ones. */
export function visibleTools(tools: readonly Tool[], enabledGroups: readonly string[] | undefined): readonly Tool[] {
  if (!enabledGroups) return tools;
  const enabled = new Set(enabledGroups);
  return tools.filter((tool) => !tool.groups?.length || tool.groups.some((g) => enabled.has(g)));
}

/** A conversation the page drives: messages appended as a host appends them, and a round per `prepare`. */
export function createHost(context: HostContext) {
  let history: Message[] = [];
  let rounds: Round[] = [];
  let step = 'start';
  let searches = 0;
  const search = () => ({
    sessionId: context.sessionId(),
    tools: context.tools(),
    enabledGroups: context.enabledGroups(),
  });

  return {
    get history(): readonly Message[] {
      return history;
    },
    get rounds(): readonly Round[] {
      return rounds;
    },
    /** Replaces the history (a restored session, a cleared one); the rounds start over. */
    reset(messages: readonly Message[] = []): void {
      history = [...messages];
      rounds = [];
      searches = 0;
      step = messages.length > 0 ? 'restored' : 'start';
    },
    /** The user says something. */
    ask(text: string): void {
      history = [...history, { role: 'user', content: text }];
      step = 'the user asks';
    },
    /** The model calls search_tools with `args` (as it sent them); the answer is appended. */
    async search(args: unknown): Promise<SearchResult | CompactSearchResult | SearchErrorResult> {
      const result = await context.layer().search({ ...search(), exposure: context.mode() }, args);
      const text = typeof args === 'string' ? args : JSON.stringify(args);
      history = withToolCall(history, SEARCH_TOOL_NAME, text, result);
      if ('found' in result && result.found > 0) searches++;
      step = 'the model searches';
      return result;
    },
    /**
     * The model calls a tool, with placeholder arguments its schema accepts. The host asks the layer first, as a
     * host must: in mode tools through checkCall (a tool never shown gets the corrective answer), in mode bridge
     * as a call_tool call through callTool (which also validates the arguments). An allowed call gets the
     * playground's simulated result: there is no backend behind the catalogues.
     */
    async call(name: string): Promise<void> {
      const layer = context.layer();
      const tool = context.tools().find((t) => t.name === name);
      const args = exampleArguments(tool?.parameters);
      if (context.mode() === 'bridge') {
        const request = JSON.stringify({ name, arguments: args });
        const outcome = await layer.callTool({ ...search(), exposure: 'bridge' }, request);
        history = withToolCall(history, CALL_TOOL_NAME, request, outcome.ok ? simulatedResult(name) : outcome.result);
      } else {
        const check = await layer.checkCall(search(), name);
        history = withToolCall(history, name, JSON.stringify(args), check.ok ? simulatedResult(name) : check.result);
      }
      step = `the model calls ${name}`;
    },
    /** Appends messages a real model and the adapter produced. */
    append(messages: readonly Message[], what: string): void {
      history = [...history, ...messages];
      step = what;
    },
    /** The host drops all but the first user message and the last call with its result, as a context limit would. */
    trim(): void {
      const firstUser = history.find((m) => m.role === 'user');
      const lastCall = history.findLastIndex((m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0);
      history = [...(firstUser ? [firstUser] : []), ...(lastCall >= 0 ? history.slice(lastCall) : [])];
      step = 'the context is trimmed';
    },
    /** The layer forgets the session's discovered set; the history stays as it is. */
    async clearMemory(): Promise<void> {
      await context.layer().clear(context.sessionId());
      step = 'memory is cleared';
    },
    /** What a host does before each model call: prepare with the history as it stands, in every core mode. */
    async prepare(): Promise<Round> {
      const layer = context.layer();
      const base = { ...search(), messages: history };
      const blocks = { none: visibleTools(base.tools, base.enabledGroups) } as Record<CoreMode | 'none', Tool[]>;
      const prepared = {} as Record<CoreMode, PrepareResult>;
      for (const mode of CORE_MODES) {
        prepared[mode] = await layer.prepare({ ...base, exposure: mode });
        blocks[mode] = prepared[mode].tools;
      }
      const round: Round = {
        number: rounds.length + 1,
        step,
        history,
        prepared,
        blocks,
        recent: await context.recent(base.sessionId),
        searches,
      };
      rounds = [...rounds, round];
      step = 'by hand';
      return round;
    },
  };
}

/** A conversation the page drives. */
export type Host = ReturnType<typeof createHost>;
