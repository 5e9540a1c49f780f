// search_tools as an AI SDK tool, and the repair that answers calls the SDK refused through it.
import {
  type Tool as AiTool,
  jsonSchema,
  type ModelMessage,
  NoSuchToolError,
  type ToolCallRepairFunction,
  type ToolSet,
} from 'ai';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import type { Tool } from '../../base/types.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { ToolSearch } from '../../layer/create-tool-search.ts';
import { rerouteToBridge } from './bridge.ts';
import { referTo, searchModelOutput } from './native.ts';
import type { AdapterSession } from './session.ts';

// Calls the SDK rejected as not active, answered when the repaired call reaches search_tools; bounded.
const MAX_PENDING = 256;

type Repair = Parameters<ToolCallRepairFunction<ToolSet>>[0];

// Layers already told that the repair is missing: a host that forgot it forgot it for every request.
const unrepairedWarned = new WeakSet<ToolSearch>();

/** search_tools and the repair function of one withToolSearch. */
export function createSearchTool(
  session: AdapterSession,
  fallback: () => Tool,
  catalogueNames: ReadonlySet<string>,
  userRepair: ((repair: never) => unknown) | undefined,
): {
  tool: AiTool;
  repairToolCall: (repair: Repair) => Promise<unknown>;
  checkRepaired: (messages: readonly ModelMessage[]) => void;
} {
  const { state } = session;
  const pending = new Map<string, string>();
  // The calls the SDK refused and handed to this repair, so a refused call it never saw proves it was not passed.
  const repaired = new Set<string>();

  const tool = {
    description: () => (state.definition ?? fallback()).description ?? '',
    // The layer's schema, read at the first step; no validation here: the layer answers bad arguments itself.
    inputSchema: jsonSchema(() => (state.definition ?? fallback()).parameters as never),
    execute: async (input: unknown, { toolCallId }: { toolCallId: string }) => {
      const refused = pending.get(toolCallId);
      if (refused !== undefined) {
        pending.delete(toolCallId);
        return session.correct(refused);
      }
      return referTo(session, await session.layer.search(await session.context(), input));
    },
    toModelOutput: searchModelOutput,
  } as unknown as AiTool;

  const repairToolCall = async (repair: Repair) => {
    const { toolCall, error } = repair;
    if (NoSuchToolError.isInstance(error)) {
      if (repaired.size >= MAX_PENDING) repaired.delete(repaired.values().next().value as string);
      repaired.add(toolCall.toolCallId);
      const exposed = state.exposed;
      // A tool called by its own name while the bridge is sent: the same call, through call_tool.
      if (exposed?.has(CALL_TOOL_NAME) && catalogueNames.has(toolCall.toolName)) return rerouteToBridge(toolCall);
      if (toolCall.toolName !== SEARCH_TOOL_NAME && exposed?.has(SEARCH_TOOL_NAME)) {
        if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value as string);
        pending.set(toolCall.toolCallId, toolCall.toolName);
        // search_tools is active, so the SDK runs it: its execute answers with the corrective result.
        return { ...toolCall, toolName: SEARCH_TOOL_NAME, input: '{}' };
      }
    }
    return userRepair ? userRepair(repair as never) : null;
  };

  /**
   * Run before a step changes what is sent: a call of a catalogue tool the last step did not send, that this repair
   * never saw, was refused by the SDK with AI_NoSuchToolError, so the host dropped `repairToolCall` (it picked
   * `{ tools, prepareStep }` out of the result). Said once per layer, since nothing else tells the host.
   */
  const checkRepaired = (messages: readonly ModelMessage[]) => {
    const sent = state.exposed;
    if (sent === undefined || unrepairedWarned.has(session.layer)) return;
    const last = messages.findLast((message) => message.role === 'assistant');
    if (!last || typeof last.content === 'string') return;
    for (const part of last.content) {
      if (part.type !== 'tool-call' || !catalogueNames.has(part.toolName) || repaired.has(part.toolCallId)) continue;
      if (sent.has(part.toolName) || state.deferred.has(part.toolName)) continue;
      unrepairedWarned.add(session.layer);
      session.layer.options.logger.warn(
        `[tool-search-layer] ai-sdk: the model called "${part.toolName}" by its own name and the SDK refused it (AI_NoSuchToolError), because repairToolCall from withToolSearch was not passed: spread the whole result into generateText or streamText, or pass its repairToolCall, so such calls run through call_tool or get an answer (warned once per layer)`,
      );
      return;
    }
  };

  return { tool, repairToolCall, checkRepaired };
}
