// The options of withToolSearch and what it returns, checked once: a host mistake throws, naming the option and the reason.
import type { Tool as AiTool, PrepareStepFunction, ToolCallRepairFunction, ToolSet } from 'ai';
import { ToolSearchError } from '../../base/errors.ts';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { ToolSearch } from '../../layer/create-tool-search.ts';
import type { AdapterOptions } from '../common/options.ts';

/**
 * How the model meets the catalogue. 'tools': the tools array carries the session's discoveries (it changes at each
 * one). 'bridge': `search_tools`, `call_tool` and the direct tools, the same every step. 'native': every tool sent
 * deferred, loaded by the provider's own mechanism (Anthropic and OpenAI Responses models).
 */
export type AiSdkExposure = 'tools' | 'bridge' | 'native';

/** The exposures withToolSearch accepts. */
export const EXPOSURES: readonly AiSdkExposure[] = ['tools', 'bridge', 'native'];

/** The key of OpenAI's client-executed `tool_search` in native mode (its wire name is `tool_search` whatever the key). */
export const OPENAI_TOOL_SEARCH = 'tool_search';

/** What `withToolSearch` needs: the session, the full tool set, and how to answer calls of undiscovered tools. */
export interface WithToolSearchOptions<TOOLS extends ToolSet>
  extends Pick<AdapterOptions<AiSdkExposure>, 'sessionId' | 'enabledGroups' | 'onUndiscoveredCall'> {
  /** Every tool the agent has, as for `generateText({ tools })`. */
  readonly tools: TOOLS;
  /** How the model meets the catalogue. Default 'bridge': the tools block never changes within a session. */
  readonly exposure?: AiSdkExposure | undefined;
  /** Each tool's groups, by tool name (AI SDK tools carry none). */
  readonly groups?: { readonly [name: string]: readonly string[] } | undefined;
  /** Your own repair function, called for every tool-call error the layer does not answer. */
  readonly repairToolCall?: ToolCallRepairFunction<TOOLS> | undefined;
  /**
   * With an Anthropic model, asks for Anthropic's prompt cache at every step the layer shapes (a top-level
   * `cacheControl` in the step's provider options). Default true; left off when your messages or tools carry
   * breakpoints of their own, and in a step the layer steps aside from.
   */
  readonly promptCache?: boolean | undefined;
}

/** The layer's own tools beside yours (which of them the model is sent depends on the exposure). */
export type LayerTools = {
  readonly search_tools: AiTool;
  readonly call_tool: AiTool;
  readonly tool_search: AiTool;
};

/** Spread into `generateText`, `streamText` or a `ToolLoopAgent`: the tools, the step hook and the call repair. */
export interface ToolSearchSettings<TOOLS extends ToolSet> {
  /** The layer's tools first, then yours (their `execute` guarded against undiscovered calls). */
  readonly tools: TOOLS & LayerTools;
  /** Sets each step's `activeTools` and `toolOrder` from the layer. */
  readonly prepareStep: PrepareStepFunction<TOOLS & LayerTools>;
  /** Answers a call of a tool that is not active this step with the layer's corrective result. */
  readonly repairToolCall: ToolCallRepairFunction<TOOLS & LayerTools>;
  /** The same function under the name `ai` before 7.0.20 reads. */
  readonly experimental_repairToolCall: ToolCallRepairFunction<TOOLS & LayerTools>;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Throws ToolSearchError for a layer or options withToolSearch cannot use. */
export function checkOptions<TOOLS extends ToolSet>(layer: ToolSearch, options: WithToolSearchOptions<TOOLS>): void {
  const fail = (path: string, reason: string) => {
    throw new ToolSearchError(`withToolSearch: ${path} ${reason}`);
  };
  if (!isObject(layer) || typeof layer.prepare !== 'function' || typeof layer.checkCall !== 'function') {
    fail('layer', 'must be a layer from createToolSearch()');
  }
  if (!isObject(options)) fail('options', 'must be an object');
  if (typeof options.sessionId !== 'string') fail('options.sessionId', 'must be a string');
  if (!isObject(options.tools) || Array.isArray(options.tools)) fail('options.tools', 'must be an AI SDK tool set');
  if (options.promptCache !== undefined && typeof options.promptCache !== 'boolean') {
    fail('options.promptCache', 'must be true or false, or omitted');
  }
  const exposure = options.exposure;
  if (exposure !== undefined && !EXPOSURES.includes(exposure)) {
    fail('options.exposure', `must be ${EXPOSURES.map((e) => `"${e}"`).join(', ')}, or omitted`);
  }
  for (const reserved of [SEARCH_TOOL_NAME, CALL_TOOL_NAME, OPENAI_TOOL_SEARCH]) {
    if (Object.hasOwn(options.tools, reserved)) {
      fail(`options.tools.${reserved}`, 'is the name of one of the layer’s own tools; rename your tool');
    }
  }
  for (const [name, tool] of Object.entries(options.tools)) {
    if (!isObject(tool)) fail(`options.tools.${name}`, 'must be a tool');
  }
  if (options.enabledGroups !== undefined && !strings(options.enabledGroups)) {
    fail('options.enabledGroups', 'must be an array of strings, or omitted');
  }
  if (options.groups !== undefined) {
    if (!isObject(options.groups)) fail('options.groups', 'must be an object of tool name to group names');
    for (const [name, value] of Object.entries(options.groups)) {
      if (!strings(value)) fail(`options.groups.${name}`, 'must be an array of strings');
    }
  }
  const mode = options.onUndiscoveredCall;
  if (mode !== undefined && mode !== 'hint' && mode !== 'discover') {
    fail('options.onUndiscoveredCall', 'must be "hint" or "discover"');
  }
  if (options.repairToolCall !== undefined && typeof options.repairToolCall !== 'function') {
    fail('options.repairToolCall', 'must be a function');
  }
}
