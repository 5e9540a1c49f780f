// The example Worker (demo/worker) end to end in Miniflare 4: real workerd, real KV and Durable Object
// bindings, state persisted to a temporary folder and read back after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../../demo/worker/bundle.ts';
import { assertDistBuilt } from '../../scripts/package-entries.mjs';

interface RoundAnswer {
  tools: string[];
  discovered: string[];
  warnings: string[];
  result?: { found: number; tools: { name: string }[] };
}

const root = mkdtempSync(join(tmpdir(), 'tsl-worker-'));
let scriptPath: string;
let mf: Miniflare;

function start(): Miniflare {
  return new Miniflare({
    modules: true,
    scriptPath,
    // Module names are paths relative to this root; the default (the working directory) is not above /tmp.
    modulesRoot: join(root, 'bundle'),
    compatibilityDate: '2026-10-01',
    kvNamespaces: ['DISCOVERED'],
    durableObjects: { AGENT: { className: 'ToolAgent', useSQLite: true } },
    kvPersist: join(root, 'kv'),
    durableObjectsPersist: join(root, 'do'),
  });
}

async function post(path: string, body: object): Promise<RoundAnswer> {
  const response = await mf.dispatchFetch(`http://localhost${path}`, { method: 'POST', body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return (await response.json()) as RoundAnswer;
}

/** KV writes land after the response (waitUntil): ask again until the session shows them, or 6 s pass. */
async function settledKv(sessionId: string, expected: string[]): Promise<string[]> {
  let discovered: string[] = [];
  for (const until = Date.now() + 6000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    discovered = (await post('/kv', { sessionId })).discovered;
    if (expected.every((name) => discovered.includes(name))) break;
  }
  return discovered;
}

beforeAll(async () => {
  assertDistBuilt();
  scriptPath = await bundleWorker(join(root, 'bundle'));
  mf = start();
  await mf.ready;
}, 30_000);

afterAll(async () => {
  await mf?.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('example Worker', () => {
  for (const [label, path] of [
    ['KV', '/kv'],
    ['Durable Object', '/agent/demo'],
  ] as const) {
    it(`answers a posted round end to end (${label})`, async () => {
      const first = await post(path, { sessionId: 'round', call: { query: 'create issue', limit: 2 } });
      expect(first.result?.tools.map((t) => t.name)).toContain('create_issue');
      expect(first.tools[0]).toBe('search_tools');
      expect(first.tools.length).toBeLessThan(117);
      expect(first.discovered).toEqual(first.result?.tools.map((t) => t.name));
      expect(first.tools).toEqual(expect.arrayContaining(first.discovered));
      expect(first.warnings).toEqual([]);
      // Another request, so another store instance: the session's discoveries are still there.
      const again =
        path === '/kv'
          ? await settledKv('round', first.discovered)
          : (await post(path, { sessionId: 'round' })).discovered;
      expect(again).toEqual(first.discovered);
    });
  }

  it('keeps both discoveries of two concurrent requests for one session in the Durable Object', async () => {
    const calls = ['pull request review', 'workflow run logs'];
    const answers = await Promise.all(
      calls.map((query) => post('/agent/racing', { sessionId: 's', call: { query, limit: 2 } })),
    );
    const found = answers.flatMap((a) => a.result?.tools.map((t) => t.name) ?? []);
    const { discovered } = await post('/agent/racing', { sessionId: 's' });
    expect([...discovered].sort()).toEqual([...new Set(found)].sort());
  });

  it('keeps both discoveries of two concurrent requests for one session in KV (one location)', async () => {
    const calls = ['pull request review', 'workflow run logs'];
    const answers = await Promise.all(
      calls.map((query) => post('/kv', { sessionId: 'racing', call: { query, limit: 2 } })),
    );
    const found = [...new Set(answers.flatMap((a) => a.result?.tools.map((t) => t.name) ?? []))];
    const discovered = await settledKv('racing', found);
    console.log(`KV, two concurrent requests: ${discovered.length} of ${found.length} discoveries kept`);
    expect([...discovered].sort()).toEqual([...found].sort());
  });

  it('keeps sessions across a restart of the runtime, with persistence on', async () => {
    const kv = await settledKv('round', []);
    const agent = (await post('/agent/demo', { sessionId: 'round' })).discovered;
    expect(kv.length).toBeGreaterThan(0);
    await mf.dispose();
    mf = start();
    await mf.ready;
    expect((await post('/kv', { sessionId: 'round' })).discovered).toEqual(kv);
    expect((await post('/agent/demo', { sessionId: 'round' })).discovered).toEqual(agent);
    expect((await post('/agent/racing', { sessionId: 's' })).discovered.length).toBe(4);
  }, 30_000);
});
