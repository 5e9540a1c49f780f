// The scripted session played to its end with the charts drawn, and the chart's numbers checked against the
// library's own: the same five rounds replayed here in Node through createToolSearch, their tools blocks counted
// with o200k. Then pausing and taking over by hand, and the exposure modes of each provider.
import { readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createMemoryStore, createToolSearch, type Message, type Tool } from '../../src/index.ts';
import { expect, test } from './fixtures.ts';
import { exposedNames, PLAYGROUND, ready, shot } from './playground-helpers.ts';

test.use(PLAYGROUND);

/** The GitHub catalogue as the page loads it: each tool's `group` as `groups`. */
function github(): Tool[] {
  const raw = JSON.parse(readFileSync('demo/catalogues/mcp-github.json', 'utf8')) as (Tool & { group?: string })[];
  return raw.map(({ group, ...tool }) => (group ? { ...tool, groups: [group] } : tool));
}

/** Tokens of a tools block as OpenAI Chat tools JSON, the page's stated measure. */
const tokens = (tools: readonly Tool[]) =>
  countTokens(
    JSON.stringify(
      tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters ?? undefined },
      })),
    ),
  );

/** The page's script, replayed with the library: ask, search, call the first found, trim, clear memory. */
async function replay(): Promise<{ none: number[]; tools: number[]; bridge: number[] }> {
  const catalogue = github();
  const layer = createToolSearch({ store: createMemoryStore(), maxDirectTools: 5, maxSearchResults: 5 });
  const session = { sessionId: 'demo', tools: catalogue };
  const counts = { none: [] as number[], tools: [] as number[], bridge: [] as number[] };
  let messages: Message[] = [];
  const round = async () => {
    const prepared = await layer.prepare({ ...session, messages });
    counts.none.push(tokens(catalogue));
    counts.tools.push(tokens(prepared.tools));
    counts.bridge.push(tokens((await layer.prepare({ ...session, messages, exposure: 'bridge' })).tools));
  };
  const pair = (id: string, name: string, args: string, result: unknown): Message[] => [
    { role: 'assistant', content: null, toolCalls: [{ id, name, arguments: args }] },
    { role: 'tool', toolCallId: id, content: JSON.stringify(result) },
  ];
  messages = [{ role: 'user', content: 'Please open a pull request for my fix branch.' }];
  await round();
  const args = JSON.stringify({ query: 'create pull request' });
  const result = await layer.search(session, args);
  const first = 'tools' in result ? (result.tools[0]?.name as string) : '';
  messages = [...messages, ...pair('call_1', 'search_tools', args, result)];
  await round();
  const example = { owner: 'example', repo: 'example', title: 'example', head: 'example', base: 'example' };
  const called = pair('call_2', first, JSON.stringify(example), {
    ok: true,
    tool: first,
    note: 'simulated by the playground',
  });
  messages = [...messages, ...called];
  await round();
  messages = [messages[0] as Message, ...called];
  await round();
  await layer.clear('demo');
  await round();
  return counts;
}

const rowValues = (page: import('@playwright/test').Page, table: string, key: string) =>
  page
    .locator(`#${table} td[data-key=${key}]`)
    .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value'))));

test('the scripted session to its end, with the charts drawn from the library’s own counts', async ({ page }) => {
  await page.goto('/?delay=50');
  await ready(page);
  await expect(page.locator('#script-steps li')).toHaveCount(5);
  await page.click('#script-play');
  await expect(page.locator('#script-steps li.done')).toHaveCount(5);
  await ready(page);
  await expect(page.locator('#round-title')).toHaveText('Round 5');
  await expect(page.locator('#round-step')).toHaveText('after: memory is cleared');
  await expect(page.locator('#script-play')).toBeDisabled();
  // Memory cleared after the trim: only the call left in the history brings its tool back.
  const names = await exposedNames(page);
  expect(names).toHaveLength(2);
  await expect(page.locator('#tokens-chart canvas')).toHaveCount(1);
  await expect(page.locator('#cost-chart canvas')).toHaveCount(1);

  const expected = await replay();
  await expect(page.locator('#tokens-table td[data-key=tools]')).toHaveCount(5);
  await expect.poll(() => rowValues(page, 'tokens-table', 'none')).toEqual(expected.none);
  expect(await rowValues(page, 'tokens-table', 'tools')).toEqual(expected.tools);
  expect(await rowValues(page, 'tokens-table', 'bridge')).toEqual(expected.bridge);
  // Cost per mode under Anthropic's cache rules: one value per round and mode the adapter offers.
  await page.selectOption('#provider', 'anthropic');
  await ready(page);
  for (const mode of ['none', 'tools', 'bridge', 'native']) {
    const costs = await rowValues(page, 'cost-table', mode);
    expect(costs).toHaveLength(5);
    for (const cost of costs) expect(cost).toBeGreaterThan(0);
  }
  await expect(page.locator('#chart-headline')).toContainText('Round 5');
  await shot(page, 'script-done');
});

test('pause the script and take over by hand, then resume', async ({ page }) => {
  await page.goto('/?delay=400');
  await ready(page);
  await page.click('#script-step');
  await ready(page);
  await expect(page.locator('#round-title')).toHaveText('Round 1');
  await page.click('#script-play');
  await expect(page.locator('#round-title')).toHaveText('Round 2');
  await page.click('#script-pause');
  await ready(page);
  await expect(page.locator('#script-play')).toHaveText('Resume');
  const next = await page.locator('#script-steps li.next').textContent();
  // By hand: another search, whose tools join the discovered set.
  await page.fill('#query', 'list branches');
  await page.click('#search button[type=submit]');
  await ready(page);
  await expect(page.locator('#usable li[data-name=list_branches]')).toHaveCount(1);
  await expect(page.locator('#script-steps li.next')).toHaveText(next ?? '');
  await page.click('#script-play');
  await expect(page.locator('#script-steps li.done')).toHaveCount(5);
  await ready(page);
});

test('the provider and mode switch: each round as the provider’s own body, changes marked', async ({ page }) => {
  // These steps show mode tools; the page starts in the adapter's default (bridge).
  await page.check('#modes input[value=tools]');
  await ready(page);
  await page.click('#script-step');
  await ready(page);
  await page.click('#script-step');
  await ready(page);
  // Chat Completions, mode tools: the found tools are appended to the tools array, which breaks the prefix.
  await expect(page.locator('#body-title')).toHaveText('OpenAI Chat Completions, mode tools');
  await expect(page.locator('#body-prefix')).toHaveClass(/broken/);
  await expect(page.locator('#body-parts .part.new[data-path="tools[1]"]')).toHaveCount(1);

  await page.selectOption('#provider', 'anthropic');
  await ready(page);
  await expect(page.locator('#modes input')).toHaveCount(4);
  await page.check('#modes input[value=native]');
  await ready(page);
  await expect(page.locator('#body-title')).toHaveText('Anthropic Messages, mode native');
  await page.click('#script-step');
  await ready(page);
  // Native: the deferred catalogue is the same every round, so the last request is a prefix of this one.
  await expect(page.locator('#body-prefix')).toHaveClass(/held/);
  await expect(page.locator('#body-parts .part.changed')).toHaveCount(0);
  await shot(page, 'anthropic-native');
});

test('mode bridge: the same tools every round, the found tool called through call_tool, the prefix held', async ({
  page,
}) => {
  await page.selectOption('#provider', 'anthropic');
  await ready(page);
  await page.check('#modes input[value=bridge]');
  await ready(page);
  for (let i = 0; i < 3; i++) {
    await page.click('#script-step');
    await ready(page);
  }
  expect(await exposedNames(page)).toEqual(['search_tools', 'call_tool']);
  // "create pull request" names create_pull_request: the search returns it alone.
  await expect(page.locator('#usable li[data-via=call]')).toHaveCount(1);
  // The history labels the bridged call with the tool it names (displayToolCall), not with call_tool.
  const lastCall = page.locator('#history .call').last();
  await expect(lastCall.locator('.call-via')).toHaveText('via call_tool');
  const called = await lastCall.locator('.call-name').textContent();
  expect(
    await page.locator('#usable li[data-via=call]').evaluateAll((rows) => rows.map((r) => r.dataset.name)),
  ).toContain(called);
  await expect(page.locator('#history li.tool').last()).toContainText('simulated by the playground');
  await expect(page.locator('#body-title')).toHaveText('Anthropic Messages, mode bridge');
  await expect(page.locator('#body-prefix')).toHaveClass(/held/);
  await expect(page.locator('#body-parts .part.changed')).toHaveCount(0);
  await expect(page.locator('#body-parts .part[data-path="tools[2]"]')).toHaveCount(0);
  await shot(page, 'bridge');
  // The same round in mode tools: the found tools sit in the tools block instead.
  await page.check('#modes input[value=tools]');
  await ready(page);
  await expect(page.locator('#usable li[data-via=call]')).toHaveCount(0);
  expect(await exposedNames(page)).toEqual(['search_tools', 'create_pull_request']);
});

test('a provider switch selects that adapter’s default mode and says so', async ({ page }) => {
  await ready(page);
  await page.click('#script-step');
  await ready(page);
  await expect(page.locator('#modes input:checked')).toHaveValue('bridge');
  await expect(page.locator('#mode-note')).toContainText('bridge is the default of OpenAI Chat Completions');
  // Anthropic's adapter defaults to native (prepareAnthropicMessages with no exposure): bridge does not carry over.
  await page.selectOption('#provider', 'anthropic');
  await ready(page);
  await expect(page.locator('#modes input:checked')).toHaveValue('native');
  await expect(page.locator('#body-title')).toHaveText('Anthropic Messages, mode native');
  await expect(page.locator('#mode-note')).toContainText(
    'Switched from bridge to native, the default of Anthropic Messages (what prepareAnthropicMessages does when no exposure is passed)',
  );
  await shot(page, 'provider-default-mode');
  // A mode chosen by hand is named as not the default, and a switch back lands on the next adapter's default.
  await page.check('#modes input[value=tools]');
  await ready(page);
  await expect(page.locator('#mode-note')).toContainText('Not the default of Anthropic Messages, which is native.');
  await page.selectOption('#provider', 'gemini');
  await ready(page);
  await expect(page.locator('#modes input:checked')).toHaveValue('bridge');
  await expect(page.locator('#mode-note')).toContainText('Switched from tools to bridge, the default of Gemini');
  // The choice is saved with the provider: a reload keeps it.
  await page.reload();
  await ready(page);
  await expect(page.locator('#provider')).toHaveValue('gemini');
  await expect(page.locator('#modes input:checked')).toHaveValue('bridge');
});
