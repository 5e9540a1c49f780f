// Shared by the AI SDK adapter's exposure tests: a catalogue that records each run with its input, and checks on the
// request bodies a session sent.
import { jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { expect } from 'vitest';
import { z } from 'zod';

/** One run of a catalogue tool: its name and the input its execute received. */
export interface Run {
  readonly name: string;
  readonly input: unknown;
}

/** Twelve tools; each execute records its run in `ran`. */
export function officeTools(ran: Run[]) {
  const run = (name: string) => async (input: unknown) => {
    ran.push({ name, input });
    return { ok: name };
  };
  const plain = (name: string, description: string) =>
    tool({
      description,
      inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
      execute: run(name),
    });
  return {
    get_weather: tool({
      description: 'Current weather conditions for a city',
      inputSchema: z.object({ city: z.string().describe('City name') }),
      execute: run('get_weather'),
    }),
    send_email: tool({
      description: 'Send an email message to a recipient',
      inputSchema: z.object({ to: z.string(), body: z.string() }),
      execute: run('send_email'),
    }),
    read_inbox: plain('read_inbox', 'List the newest messages in the inbox'),
    create_event: plain('create_event', 'Create a calendar event'),
    list_files: plain('list_files', 'List files in a folder of the drive'),
    translate_text: plain('translate_text', 'Translate text into another language'),
    get_stock_price: plain('get_stock_price', 'Latest stock price for a ticker symbol'),
    book_flight: plain('book_flight', 'Book a flight between two airports'),
    order_pizza: plain('order_pizza', 'Order a pizza for delivery'),
    play_music: plain('play_music', 'Play a song or playlist'),
    set_alarm: plain('set_alarm', 'Set an alarm clock for a time'),
    convert_units: plain('convert_units', 'Convert a quantity between units of measure'),
  };
}

/** The scripted session shared by the exposure tests: five discoveries, each tool called the round after. */
export const SESSION = [
  { search: 'weather city' },
  { call: 'get_weather', input: { city: 'Paris' } },
  { search: 'send email' },
  { call: 'send_email', input: { to: 'bob@example.com', body: 'hi' } },
  { search: 'calendar event' },
  { call: 'create_event', input: { q: 'lunch' } },
  { search: 'book flight' },
  { call: 'book_flight', input: { q: 'CDG-OSL' } },
  { search: 'translate text' },
  { call: 'translate_text', input: { q: 'bonjour' } },
  { call: 'get_weather', input: { city: 'Oslo' } },
  { text: 'done' },
] as const;

/** The runs SESSION makes: every call, with its input unchanged. */
export const SESSION_RUNS: Run[] = SESSION.flatMap((turn) =>
  'call' in turn ? [{ name: turn.call, input: turn.input }] : [],
);

/**
 * Checks a session's request bodies are append-only: each request's `fields` are byte-identical to the previous
 * request's, and its `list` (the messages or input items) starts with the previous request's, byte for byte.
 */
export function expectAppendOnly(bodies: readonly Record<string, unknown>[], fields: readonly string[], list: string) {
  expect(bodies.length).toBeGreaterThan(1);
  for (let i = 1; i < bodies.length; i++) {
    const previous = bodies[i - 1] as Record<string, unknown>;
    const current = bodies[i] as Record<string, unknown>;
    for (const field of fields) {
      expect(JSON.stringify(current[field]), `request ${i}: ${field}`).toBe(JSON.stringify(previous[field]));
    }
    const before = previous[list] as unknown[];
    const after = current[list] as unknown[];
    expect(after.length, `request ${i}: ${list} only grows`).toBeGreaterThan(before.length);
    expect(JSON.stringify(after.slice(0, before.length)), `request ${i}: earlier ${list}`).toBe(JSON.stringify(before));
  }
}

const usage = { inputTokens: { total: 10 }, outputTokens: { total: 5 } } as never;

/** One model turn for the SDK's mock model: tool calls `[name, input]`, or a final text. */
export type Turn = { readonly calls: readonly (readonly [string, unknown])[] } | { readonly text: string };

/** A mock model (the SDK's own, `ai/test`) that plays `turns`, one per step, across every generateText it serves. */
export function scriptedModel(turns: readonly Turn[], provider?: string): MockLanguageModelV4 {
  let step = 0;
  return new MockLanguageModelV4({
    ...(provider !== undefined && { provider }),
    doGenerate: async () => {
      const turn = turns[step] ?? { text: 'done' };
      const at = step++;
      if ('text' in turn) {
        return {
          content: [{ type: 'text', text: turn.text }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        } as never;
      }
      return {
        content: turn.calls.map(([toolName, input], i) => ({
          type: 'tool-call',
          toolCallId: `call-${at}-${i}`,
          toolName,
          input: JSON.stringify(input),
        })),
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      } as never;
    },
  });
}
