// What the OpenAI adapter tests share: the core catalogue in both APIs' tool shapes, a recording executor,
// and the real `openai` client (or another major, given as its constructor) pointed at the loopback provider.
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import type { ToolExecution } from 'tool-search-layer/openai';
import { catalogue, recordingLogger } from '../core/fixtures.ts';

export const chatTools: ChatCompletionTool[] = catalogue.map((tool) => ({
  type: 'function',
  function: { name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? {} },
}));

export const responsesTools: FunctionTool[] = catalogue.map((tool) => ({
  type: 'function',
  name: tool.name,
  description: tool.description ?? '',
  parameters: tool.parameters ?? {},
  strict: false,
}));

/** The groups of the core catalogue, by name. */
export const groupOf = (name: string): readonly string[] | undefined =>
  catalogue.find((tool) => tool.name === name)?.groups;

/** Layer options that keep the warnings out of the test output. */
export const quiet = (): { logger: ReturnType<typeof recordingLogger> } => ({ logger: recordingLogger() });

/** A Chat Completions tool's name. */
export const chatName = (tool: ChatCompletionTool): string =>
  tool.type === 'function' ? tool.function.name : tool.custom.name;

/** A recording executor: what the model called, and a fixed answer. */
export function executor(): { calls: ToolExecution<unknown>[]; execute: (call: ToolExecution<unknown>) => unknown } {
  const calls: ToolExecution<unknown>[] = [];
  const execute = (call: ToolExecution<unknown>) => {
    calls.push(call);
    return { ok: true, tool: call.name };
  };
  return { calls, execute };
}
