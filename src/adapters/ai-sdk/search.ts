// search_tools as an AI SDK tool, and the repair that answers calls the SDK refused through it.
import { type Tool as AiTool, jsonSchema, NoSuchToolError, type ToolCallRepairFunction, type ToolSet } from 'ai';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { Tool } from '../../core/types.ts';
import { CALL_TOOL_NAME } from '../../exposure/mode.ts';
import { rerouteToBridge } from './bridge.ts';
import { referTo, searchModelOutput } from './native.ts';
import type { AdapterSession } from './session.ts';

// Calls the SDK rejected as not active, answered when the repaired call reaches search_tools; bounded.
const MAX_PENDING = 256;

type Repair = Parameters<ToolCallRepairFunction<ToolSet>>[0];

/** search_tools and the repair function of one withToolSearch. */
export function createSearchTool(
  session: AdapterSession,
  fallback: () => Tool,
  catalogueNames: ReadonlySet<string>,
  userRepair: ((repair: never) => unknown) | undefined,
): { tool: AiTool; repairToolCall: (repair: Repair) => Promise<unknown> } {
  const { state } = session;
  const pending = new Map<string, string>();

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

  return { tool, repairToolCall };
}
