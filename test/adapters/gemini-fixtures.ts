// What the Gemini adapter tests share: a real catalogue of 117 tools (GitHub's MCP server, bench/data) as frozen
// function declarations, the real `@google/genai` client pointed at the loopback provider, and Gemini's replies.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FunctionDeclaration, GoogleGenAI, type Part } from '@google/genai';
import type { ToolExecution } from 'tool-search-layer/gemini';
import { loadSet } from '../../bench/data.ts';
import { recordingLogger } from '../core/fixtures.ts';
import { type EventStream, eventStream } from './mock-provider.ts';

/** Freezes an object and everything in it, so any write by the adapter or the SDK throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** GitHub's MCP server tools as Gemini declarations with `parametersJsonSchema`, frozen all the way down. */
export const declarations: readonly FunctionDeclaration[] = deepFreeze(
  loadSet('mcp-github').tools.map(
    (tool): FunctionDeclaration => ({
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      parametersJsonSchema: tool.parameters ?? { type: 'object', properties: {} },
    }),
  ),
);

/** The tools' groups, from the set's labels. */
const groups = new Map(loadSet('mcp-github').tools.map((tool) => [tool.name, tool.groups]));
export const groupOf = (name: string): readonly string[] | undefined => groups.get(name);

/** Layer options that keep the warnings out of the test output. */
export const quiet = (): { logger: ReturnType<typeof recordingLogger> } => ({ logger: recordingLogger() });

/** The real client against the loopback origin; the API version pinned, as environment variables would change it. */
export function geminiClient(origin: string): GoogleGenAI {
  delete process.env.GOOGLE_GENAI_API_VERSION;
  delete process.env.GOOGLE_GEMINI_BASE_URL;
  return new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: origin, apiVersion: 'v1beta' } });
}

/** A `generateContent` reply with these model parts. */
export function geminiReply(parts: readonly Part[]): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: 'gemini-mock',
  };
}

/** The same parts streamed, one chunk per part, as `streamGenerateContent?alt=sse` sends them. */
export function geminiStream(parts: readonly Part[]): EventStream {
  return eventStream(
    parts.map((part) => geminiReply([part])),
    false,
  );
}

/** A function call part, with the thought signature Gemini 3 puts on the first call of a turn. */
export const callPart = (name: string, args: unknown, id?: string, thoughtSignature?: string): Part => ({
  functionCall: { name, args: args as Record<string, unknown>, ...(id !== undefined && { id }) },
  ...(thoughtSignature !== undefined && { thoughtSignature }),
});

/** A recording executor: what the model called, and a fixed answer. */
export function executor(): {
  calls: ToolExecution<FunctionDeclaration>[];
  execute: (call: ToolExecution<FunctionDeclaration>) => unknown;
} {
  const calls: ToolExecution<FunctionDeclaration>[] = [];
  const execute = (call: ToolExecution<FunctionDeclaration>) => {
    calls.push(call);
    return { ok: true, tool: call.name };
  };
  return { calls, execute };
}

/**
 * Type-checks recorded request bodies under `tsc --strict` against the SDK's own types of what goes on the wire
 * (`Content`, `Tool`, `ToolConfig`, `GenerationConfig`): each body becomes an object literal, so a key the API
 * does not know fails as an excess property. Returns tsc's output ('' when they pass).
 */
export function typecheckBodies(label: string, bodies: readonly Record<string, unknown>[]): string {
  const root = join(import.meta.dirname, '..', '..');
  const dir = join(import.meta.dirname, 'gemini-types', `.bodies-${label}`);
  mkdirSync(dir, { recursive: true });
  try {
    const head = [
      "import type { Content, GenerationConfig, Tool, ToolConfig } from '@google/genai';",
      'interface Body { contents: Content[]; systemInstruction?: Content; tools?: Tool[]; toolConfig?: ToolConfig; generationConfig?: GenerationConfig }',
    ];
    const lines = bodies.map((body, i) => `export const body${i}: Body = ${JSON.stringify(body, null, 1)};`);
    writeFileSync(join(dir, 'bodies.ts'), [...head, ...lines].join('\n'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['*.ts'] }));
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const run = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { cwd: root, encoding: 'utf8' });
    return `${run.stdout}${run.stderr}${run.status === 0 ? '' : `(exit ${run.status})`}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
