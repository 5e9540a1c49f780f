// The Cloudflare stores' shared values and sessions across a restart of workerd (Miniflare 4 with persistence on):
// a Worker written against dist/, its KV store per request and a Durable Object of each storage backend.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleWorker } from '../../demo/worker/bundle.ts';
import { assertDistBuilt } from '../../scripts/package-entries.mjs';

// Each request adds one credit per term to a shared value and records the terms in a session, then reads both.
const worker = `
import { DurableObject } from 'cloudflare:workers';
import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { createDurableObjectStore } from 'tool-search-layer/durable-object';
import { createToolSearch } from 'tool-search-layer';

const tools = ['get_weather', 'get_forecast', 'send_email', 'read_inbox', 'create_event', 'list_events', 'calculator']
  .map((name) => ({ name, description: name.replace('_', ' ') }));

// A session that searched for the query, then called the tool with a result; then the query's top names.
async function learn(store, { query, tool, session }) {
  const layer = createToolSearch({ store, learn: true, logger: { warn: (m) => { throw new Error(m); } } });
  if (tool) {
    const messages = [
      { role: 'user', content: query },
      { role: 'assistant', toolCalls: [{ id: 's', name: 'search_tools', arguments: JSON.stringify({ query }) }] },
      { role: 'tool', toolCallId: 's', content: '{"tools":[]}' },
      { role: 'assistant', toolCalls: [{ id: 'c', name: tool, arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c', content: 'ok' },
    ];
    await layer.prepare({ sessionId: session, tools, messages });
  }
  const result = await layer.search({ sessionId: 'ask', tools }, { query });
  return { top: result.tools.map((t) => t.name) };
}

const add = (term) => (current) => ({ ...current, [term]: ((current ?? {})[term] ?? 0) + 1 });

async function act(store, terms) {
  if (!Array.isArray(terms)) return learn(store, terms);
  for (const term of terms) await store.shared.update('learn:app', add(term));
  if (terms.length > 0) await store.update('s', (current) => [...(current ?? []), ...terms]);
  return { shared: await store.shared.get('learn:app'), session: (await store.get('s')) ?? null };
}

class Host extends DurableObject {
  async fetch(request) {
    return Response.json(await act(createDurableObjectStore({ storage: this.ctx.storage }), await request.json()));
  }
}
export class SqliteHost extends Host {}
export class KeyValueHost extends Host {}

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    // Without waitUntil the KV store writes inline, so a response means the write has landed.
    if (path === '/kv') return Response.json(await act(createKvStore({ namespace: env.KV }), await request.json()));
    const namespace = path === '/sqlite' ? env.SQLITE : env.KEY_VALUE;
    return namespace.get(namespace.idFromName('one')).fetch(request);
  },
};`;

const root = mkdtempSync(join(tmpdir(), 'tsl-restart-'));
let scriptPath: string;
let mf: Miniflare;

function start(): Miniflare {
  return new Miniflare({
    modules: true,
    scriptPath,
    modulesRoot: join(root, 'bundle'),
    compatibilityDate: '2026-10-01',
    kvNamespaces: ['KV'],
    durableObjects: {
      SQLITE: { className: 'SqliteHost', useSQLite: true },
      KEY_VALUE: { className: 'KeyValueHost' },
    },
    kvPersist: join(root, 'kv'),
    durableObjectsPersist: join(root, 'do'),
  });
}

async function post(path: string, body: unknown): Promise<{ shared?: unknown; session?: unknown; top?: string[] }> {
  const response = await mf.dispatchFetch(`http://localhost${path}`, { method: 'POST', body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { shared?: unknown; session?: unknown; top?: string[] };
}

beforeAll(async () => {
  assertDistBuilt();
  const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  scriptPath = await bundleWorker(join(root, 'bundle'), { contents: worker, resolveDir: repo });
  mf = start();
  await mf.ready;
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
  rmSync(root, { recursive: true, force: true });
});

for (const path of ['/kv', '/sqlite', '/key-value']) {
  it(`keeps shared values and sessions across a restart of workerd (${path.slice(1)} store)`, async () => {
    expect(await post(path, ['weather'])).toEqual({ shared: { weather: 1 }, session: ['weather'] });
    // KV takes one write per key per second: the store waits it out itself.
    expect(await post(path, ['weather', 'email'])).toEqual({
      shared: { weather: 2, email: 1 },
      session: ['weather', 'weather', 'email'],
    });
    await mf.dispose();
    mf = start();
    await mf.ready;
    expect(await post(path, [])).toEqual({
      shared: { weather: 2, email: 1 },
      session: ['weather', 'weather', 'email'],
    });
    // And the stored value goes on from there.
    expect((await post(path, ['email'])).shared).toEqual({ weather: 2, email: 2 });
  }, 30_000);
}

for (const path of ['/kv', '/sqlite', '/key-value']) {
  it(`keeps what sessions taught the ranking across a restart of workerd (${path.slice(1)} store)`, async () => {
    expect((await post(path, { query: 'umbrella' })).top).toEqual([]);
    for (const session of ['a', 'b', 'c']) await post(path, { query: 'umbrella', tool: 'get_forecast', session });
    expect((await post(path, { query: 'umbrella' })).top).toEqual(['get_forecast']);
    await mf.dispose();
    mf = start();
    await mf.ready;
    expect((await post(path, { query: 'umbrella' })).top).toEqual(['get_forecast']);
  }, 30_000);
}
