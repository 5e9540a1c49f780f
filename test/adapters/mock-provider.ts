// A scripted provider on loopback: the real OpenAI and Anthropic SDK clients talk to it over HTTP,
// it records each request body, and answers with the next scripted reply.
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** The raw body text, byte for byte as the client sent it. */
  readonly raw: string;
  readonly body: Record<string, unknown>;
  /** The request headers (lower-case names), e.g. `anthropic-beta`. */
  readonly headers: IncomingHttpHeaders;
}

/** A running mock provider. */
export interface MockProvider {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** The body of the request at `index`; throws when there is none. */
  body(index: number): Record<string, unknown>;
  close(): Promise<void>;
}

/** Answers a request with a JSON reply; `index` counts requests from 0. */
export type Script = (request: RecordedRequest, index: number) => unknown;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Starts a mock provider on 127.0.0.1 with a free port. */
export async function startMockProvider(script: Script): Promise<MockProvider> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (request, response) => {
    const raw = await readBody(request);
    const recorded = {
      method: request.method ?? '',
      path: request.url ?? '',
      raw,
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
      headers: request.headers,
    };
    requests.push(recorded);
    let reply: unknown;
    try {
      reply = script(recorded, requests.length - 1);
    } catch (error) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
      return;
    }
    if (isEventStream(reply)) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(reply.text);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    body: (index) => {
      const request = requests[index];
      if (!request) throw new Error(`no request ${index}: ${requests.length} received`);
      return request.body;
    },
    close: () =>
      new Promise((resolve) => {
        if (!server.listening) resolve();
        else server.close(() => resolve());
      }),
  };
}

const STREAM = Symbol('event stream');

/** A reply sent as server-sent events, for a client's `stream: true` request. */
export interface EventStream {
  readonly [STREAM]: true;
  /** The body as the client reads it: one `data:` line per event. */
  readonly text: string;
}

/** An event stream reply; Chat Completions ends its stream with `data: [DONE]`, the Responses API does not. */
export function eventStream(events: readonly unknown[], done: boolean): EventStream {
  const lines = events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
  return { [STREAM]: true, text: lines.join('') + (done ? 'data: [DONE]\n\n' : '') };
}

const isEventStream = (reply: unknown): reply is EventStream =>
  typeof reply === 'object' && reply !== null && STREAM in reply;

/** A streamed Chat Completions text reply, one chunk per word. */
export function chatStreamReply(text: string): EventStream {
  const base = { id: 'chatcmpl_stream', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'mock-model' };
  const words = text.split(/(?<= )/);
  const chunks = words.map((word, i) => ({
    ...base,
    choices: [{ index: 0, delta: { ...(i === 0 && { role: 'assistant' }), content: word }, finish_reason: null }],
  }));
  return eventStream([...chunks, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }], true);
}

/** A streamed Responses API text reply: created, one delta per word, completed. */
export function responsesStreamReply(text: string): EventStream {
  const done = responsesReply([textMessage(text)]) as Record<string, unknown>;
  const deltas = text.split(/(?<= )/).map((delta, i) => ({
    type: 'response.output_text.delta',
    item_id: 'item_stream',
    output_index: 0,
    content_index: 0,
    delta,
    logprobs: [],
    sequence_number: i + 1,
  }));
  const events = [
    { type: 'response.created', response: { ...done, status: 'in_progress', output: [] }, sequence_number: 0 },
    ...deltas,
    { type: 'response.completed', response: done, sequence_number: deltas.length + 1 },
  ];
  return eventStream(events, false);
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${++counter}`;

/** A Chat Completions reply: text, or tool calls `[name, arguments]`. */
export function chatReply(reply: { text?: string; calls?: readonly (readonly [string, unknown])[] }): unknown {
  const toolCalls = (reply.calls ?? []).map(([name, args]) => ({
    id: nextId('call'),
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  }));
  return {
    id: nextId('chatcmpl'),
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'mock-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          refusal: null,
          ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
        },
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** A Responses API reply with these output items (ids are filled in). */
export function responsesReply(output: readonly Record<string, unknown>[]): unknown {
  return {
    id: nextId('resp'),
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    model: 'mock-model',
    output: output.map((item) => ({ id: nextId('item'), status: 'completed', ...item })),
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  };
}

/** A Responses `function_call` output item. */
export const functionCall = (name: string, args: unknown, namespace?: string): Record<string, unknown> => ({
  type: 'function_call',
  call_id: nextId('fc'),
  name,
  arguments: JSON.stringify(args),
  ...(namespace !== undefined && { namespace }),
});

/** A Responses client-executed `tool_search_call` output item. */
export const toolSearchCall = (args: unknown): Record<string, unknown> => ({
  type: 'tool_search_call',
  call_id: nextId('ts'),
  execution: 'client',
  arguments: args,
});

/** A Responses assistant text message output item. */
export const textMessage = (text: string): Record<string, unknown> => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }],
});

/** An Anthropic Messages reply: text and `[name, input]` tool uses. */
export function anthropicReply(reply: { text?: string; uses?: readonly (readonly [string, unknown])[] }): unknown {
  const content = [
    ...(reply.text !== undefined ? [{ type: 'text', text: reply.text }] : []),
    ...(reply.uses ?? []).map(([name, input]) => ({ type: 'tool_use', id: nextId('toolu'), name, input })),
  ];
  return {
    id: nextId('msg'),
    type: 'message',
    role: 'assistant',
    model: 'mock-model',
    content,
    stop_reason: (reply.uses ?? []).length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}
