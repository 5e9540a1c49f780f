// LangChain messages as the layer reads them: AIMessage tool calls and ToolMessages paired by id.
import type { Message } from '../../base/types.ts';

/** The parts of a LangChain message the layer reads; any `BaseMessage` fits. */
export interface LangChainMessageLike {
  getType?: () => string;
  _getType?: () => string;
  readonly content?: unknown;
  readonly tool_calls?: readonly { readonly id?: string | undefined; readonly name: string; readonly args?: unknown }[];
  readonly tool_call_id?: string;
}

const converted = new WeakMap<object, Message | null>();

function typeOf(message: LangChainMessageLike): string | undefined {
  try {
    return message.getType?.() ?? message._getType?.();
  } catch {
    return undefined;
  }
}

/** A message's text: a string as it is, content blocks' text joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: unknown; text?: unknown }) =>
      block?.type === 'text' && typeof block.text === 'string' ? block.text : '',
    )
    .join('');
}

/** One message as the layer's, once per message object (a thread's messages repeat every model call). */
function convert(message: LangChainMessageLike): Message | null {
  switch (typeOf(message)) {
    case 'human':
      return { role: 'user', content: textOf(message.content) };
    case 'ai': {
      const calls = (message.tool_calls ?? []).filter((call) => typeof call?.id === 'string' && call.id !== '');
      return {
        role: 'assistant',
        content: textOf(message.content),
        toolCalls: calls.map((call) => ({
          id: call.id as string,
          name: call.name,
          arguments: JSON.stringify(call.args ?? {}),
        })),
      };
    }
    case 'tool':
      return typeof message.tool_call_id === 'string'
        ? { role: 'tool', toolCallId: message.tool_call_id, content: textOf(message.content) }
        : null;
    default:
      return null;
  }
}

/** A thread's messages as the layer's; anything malformed is skipped. */
export function layerMessages(messages: readonly unknown[] | undefined): Message[] {
  const out: Message[] = [];
  for (const message of messages ?? []) {
    if (typeof message !== 'object' || message === null) continue;
    let m = converted.get(message);
    if (m === undefined) {
      m = convert(message as LangChainMessageLike);
      converted.set(message, m);
    }
    if (m) out.push(m);
  }
  return out;
}
