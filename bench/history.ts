// Conversation histories built from real layer.search calls, as a host would feed them back to prepare.
import { type Message, SEARCH_TOOL_NAME, type Tool, type ToolSearch } from 'tool-search-layer';

/** The three messages of one search: the user's request, the assistant's search_tools call, its result. */
export async function searchExchange(
  layer: ToolSearch,
  context: { sessionId: string; tools: readonly Tool[] },
  query: string,
  id: string,
  limit?: number,
): Promise<{ messages: Message[]; found: string[] }> {
  const args = limit === undefined ? { query } : { query, limit };
  const result = await layer.search(context, args);
  const found = 'tools' in result ? result.tools.map((t) => t.name) : [];
  return {
    found,
    messages: [
      { role: 'user', content: query },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id, name: SEARCH_TOOL_NAME, arguments: JSON.stringify(args) }],
      },
      { role: 'tool', toolCallId: id, content: JSON.stringify(result) },
    ],
  };
}

/**
 * A history of `length` messages: turns of a request, a search, a call of the best tool found with
 * its result, and the assistant's answer. The searches run on `builder`, so the layer under test starts empty.
 */
export async function buildHistory(
  builder: ToolSearch,
  tools: readonly Tool[],
  queries: readonly string[],
  length: number,
): Promise<Message[]> {
  const messages: Message[] = [];
  const context = { sessionId: 'history-builder', tools };
  for (let turn = 0; messages.length < length; turn++) {
    const query = queries[turn % queries.length] as string;
    const search = await searchExchange(builder, context, query, `s${turn}`);
    messages.push(...search.messages);
    const used = search.found[0];
    if (used) {
      messages.push(
        { role: 'assistant', content: null, toolCalls: [{ id: `c${turn}`, name: used, arguments: '{}' }] },
        { role: 'tool', toolCallId: `c${turn}`, content: JSON.stringify({ ok: true, turn }) },
      );
    }
    messages.push({ role: 'assistant', content: `Done: ${query.slice(0, 80)}` });
  }
  return messages.slice(0, length);
}
