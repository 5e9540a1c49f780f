// A Worker that keeps each session's discovered tools in Cloudflare: POST /kv keeps them in Workers
// KV (a store built per request from the request's binding), POST /agent/<name> in the storage of an
// Agent-style Durable Object (one object per agent, sessions inside it).
import { DurableObject } from 'cloudflare:workers';
import { createToolSearch, type ToolSearch } from 'tool-search-layer';
import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { createDurableObjectStore } from 'tool-search-layer/durable-object';
import { answerRound, readRound } from './round.ts';

export interface Env {
  DISCOVERED: KVNamespace;
  AGENT: DurableObjectNamespace<ToolAgent>;
}

/** An agent as the Cloudflare Agents SDK makes them: a Durable Object whose storage also holds its sessions. */
export class ToolAgent extends DurableObject<Env> {
  // Built once per object: the store reads and writes this object's own storage, under its 'tsl:' prefix.
  readonly layer: ToolSearch = createToolSearch({
    store: createDurableObjectStore({ storage: this.ctx.storage }),
    maxDirectTools: 8,
  });

  override async fetch(request: Request): Promise<Response> {
    const input = await readRound(request);
    return input instanceof Response ? input : answerRound(this.layer, input);
  }
}

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/kv') {
      const input = await readRound(request);
      if (input instanceof Response) return input;
      // Per request: the binding comes with the request, and the store defers its writes past the response.
      const store = createKvStore({ namespace: env.DISCOVERED, waitUntil: ctx.waitUntil.bind(ctx) });
      return answerRound(createToolSearch({ store, maxDirectTools: 8 }), input);
    }
    const agent = /^\/agent\/([^/]+)$/.exec(pathname)?.[1];
    if (agent) return env.AGENT.getByName(decodeURIComponent(agent)).fetch(request);
    return new Response(
      'POST { "sessionId": "s1", "call": { "query": "create an issue" } } to /kv or /agent/<name>\n',
      { status: 404 },
    );
  },
} satisfies ExportedHandler<Env>;
