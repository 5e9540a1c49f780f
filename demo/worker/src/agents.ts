// The Cloudflare Agents SDK example's Worker (wrangler.agents.jsonc): POST { messages } to /assistant/<name> runs
// a turn of that agent (`Assistant`), over the MCP server this Worker serves itself (`ToolsServer`). A Worker of
// its own, so that the KV and Durable Object example (index.ts) stays small and needs no compatibility flags.
import { getAgentByName } from 'agents';
import type { Env } from './env.ts';

export { Assistant } from './assistant.ts';
export type { Env } from './env.ts';
export { ToolsServer } from './tools-server.ts';

export default {
  async fetch(request, env): Promise<Response> {
    const name = /^\/assistant\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (name) return (await getAgentByName(env.ASSISTANT, decodeURIComponent(name))).fetch(request);
    return new Response('POST { "messages": [{ "role": "user", "content": "..." }] } to /assistant/<name>\n', {
      status: 404,
    });
  },
} satisfies ExportedHandler<Env>;
