// The layer's public shapes, and the checks of what the host passes (its mistakes throw; the model's never do).

import { ToolSearchError } from '../base/errors.ts';
import type { Message, Tool } from '../base/types.ts';
import type { CallCheck, CheckCallOptions } from '../core/calls.ts';
import type { SearchErrorResult, SearchResult } from '../core/search-tool.ts';
import type { SessionControl } from '../core/sessions.ts';
import type { CallToolResult } from '../exposure/call-tool.ts';
import type { CompactSearchResult } from '../exposure/compact.ts';
import type { ExposureContext } from '../exposure/mode.ts';
import type { LearnedCredit } from '../learn/learner.ts';
import type { ResolvedOptions } from './options.ts';

/** What the host knows about a round or a search call. */
export interface SearchContext extends ExposureContext {
  /** Opaque id of the conversation whose discovered set is used. */
  readonly sessionId: string;
  /** The tools available this round, as the host registered them. */
  readonly tools: readonly Tool[];
  /** The groups the host has enabled; omitted: every tool is visible. */
  readonly enabledGroups?: readonly string[] | undefined;
}

/** The input of `prepare`: the round's context and the history as it stands. */
export interface PrepareInput extends SearchContext {
  readonly messages?: readonly Message[] | undefined;
  /** The request's `ctx.waitUntil` (Workers, Vercel): learned credit is then written past the response instead of before the round returns. */
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/** What the model should be sent this round. */
export interface PrepareResult {
  /** The tools to send: the caller's own objects, with the layer's search tool first unless bypassed. */
  readonly tools: Tool[];
  /** True when the round was passed through unchanged (the layer is off, or few tools); the store is not touched then. */
  readonly bypassed: boolean;
  /** The session's whole discovered set after this round, in exposure order ([] when bypassed). */
  readonly discovered: string[];
  /** Warnings raised by this call (also sent to the logger). */
  readonly warnings: string[];
}

/** A tool-search layer: call `prepare` before every model round and route `search_tools` calls to `search`. */
export interface ToolSearch extends SessionControl {
  readonly options: ResolvedOptions;
  prepare(input: PrepareInput): Promise<PrepareResult>;
  /** Answers a `search_tools` call; bad arguments come back as `{ error, hint }`, never as an exception. */
  search(context: SearchContext, args: unknown): Promise<SearchResult | CompactSearchResult | SearchErrorResult>;
  /**
   * Says whether the model may call `name` this round: a direct tool, a discovered one, or any visible tool of
   * a bypassed round. Otherwise it returns the answer to send instead, and nothing may be executed.
   */
  checkCall(context: SearchContext, name: string, options?: CheckCallOptions): Promise<CallCheck>;
  /**
   * Answers a `call_tool` call (`{ name, arguments }`, an object or JSON string): `{ ok: true, name, arguments, tool }`
   * when tool `name` may run with those arguments (unchanged, valid against its parameters), else `{ ok: false, result }`,
   * the corrective result to send the model instead. Model input never throws.
   */
  callTool(context: SearchContext, args: unknown, options?: CheckCallOptions): Promise<CallToolResult>;
  /** Empties one session's discovered set, or every session's when no id is given (with what every scope learned). */
  clear(sessionId?: string): Promise<void>;
  /** What the layer learned for its scope (the `learn` option): per tool and query term, the credit as it now weighs; for the host's eyes only, never the model's. */
  inspectLearned(): Promise<LearnedCredit[]>;
  /** Forgets what the layer learned for a scope (the `learn` option), this layer's own by default; sessions stay. */
  forgetLearned(scope?: string): Promise<void>;
  /** Waits until the learned credit of every round so far is in the store: call it before a clean shutdown. */
  flush(): Promise<void>;
}

/** Host mistakes are programming errors: they throw, naming the call and the field. */
export function checkContext(input: PrepareInput, call: string): void {
  if (typeof input !== 'object' || input === null) throw new ToolSearchError(`${call}: expected an object`);
  if (typeof input.sessionId !== 'string') throw new ToolSearchError(`${call}: sessionId must be a string`);
  if (!Array.isArray(input.tools)) throw new ToolSearchError(`${call}: tools must be an array`);
  const groups = input.enabledGroups;
  if (groups !== undefined && !(Array.isArray(groups) && groups.every((g) => typeof g === 'string'))) {
    throw new ToolSearchError(`${call}: enabledGroups must be an array of strings, or omitted`);
  }
  const { waitUntil } = input;
  if (waitUntil !== undefined && typeof waitUntil !== 'function') {
    throw new ToolSearchError(`${call}: waitUntil must be a function (the request's ctx.waitUntil), or omitted`);
  }
}
