// The bridge's `call_tool` as an AI SDK tool: the layer checks the call, then the named tool's own execute runs it.
import { type Tool as AiTool, asSchema, jsonSchema } from 'ai';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import type { AnyTool } from './catalogue.ts';
import { type AdapterSession, lastOf } from './session.ts';

// Read only if the SDK sends call_tool before any step of ours ran (a prepareStep of the host's own).
const FALLBACK_PARAMETERS = {
  type: 'object',
  properties: { name: { type: 'string' }, arguments: { type: 'object' } },
  required: ['name', 'arguments'],
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The name and arguments a `call_tool` input names, as far as they can be read (the layer checks them). */
function named(input: unknown): { name: unknown; args: unknown } {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { name: undefined, args: undefined };
    }
  }
  if (!isObject(value)) return { name: undefined, args: undefined };
  let args = value.arguments;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      // left as text: the layer answers it
    }
  }
  return { name: value.name, args };
}

/**
 * `call_tool`: once `layer.callTool` allows the call, runs the named tool's own `execute` with the model's arguments as
 * the tool's own schema parses them (unchanged for a plain JSON Schema), or answers with the layer's corrective result.
 * The named tool's approval and model output apply to the call.
 */
export function bridgeTool(session: AdapterSession, tools: ReadonlyMap<string, AnyTool>): AiTool {
  const target = (input: unknown) => {
    const { name, args } = named(input);
    return { tool: typeof name === 'string' ? tools.get(name) : undefined, args };
  };
  return {
    description: () => session.state.callDefinition?.description ?? '',
    // The layer's schema, read once at the first step (it never changes); no validation here: the layer checks the
    // name and the arguments against the named tool's schema.
    inputSchema: jsonSchema(() => (session.state.callDefinition?.parameters ?? FALLBACK_PARAMETERS) as never),
    needsApproval: async (input: unknown, approvalOptions: unknown) => {
      const { tool, args } = target(input);
      const needs = tool?.needsApproval;
      return typeof needs === 'function' ? needs(args, approvalOptions) : needs === true;
    },
    execute: async (input: unknown, callOptions: { toolCallId: string }) => {
      const checked = await session.layer.callTool(await session.context(), input, {
        onUndiscoveredCall: session.mode,
      });
      if (!checked.ok) return session.answer(checked.result);
      const tool = tools.get(checked.name);
      const execute = tool?.execute;
      if (typeof execute !== 'function') {
        return session.answer({
          notCalled: checked.name,
          error: `Tool "${checked.name}" cannot run here: the application runs it itself.`,
          hint: 'Tell the user what you wanted to do with it instead.',
        });
      }
      const parsed = await ownParse(tool as AnyTool, checked.arguments);
      if (!parsed.ok) {
        return session.answer({
          notCalled: checked.name,
          error: `The arguments for "${checked.name}" were refused by the tool: ${parsed.message}`,
          hint: `Call call_tool again with arguments that match the parameters of "${checked.name}".`,
        });
      }
      return lastOf(execute(parsed.value, callOptions));
    },
    toModelOutput: (output: { toolCallId: string; input: unknown; output: unknown }) => {
      const { tool, args } = target(output.input);
      if (session.isAnswer(output.output) || !tool?.toModelOutput)
        return { type: 'json', value: output.output ?? null };
      return tool.toModelOutput({ ...output, input: args });
    },
  } as unknown as AiTool;
}

/**
 * The tool's own schema parse, as the SDK runs it before a direct call (zod defaults and transforms apply); a schema
 * without a validator (`jsonSchema`) passes the arguments through unchanged.
 */
async function ownParse(
  tool: AnyTool,
  args: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  const validate = asSchema(tool.inputSchema as never).validate;
  if (!validate) return { ok: true, value: args };
  const result = await validate(args);
  if (result.success) return { ok: true, value: result.value };
  return { ok: false, message: result.error.message };
}

/** A direct call of a catalogue tool that is not active this step, repaired into the same call through `call_tool`. */
export function rerouteToBridge<C extends { toolName: string; input: string }>(toolCall: C): C {
  let args: unknown = toolCall.input;
  try {
    args = JSON.parse(toolCall.input);
  } catch {
    // left as text: the layer answers it
  }
  return { ...toolCall, toolName: CALL_TOOL_NAME, input: JSON.stringify({ name: toolCall.toolName, arguments: args }) };
}
