// The tools block each round sends, portable vs bridge vs native, for OpenAI (Chat Completions, Responses) and
// Anthropic, over a scripted ten-round session on the 117-tool GitHub MCP catalogue; plus the bundle
// size of each entry. Run after `npm run build`: `npx tsx bench/native-tokens.ts`.
import type {
  Tool as AnthropicTool,
  MessageParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses';
import { createToolSearch } from 'tool-search-layer';
import { answerAnthropicToolUse, prepareAnthropicMessages } from 'tool-search-layer/anthropic';
import {
  answerChatToolCall,
  answerResponseToolCall,
  prepareChatCompletion,
  prepareResponse,
} from 'tool-search-layer/openai';
import { loadSet } from './data.ts';
import { measureSize } from './size.ts';

const catalogue = loadSet('mcp-github').tools;
const groupOf = (name: string) => catalogue.find((tool) => tool.name === name)?.groups;
const quiet = { warn: () => {} };
// Five searches, each followed by a call of the best tool it found: ten rounds.
const queries = [
  'create a pull request',
  'list open issues in a repository',
  'get the contents of a file',
  'search code across repositories',
  'merge a pull request',
];
const ROUNDS = 10;

interface Row {
  api: string;
  mode: string;
  /** Bytes of the `tools` array sent each round. */
  bytes: number[];
  tokens: number[];
  /** Bytes of tool definitions the conversation carries outside the tools array (native loads). */
  loadedBytes: number;
  /** Estimated bytes the model reads each round: the tools it is shown plus the definitions loaded so far. */
  visible: number[];
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
/**
 * What the model is shown of a tools array, per the providers' documentation: OpenAI shows a deferred
 * function's name and description and a namespace's name and description only; Anthropic leaves deferred
 * tools out of the prompt. Loaded definitions are counted where they land, in the conversation.
 */
function shown(tools: readonly Record<string, unknown>[]): unknown[] {
  return tools.flatMap((tool) => {
    if (tool.type === 'namespace') return [{ name: tool.name, description: tool.description }];
    if (tool.defer_loading !== true) return [tool];
    return tool.type === 'function' ? [{ name: tool.name, description: tool.description }] : [];
  });
}

const record = (row: Row, tools: unknown) => {
  row.bytes.push(bytesOf(tools));
  row.tokens.push(countTokens(JSON.stringify(tools)));
  row.visible.push(bytesOf(shown(tools as Record<string, unknown>[])) + row.loadedBytes);
};
const found = (content: string) => (JSON.parse(content) as { tools: { name: string }[] }).tools[0]?.name ?? '';
const execute = () => ({ ok: true });

/** Bytes of the definitions a search result carries (in the bridge, the model's only copy of the schemas). */
const resultBytes = (content: string) => bytesOf((JSON.parse(content) as { tools?: unknown[] }).tools ?? []);

async function chat(exposure: 'tools' | 'bridge'): Promise<Row> {
  const tools: ChatCompletionTool[] = catalogue.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description ?? '', parameters: t.parameters ?? {} },
  }));
  const layer = createToolSearch({ logger: quiet });
  const mode = exposure === 'tools' ? 'portable' : exposure;
  const row: Row = { api: 'Chat Completions', mode, bytes: [], tokens: [], loadedBytes: 0, visible: [] };
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Work on my repository.' }];
  const options = { sessionId: `chat-${mode}`, groupOf, exposure };
  let next = '';
  for (let round = 0; round < ROUNDS; round++) {
    const request = await prepareChatCompletion(layer, { messages, tools }, options);
    record(row, request.tools);
    const step = Math.floor(round / 2);
    const [name, args] =
      round % 2 === 0
        ? ['search_tools', { query: queries[step] }]
        : exposure === 'bridge'
          ? ['call_tool', { name: next, arguments: {} }]
          : [next, {}];
    const call = { id: `c${round}`, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } };
    messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    const answer = await answerChatToolCall(layer, call, { ...options, tools, execute });
    messages.push(answer);
    if (round % 2 === 1) continue;
    next = found(answer.content as string);
    if (exposure === 'bridge') row.loadedBytes += resultBytes(answer.content as string);
  }
  return row;
}

async function responses(exposure: 'tools' | 'bridge' | 'native'): Promise<Row> {
  const native = exposure === 'native';
  const tools: FunctionTool[] = catalogue.map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description ?? '',
    parameters: t.parameters ?? {},
    strict: false,
  }));
  const layer = createToolSearch({ logger: quiet });
  const mode = exposure === 'tools' ? 'portable' : exposure;
  const row: Row = { api: 'Responses', mode, bytes: [], tokens: [], loadedBytes: 0, visible: [] };
  const options = { sessionId: `responses-${mode}`, groupOf, exposure };
  const input: ResponseInputItem[] = [{ role: 'user', content: 'Work on my repository.' }];
  let next = '';
  for (let round = 0; round < ROUNDS; round++) {
    const request = await prepareResponse(layer, { input, tools }, options);
    record(row, request.tools);
    const step = Math.floor(round / 2);
    const item =
      round % 2 === 1
        ? {
            type: 'function_call' as const,
            call_id: `c${round}`,
            ...(exposure === 'bridge'
              ? { name: 'call_tool', arguments: JSON.stringify({ name: next, arguments: {} }) }
              : { name: next, arguments: '{}' }),
          }
        : native
          ? { type: 'tool_search_call' as const, call_id: `c${round}`, arguments: { query: queries[step] } }
          : {
              type: 'function_call' as const,
              call_id: `c${round}`,
              name: 'search_tools',
              arguments: JSON.stringify({ query: queries[step] }),
            };
    input.push(item);
    const answer = await answerResponseToolCall(layer, item, { ...options, tools, execute });
    input.push(...answer);
    const out = answer[0];
    if (out?.type === 'tool_search_output') {
      row.loadedBytes += bytesOf(out.tools);
      const first = out.tools[0];
      next = first?.type === 'namespace' ? (first.tools[0]?.name ?? '') : first && 'name' in first ? first.name : '';
    } else if (round % 2 === 0 && out?.type === 'function_call_output') {
      next = found(out.output as string);
      if (exposure === 'bridge') row.loadedBytes += resultBytes(out.output as string);
    }
  }
  return row;
}

async function anthropic(native: boolean): Promise<Row> {
  const tools: AnthropicTool[] = catalogue.map((t) => ({
    name: t.name,
    description: t.description ?? '',
    input_schema: (t.parameters ?? { type: 'object' }) as AnthropicTool['input_schema'],
  }));
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const layer = createToolSearch({ logger: quiet });
  const mode = native ? 'native' : 'portable';
  const row: Row = { api: 'Anthropic Messages', mode, bytes: [], tokens: [], loadedBytes: 0, visible: [] };
  const options = { sessionId: `anthropic-${mode}`, groupOf, native };
  const messages: MessageParam[] = [{ role: 'user', content: 'Work on my repository.' }];
  let next = '';
  for (let round = 0; round < ROUNDS; round++) {
    const request = await prepareAnthropicMessages(layer, { messages, tools }, options);
    record(row, request.tools);
    const step = Math.floor(round / 2);
    const use = {
      type: 'tool_use' as const,
      id: `u${round}`,
      ...(round % 2 === 0 ? { name: 'search_tools', input: { query: queries[step] } } : { name: next, input: {} }),
    };
    messages.push({ role: 'assistant', content: [use] });
    const answer: ToolResultBlockParam = await answerAnthropicToolUse(layer, use, { ...options, tools, execute });
    messages.push({ role: 'user', content: [answer] });
    if (round % 2 === 1) continue;
    if (typeof answer.content === 'string') next = found(answer.content);
    else {
      // The API expands each tool_reference into the tool's definition where the result sits.
      const names = (answer.content ?? []).flatMap((b) => (b.type === 'tool_reference' ? [b.tool_name] : []));
      row.loadedBytes += names.reduce((sum, name) => sum + bytesOf(byName.get(name)), 0);
      next = names[0] ?? '';
    }
  }
  return row;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const changes = (values: readonly number[]) => values.filter((v, i) => i > 0 && v !== values[i - 1]).length;

const rows = [
  await chat('tools'),
  await chat('bridge'),
  await responses('tools'),
  await responses('bridge'),
  await responses('native'),
  await anthropic(false),
  await anthropic(true),
];
const everything = bytesOf(
  catalogue.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  })),
);
console.log(
  `mcp-github: ${catalogue.length} tools; every tool every round (Chat Completions shape): ${everything} bytes a round\n`,
);
console.log(
  '| API | mode | tools-block bytes sent, rounds 1–10 | total sent | o200k tokens of the block, round 1 → 10 | block changes (cache rewrites) | definitions loaded in the conversation | model reads (estimate), round 1 → 10 |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  console.log(
    `| ${row.api} | ${row.mode} | ${row.bytes.join(' · ')} | ${sum(row.bytes)} | ${row.tokens[0]} → ${row.tokens.at(-1)} | ${changes(row.bytes)} | ${row.loadedBytes ? `${row.loadedBytes} bytes` : '–'} | ${row.visible[0]} → ${row.visible.at(-1)} bytes |`,
  );
}

console.log('\n| entry | min | min+gzip | min+brotli |');
console.log('| --- | --- | --- | --- |');
for (const size of await measureSize(new URL('../package.json', import.meta.url).pathname)) {
  console.log(`| ${size.entry} | ${size.minBytes} | ${size.gzipBytes} | ${size.brotliBytes} |`);
}
