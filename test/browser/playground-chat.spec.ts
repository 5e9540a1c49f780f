// Real chat against a mock OpenAI-compatible endpoint served by this test: every request the page sends carries
// only the tools the layer exposed that round, and the reply's tool calls are played through the layer (the
// search answered by it, the found tool allowed and run, its result sent back). The key goes to the endpoint only.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures.ts';
import { check, exposedNames, PLAYGROUND, ready } from './playground-helpers.ts';

test.use(PLAYGROUND);
// axe walks a long page on a shared machine: seconds per scan.
test.setTimeout(120_000);

interface Seen {
  body: { model: string; messages: { role: string; content?: string }[]; tools?: { function: { name: string } }[] };
  authorization: string | undefined;
}

let seen: Seen[] = [];
let server: Server;
let endpoint = '';

type Schema = { properties?: Record<string, { enum?: unknown[]; type?: string }>; required?: string[] };

/** Arguments a careful model writes from the schema a search returned: every required property, of its type. */
function fill(schema: Schema | undefined): Record<string, unknown> {
  const value = (p: { enum?: unknown[]; type?: string } | undefined) =>
    p?.enum?.[0] ?? (p?.type === 'number' || p?.type === 'integer' ? 1 : p?.type === 'boolean' ? true : 'x');
  return Object.fromEntries((schema?.required ?? []).map((key) => [key, value(schema?.properties?.[key])]));
}

/** The model's replies, in turn: search, call the first tool found (through call_tool when offered), answer. */
function reply(turn: number, body: Seen['body']): unknown {
  const call = (name: string, args: unknown) => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  });
  if (turn === 0) return call('search_tools', { query: 'take a screenshot of the page' });
  if (turn === 1) {
    const lastTool = body.messages.findLast((m) => m.role === 'tool')?.content;
    const first = JSON.parse(lastTool ?? '{}').tools?.[0] ?? {};
    const bridged = body.tools?.some((t) => t.function.name === 'call_tool');
    return bridged ? call('call_tool', { name: first.name, arguments: fill(first.parameters) }) : call(first.name, {});
  }
  return { role: 'assistant', content: 'Here is your screenshot.' };
}

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
  });

test.beforeAll(async () => {
  server = createServer(async (request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'content-type, authorization');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const body = JSON.parse(await read(request)) as Seen['body'];
    seen.push({ body, authorization: request.headers.authorization });
    const message = reply(seen.length - 1, body);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: `r${seen.length}`,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: 'stop' }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

for (const mode of ['tools', 'bridge'] as const) {
  test(`a real chat round trip in mode ${mode}: only the exposed tools are sent, tool calls go through the layer`, async ({
    page,
  }) => {
    seen = [];
    await page.selectOption('#catalogue', 'mcp-npm-capture');
    await ready(page);
    await page.check(`#modes input[value=${mode}]`);
    await ready(page);
    await page.fill('#chat-endpoint', endpoint);
    await page.fill('#chat-model', 'mock-model');
    await page.fill('#chat-key', 'test-key');
    await page.fill('#chat-message', 'Take a screenshot of example.com');
    await page.click('#chat button[type=submit]');
    await expect(page.locator('#chat-status')).toHaveText('The model answered after 3 calls.');
    await ready(page);

    expect(seen).toHaveLength(3);
    const names = (i: number) => (seen[i]?.body.tools ?? []).map((t) => t.function.name);
    // Round 1: only the layer's tools, not the 79 tools of the catalogue.
    if (mode === 'tools') expect(names(0)).toEqual(['search_tools']);
    // The layer answered the search: its result is in the next request, and the tools it found were exposed.
    const searchResult = JSON.parse(seen[1]?.body.messages.findLast((m) => m.role === 'tool')?.content ?? '{}');
    const found: string[] = searchResult.tools.map((t: { name: string }) => t.name);
    expect(found[0]).toBe('browser_take_screenshot');
    // The tools the layer exposes: in mode tools the found ones join, in mode bridge the block never changes.
    const exposed = mode === 'tools' ? ['search_tools', ...found] : ['search_tools', 'call_tool'];
    if (mode === 'bridge') expect(names(0)).toEqual(exposed);
    expect(names(1)).toEqual(exposed);
    // The call of a found tool was allowed and run: the simulated result went back to the model.
    expect(seen[2]?.body.messages.findLast((m) => m.role === 'tool')?.content).toContain('simulated by the playground');
    expect(names(2)).toEqual(exposed);
    // What the page shows for the last round is exactly what was sent.
    expect(await exposedNames(page)).toEqual(names(2));
    for (const request of seen) {
      expect(request.body.model).toBe('mock-model');
      expect(request.authorization).toBe('Bearer test-key');
    }
    await expect(page.locator('#history li.assistant').last()).toContainText('Here is your screenshot.');
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(stored).not.toContain('test-key');
    // A main state of the page: axe, no sideways scroll and a screenshot, at both widths.
    await check(page, `a11y-8-chat-${mode}`);
    await page.setViewportSize({ width: 375, height: 900 });
    await check(page, `a11y-8-chat-${mode}`);
  });
}
