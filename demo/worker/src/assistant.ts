// A Cloudflare Agents SDK agent with tool search over the MCP servers it is connected to: the sessions'
// discovered tools in its own Durable Object storage, the MCP tools through `this.mcp`, the AI SDK's loop.
// The README and docs/cloudflare-agents.md show this file as it is, and a test holds them to it.
import { Agent } from 'agents';
import { generateText, type LanguageModel, type ModelMessage, stepCountIs } from 'ai';
import { createToolSearch } from 'tool-search-layer';
import { fromLayerTools, withToolSearch } from 'tool-search-layer/ai-sdk';
import { createDurableObjectStore } from 'tool-search-layer/durable-object';
import { createAgentMcpCatalogue } from 'tool-search-layer/mcp';
import { createWorkersAI } from 'workers-ai-provider';
import type { Env } from './env.ts';

/** The agent's own state, kept by the Agents SDK beside the store's keys (the store never touches it). */
interface AssistantState {
  turns: number;
}

export class Assistant extends Agent<Env, AssistantState> {
  override initialState: AssistantState = { turns: 0 };
  // The discovered sets live in this agent's own storage, under the store's 'tsl:' prefix.
  readonly store = createDurableObjectStore({ storage: this.ctx.storage });

  override async onStart(): Promise<void> {
    this.sql`CREATE TABLE IF NOT EXISTS turns (id INTEGER PRIMARY KEY AUTOINCREMENT, words TEXT)`;
    // Connected once: the Agents SDK keeps the connection in storage and restores it after a restart.
    const { servers } = this.getMcpServers();
    if (!Object.values(servers).some((server) => server.name === 'toolbox')) {
      await this.addMcpServer('toolbox', this.env.TOOLS);
    }
  }

  /** The model of each turn (tests put a scripted one here). */
  model(): LanguageModel {
    return createWorkersAI({ binding: this.env.AI })('@cf/meta/llama-4-scout-17b-16e-instruct');
  }

  /** One turn of the conversation: every message the model and the tools added (all steps). */
  async reply(messages: ModelMessage[]): Promise<ModelMessage[]> {
    await this.mcp.waitForConnections();
    const layer = createToolSearch({ store: this.store });
    // Readable server names for the generated ids: they are the groups and the searchable [server] tags.
    const { servers } = this.getMcpServers();
    const serverNames = Object.fromEntries(Object.entries(servers).map(([id, server]) => [id, server.name]));
    // Built per turn: the Agents SDK keeps this.mcp's lists current, and indexes are cached by content.
    const catalogue = await createAgentMcpCatalogue(this.mcp, { serverNames });
    const bridged = fromLayerTools(catalogue.tools, (name, input) =>
      catalogue.call(name, input as Record<string, unknown>),
    );
    const result = await generateText({
      model: this.model(),
      ...withToolSearch(layer, { sessionId: this.name, ...bridged }),
      stopWhen: stepCountIs(8),
      messages,
    });
    // In ai 7 `result.response.messages` holds the final step only; the turn is `responseMessages`.
    return result.responseMessages;
  }

  /** POST { messages } -> { messages }: the turn's new messages, to append to the conversation. */
  override async onRequest(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response('POST { "messages": [...] }', { status: 405 });
    const { messages } = (await request.json()) as { messages: ModelMessage[] };
    const added = await this.reply(messages);
    this.setState({ turns: this.state.turns + 1 });
    this.sql`INSERT INTO turns (words) VALUES (${JSON.stringify(messages.at(-1)?.content ?? '')})`;
    return Response.json({ messages: added });
  }
}
