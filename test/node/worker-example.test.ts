// The example Worker (demo/worker) end to end in Miniflare 4: real workerd, real KV and Durable Object
// bindings, a real Cloudflare Agents SDK agent (with a scripted model) over the MCP server the Worker serves
// itself, state persisted to a temporary folder and read back after a restart.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const workerDir = () => join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'demo', 'worker');
const root = mkdtempSync(join(tmpdir(), 'tsl-worker-'));
let scriptPath: string;
let agentsScriptPath: string;
let mf: Miniflare;
let agentsMf: Miniflare;

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

/** The Agents example's Worker (wrangler.agents.jsonc), its Assistant with a scripted model. */
function startAgents(): Miniflare {
  return new Miniflare({
    modules: true,
    scriptPath: agentsScriptPath,
    modulesRoot: join(root, 'agents-bundle'),
    compatibilityDate: '2026-10-01',
    // Needed by name, though on by default from 2026-08-04: Miniflare and wrangler read it to load `node:*` modules.
    compatibilityFlags: ['nodejs_compat'],
    durableObjects: {
      ASSISTANT: { className: 'ScriptedAssistant', useSQLite: true },
      TOOLS: { className: 'ToolsServer', useSQLite: true },
    },
    durableObjectsPersist: join(root, 'agents-do'),
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
  // Both Workers bundled as wrangler does; the Agents one with a scripted model for its Assistant (scripted.ts).
  scriptPath = await bundleWorker(join(root, 'bundle'));
  agentsScriptPath = await bundleWorker(join(root, 'agents-bundle'), {
    contents: "export * from './scripted.ts';\nexport { default } from './scripted.ts';\n",
    resolveDir: workerDir(),
  });
  mf = start();
  agentsMf = startAgents();
  await Promise.all([mf.ready, agentsMf.ready]);
}, 60_000);

afterAll(async () => {
  await Promise.all([mf?.dispose(), agentsMf?.dispose()]);
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

interface Turn {
  messages: { role: string; content: unknown }[];
}
interface AssistantInside {
  state: { turns: number };
  turns: string[];
  discovered: string[];
}

/** One turn of the Assistant: the scripted model searches, calls a tool, then answers with what it saw. */
async function turn(
  name: string,
  script: object,
): Promise<{ offered: string[]; results: unknown[]; found: string[]; roles: string[] }> {
  const response = await agentsMf.dispatchFetch(`http://localhost/assistant/${name}`, {
    method: 'POST',
    body: JSON.stringify({ messages: [{ role: 'user', content: JSON.stringify(script) }] }),
  });
  expect(response.status).toBe(200);
  const { messages } = (await response.json()) as Turn;
  // responseMessages: the whole turn, every step's calls and results and the final answer.
  const last = messages.at(-1)?.content as { type: string; text: string }[];
  const answer = JSON.parse(last.find((part) => part.type === 'text')?.text ?? '{}');
  const searched = answer.results?.[0] as { tools?: { name: string }[] } | undefined;
  const hasSearch = 'search' in script;
  const found = hasSearch ? (searched?.tools ?? []).map((tool) => tool.name) : [];
  return { ...answer, found, roles: messages.map((message) => message.role) };
}

async function inside(name: string): Promise<AssistantInside> {
  const response = await agentsMf.dispatchFetch(`http://localhost/assistant/${name}`);
  expect(response.status).toBe(200);
  return (await response.json()) as AssistantInside;
}

describe('the Cloudflare Agents SDK example (Assistant, over its own MCP server)', () => {
  it('finds an MCP tool, calls it, and keeps the discovery for the next request', async () => {
    const first = await turn('alice', {
      search: 'convert celsius to fahrenheit',
      call: { name: 'celsius_to_fahrenheit', input: { value: 100 } },
    });
    expect(first.found).toEqual(['celsius_to_fahrenheit']);
    // reply() returns the whole turn (ai 7's responseMessages), not only the final step's message.
    expect(first.roles).toEqual(['assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(first.results[1]).toMatchObject({ content: [{ type: 'text', text: '212' }] });
    // Another request: the model calls the tool it found through call_tool, without searching again; the tools
    // it is offered are the bridge's, the same bytes in every request (append-only).
    const second = await turn('alice', { call: { name: 'celsius_to_fahrenheit', input: { value: 0 } } });
    expect(second.offered).toEqual(['search_tools', 'call_tool']);
    expect(first.offered).toEqual(second.offered);
    expect(second.results[0]).toMatchObject({ content: [{ type: 'text', text: '32' }] });
    const agent = await inside('alice');
    expect(agent.discovered).toEqual(['celsius_to_fahrenheit']);
    expect(agent.state.turns).toBe(2);
    expect(agent.turns).toHaveLength(2);
  }, 30_000);

  it('refuses a tool the session has not discovered, so the model searches first', async () => {
    const blind = await turn('bob', { call: { name: 'kilograms_to_pounds', input: { value: 1 } } });
    expect(blind.offered).toEqual(['search_tools', 'call_tool']);
    expect(JSON.stringify(blind.results[0])).toContain('notCalled');
    expect((await inside('bob')).discovered).toEqual([]);
  }, 30_000);

  it('loses no discovery of 20 concurrent requests to one agent', async () => {
    const queries = [
      'add two numbers',
      'subtract b from a',
      'multiply two numbers',
      'divide a by b',
      'raise to the power',
      'remainder modulo',
      'larger maximum',
      'smaller minimum',
      'temperature in fahrenheit',
      'distance in miles',
      'weight in pounds',
      'volume in gallons',
      'upper case letters',
      'lower case letters',
      'reverse the characters',
      'count the words',
      'url slug title',
      'count the characters',
      'remove leading and trailing whitespace',
      'encode as base64',
    ];
    const turns = await Promise.all(queries.map((search) => turn('crowd', { search })));
    const found = [...new Set(turns.flatMap((t) => t.found))].sort();
    // Twenty queries, twenty different tools found, all of them kept.
    expect(found).toHaveLength(20);
    const agent = await inside('crowd');
    expect([...agent.discovered].sort()).toEqual(found);
    expect(agent.state.turns).toBe(20);
    expect(agent.turns).toHaveLength(20);
  }, 60_000);

  it('type-checks (tsc --strict) against agents, ai and the built declaration files', () => {
    const tsc = join(workerDir(), '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', join(workerDir(), 'tsconfig.json')], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);

  it('keeps discoveries, state and the MCP connection across a restart, with persistence on', async () => {
    const before = await inside('alice');
    await agentsMf.dispose();
    agentsMf = startAgents();
    await agentsMf.ready;
    expect(await inside('alice')).toEqual(before);
    const after = await turn('alice', { call: { name: 'celsius_to_fahrenheit', input: { value: 37 } } });
    expect(after.offered).toEqual(['search_tools', 'call_tool']);
    expect(after.results[0]).toMatchObject({ content: [{ type: 'text', text: '98.6' }] });
  }, 60_000);

  it('clear() empties the discovered sets and leaves the agent’s setState state and SQL tables alone', async () => {
    const before = await inside('alice');
    expect(before.discovered.length).toBeGreaterThan(0);
    const cleared = await agentsMf.dispatchFetch('http://localhost/assistant/alice', { method: 'DELETE' });
    expect(cleared.status).toBe(200);
    const after = await inside('alice');
    expect(after.discovered).toEqual([]);
    expect(after.state).toEqual(before.state);
    expect(after.turns).toEqual(before.turns);
    expect(after.state.turns).toBe(3);
  }, 30_000);
});
