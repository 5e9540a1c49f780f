// Real chat, optional: the visitor's OpenAI-compatible endpoint, through the layer. Each round's body is the one
// the Chat Completions adapter made and the page shows; each tool call in a reply is answered by the adapter's
// answerChatToolCall (search through the layer, an undiscovered call refused, an allowed one simulated). The key
// is read from the field for each request and sent only to the endpoint as its Authorization header.
import type { ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { answerChatToolCall, chatMessagesToMessages, toolToChatTool } from 'tool-search-layer/openai';
import { app, currentBody, host, nextRound, player, showRound } from './app.ts';
import { simulatedResult } from './session.ts';
import { fillModes } from './ui-settings.ts';
import { act, byId } from './view.ts';

/** Model calls per message at most: a model that keeps calling tools stops here. */
const MAX_STEPS = 6;

interface Reply {
  readonly content?: string | null;
  readonly tool_calls?: ChatCompletionMessageToolCall[];
}

/** Posts a body to `<endpoint>/chat/completions` and returns the first choice's message. */
async function complete(endpoint: string, key: string, body: Record<string, unknown>): Promise<Reply> {
  const response = await fetch(`${endpoint.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`the endpoint answered ${response.status}: ${text.slice(0, 200)}`);
  const message = JSON.parse(text)?.choices?.[0]?.message;
  if (!message) throw new Error('the endpoint answered without choices[0].message');
  return message;
}

const status = (text: string) => {
  byId('chat-status').textContent = text;
};

/** One user message, then model calls until a reply without tool calls (or MAX_STEPS). */
async function send(endpoint: string, model: string, key: string, text: string): Promise<void> {
  player.pause();
  if (app.provider !== 'openai-chat' || app.mode === 'native') {
    app.provider = 'openai-chat';
    (byId('provider') as HTMLSelectElement).value = app.provider;
    fillModes();
  }
  host.ask(text);
  const chatTools = app.tools.map((tool) => toolToChatTool(tool));
  for (let step = 0; step < MAX_STEPS; step++) {
    await nextRound();
    const body = { ...currentBody(), model };
    status(`Round ${host.rounds.length}: waiting for ${model}…`);
    const reply = await complete(endpoint, key, body);
    const assistant = {
      role: 'assistant' as const,
      content: reply.content ?? null,
      ...(reply.tool_calls?.length && { tool_calls: reply.tool_calls }),
    };
    const calls = reply.tool_calls ?? [];
    const answers = [];
    for (const call of calls) {
      answers.push(
        await answerChatToolCall(app.layer, call, {
          sessionId: app.sessionId,
          tools: chatTools,
          enabledGroups: app.enabledGroups,
          exposure: app.mode === 'bridge' ? 'bridge' : 'tools',
          execute: ({ name }) => simulatedResult(name),
        }),
      );
    }
    host.append(
      chatMessagesToMessages([assistant, ...answers]),
      calls.length
        ? `the model calls ${calls.map((c) => (c.type === 'function' ? c.function.name : c.custom.name)).join(', ')}`
        : 'the model answers',
    );
    if (calls.length === 0) {
      await showRound();
      status(`The model answered after ${step + 1} ${step === 0 ? 'call' : 'calls'}.`);
      return;
    }
  }
  await showRound();
  status(`Stopped after ${MAX_STEPS} model calls that all asked for tools.`);
}

/** Wires the chat form. */
export function wireChat(): void {
  byId('chat').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = (id: string) => (byId(id) as HTMLInputElement).value.trim();
    const [endpoint, model, message] = [value('chat-endpoint'), value('chat-model'), value('chat-message')];
    if (!endpoint || !model || !message) {
      status('Enter an endpoint, a model and a message.');
      return;
    }
    void act(async () => {
      try {
        await send(endpoint, model, (byId('chat-key') as HTMLInputElement).value, message);
      } catch (error) {
        status(`Failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  });
}
