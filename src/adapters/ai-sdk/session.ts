// What one withToolSearch knows between steps, and the corrective answers it gives calls it will not run.
import type { Tool as AiTool } from 'ai';
import type { Tool } from '../../base/types.ts';
import type { UndiscoveredCallMode, UndiscoveredCallResult } from '../../core/calls.ts';
import { toFoundTool } from '../../core/search-tool.ts';
import { format } from '../../core/texts.ts';
import type { Exposure } from '../../exposure/mode.ts';
import type { SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import type { AdapterOptions } from '../common/options.ts';
import type { AnyTool, StepCatalogue } from './catalogue.ts';

/** The provider whose own deferral a native step uses. */
export type NativeProvider = 'anthropic' | 'openai';

/** The state of the latest step. */
export interface StepState {
  /** Names the model was sent callable in the latest step (undefined before the first: every tool was sent). */
  exposed: ReadonlySet<string> | undefined;
  /** The search tool the layer built for the latest step. */
  definition: Tool | undefined;
  /** The bridge's call tool as the layer built it. */
  callDefinition: Tool | undefined;
  /** Native steps: whose deferral, and the names sent deferred. */
  native: NativeProvider | undefined;
  deferred: ReadonlySet<string>;
}

/** One withToolSearch's session: its state, its context for the layer, and its answers to refused calls. */
export interface AdapterSession {
  readonly layer: ToolSearch;
  readonly state: StepState;
  readonly catalogue: StepCatalogue;
  readonly mode: UndiscoveredCallMode;
  context(): Promise<SearchContext>;
  /** Marks a result as the layer's corrective answer (its tool's toModelOutput is skipped for it). */
  answer<R extends object>(result: R): R;
  isAnswer(output: unknown): boolean;
  /** The answer to a call the SDK refused because the tool was not active in that step. */
  correct(name: string): Promise<UndiscoveredCallResult>;
}

/** Creates a session's shared state. */
export function createAdapterSession(
  layer: ToolSearch,
  catalogue: StepCatalogue,
  options: Pick<AdapterOptions<string>, 'sessionId' | 'enabledGroups'> & {
    readonly mode: UndiscoveredCallMode;
    /** The layer's exposure for this adapter's mode (native steps prepare and search as 'tools'). */
    readonly exposure: Exposure;
  },
): AdapterSession {
  const corrective = new WeakSet<object>();
  const state: StepState = {
    exposed: undefined,
    definition: undefined,
    callDefinition: undefined,
    native: undefined,
    deferred: new Set(),
  };
  const context = async (): Promise<SearchContext> => ({
    sessionId: options.sessionId,
    tools: await catalogue.latest(),
    enabledGroups: options.enabledGroups,
    exposure: options.exposure,
  });
  const answer = <R extends object>(result: R): R => {
    corrective.add(result);
    return result;
  };
  return {
    layer,
    state,
    catalogue,
    mode: options.mode,
    context,
    answer,
    isAnswer: (output) => typeof output === 'object' && output !== null && corrective.has(output),
    async correct(name) {
      const now = await context();
      const check = await layer.checkCall(now, name, { onUndiscoveredCall: options.mode });
      if (!check.ok) return answer(check.result);
      // Callable now (found by a search in the same step), but its arguments were written before the model saw it.
      const texts = layer.options.texts;
      const tool = now.tools.find((t) => t.name === name) as Tool;
      return answer({
        notCalled: name,
        error: format(texts.notDiscoveredError, { name }),
        hint: format(texts.discoveredNowHint, { name }),
        tools: [toFoundTool(tool)],
      });
    },
  };
}

/** The final output of an execute that may stream preliminary outputs. */
export async function lastOf(result: unknown): Promise<unknown> {
  if (typeof result === 'object' && result !== null && Symbol.asyncIterator in result) {
    let last: unknown;
    for await (const output of result as AsyncIterable<unknown>) last = output;
    return last;
  }
  return result;
}

/**
 * The tool with an `execute` that never runs a call of a tool the model was not sent callable in that step, and,
 * in native steps, the provider options that defer it.
 */
export function guard(session: AdapterSession, name: string, tool: AnyTool): AiTool {
  const execute = tool.execute;
  const toModelOutput = tool.toModelOutput;
  const guarded: Record<string, unknown> = { ...tool };
  if (typeof execute === 'function') {
    guarded.execute = (input: unknown, callOptions: { toolCallId: string }) => {
      const { exposed } = session.state;
      // Without our prepareStep every tool was sent, so every schema was seen.
      if (exposed === undefined || exposed.has(name)) return execute(input, callOptions);
      return (async () => {
        const check = await session.layer.checkCall(await session.context(), name, {
          onUndiscoveredCall: session.mode,
        });
        if (!check.ok) return session.answer(check.result);
        return lastOf(execute(input, callOptions));
      })();
    };
  }
  if (toModelOutput) {
    guarded.toModelOutput = (output: { toolCallId: string; input: unknown; output: unknown }) =>
      session.isAnswer(output.output) ? { type: 'json', value: output.output } : toModelOutput(output);
  }
  return guarded as AiTool;
}
