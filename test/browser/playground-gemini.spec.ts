// Issue 42 item 6: the playground's provider request view offers Gemini, through `tool-search-layer/gemini`. The
// body is `prepareGeminiRequest`'s generateContent parameters, split in Gemini's cache order (config.tools, then
// config.systemInstruction, then contents); the history goes in as Gemini contents, calls and responses paired by
// id. Bridge holds the prefix round after round, tools breaks it at a discovery, and the cost chart uses Gemini's
// cache rules. Also the maxDiscoveredKeep help, which said "0: up to 1,000" after 0 came to mean no limit.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { check, PLAYGROUND, ready, shot, WIDTHS } from './playground-helpers.ts';

test.use(PLAYGROUND);

/** The JSON of a listed body part, parsed. */
async function partJson(page: Page, path: string): Promise<unknown> {
  return JSON.parse((await page.locator(`#body-parts .part[data-path="${path}"] pre`).textContent()) ?? 'null');
}

/** The numbers of one row of a chart's table. */
const rowValues = (page: Page, table: string, key: string) =>
  page
    .locator(`#${table} td[data-key=${key}]`)
    .evaluateAll((cells) => cells.map((c) => Number((c.textContent ?? '').replace(/[^\d]/g, ''))));

test('Gemini in bridge mode: two declarations every round, the history as contents, the prefix held', async ({
  page,
}) => {
  await page.goto('/');
  await ready(page);
  await expect(page.locator('#o-keep')).toContainText('0: no limit');
  await expect(page.locator('#o-keep')).not.toContainText('1,000');
  await expect(page.locator('#provider option[value=gemini]')).toHaveText('Gemini generateContent');
  await page.selectOption('#provider', 'gemini');
  await ready(page);
  // The adapter offers the two core modes (Gemini has no deferred loading), and starts in its default, bridge.
  expect(
    await page.locator('#modes input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
  ).toEqual(['tools', 'bridge']);
  await expect(page.locator('#modes input[value=bridge]')).toBeChecked();

  await page.click('#script-step');
  await ready(page);
  await expect(page.locator('#body-title')).toHaveText('Gemini generateContent, mode bridge');
  const tools = (await partJson(page, 'config.tools[0]')) as { functionDeclarations: { name: string }[] };
  expect(tools.functionDeclarations.map((d) => d.name)).toEqual(['search_tools', 'call_tool']);
  expect(await partJson(page, 'config.systemInstruction')).toEqual(expect.any(String));
  expect(await partJson(page, 'model')).toBe('gemini-3-flash');
  // Cache order: the tools, the system instruction, then the contents.
  const paths = await page.locator('#body-parts .part').evaluateAll((items) => items.map((i) => i.dataset.path));
  expect(paths.slice(0, 3)).toEqual(['config.tools[0]', 'config.systemInstruction', 'contents[0]']);

  // The search and the call of what it found, through call_tool: contents gain a model turn with the functionCall
  // and a user turn with its functionResponse (same id and name), and nothing before them changes.
  for (let i = 0; i < 2; i++) {
    await page.click('#script-step');
    await ready(page);
    await expect(page.locator('#body-prefix')).toHaveClass(/held/);
    await expect(page.locator('#body-parts .part.changed')).toHaveCount(0);
  }
  await expect(page.locator('#body-parts .part[data-path="config.tools[1]"]')).toHaveCount(0);
  const newParts = await page.locator('#body-parts .part.new').evaluateAll((items) => items.map((i) => i.dataset.path));
  expect(newParts).toEqual(['contents[3]', 'contents[4]']);
  const call = (await partJson(page, 'contents[3]')) as {
    role: string;
    parts: { functionCall: Record<string, unknown> }[];
  };
  const answer = (await partJson(page, 'contents[4]')) as {
    role: string;
    parts: { functionResponse: Record<string, unknown> }[];
  };
  expect(call.role).toBe('model');
  expect(call.parts[0]?.functionCall).toMatchObject({ name: 'call_tool', args: { name: expect.any(String) } });
  expect(answer.role).toBe('user');
  expect(answer.parts[0]?.functionResponse).toMatchObject({ id: call.parts[0]?.functionCall.id, name: 'call_tool' });
  expect(answer.parts[0]?.functionResponse.response).toEqual(expect.any(Object));

  // The cost chart under Gemini's rules, in the modes its adapter offers: no native line.
  await expect(page.locator('#cost-caption')).toContainText("under Gemini's cache rules");
  for (const mode of ['none', 'tools', 'bridge']) {
    const costs = await rowValues(page, 'cost-table', mode);
    expect(costs, mode).toHaveLength(3);
    for (const cost of costs) expect(cost).toBeGreaterThan(0);
  }
  await expect(page.locator('#cost-table td[data-key=native]')).toHaveCount(0);
  await page.locator('#body-parts .part[data-path="contents[3]"] summary').click();
  await page.locator('#body-parts .part[data-path="contents[4]"] summary').click();
  // axe and no sideways scroll at both widths, with the Gemini body open; the screenshots are for a person.
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await check(page, 'gemini-bridge');
  }
});

test('Gemini in tools mode: a discovery adds declarations and breaks the prefix', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await page.selectOption('#provider', 'gemini');
  await ready(page);
  await page.check('#modes input[value=tools]');
  await ready(page);
  await page.click('#script-step');
  await ready(page);
  await page.click('#script-step');
  await ready(page);
  await expect(page.locator('#body-title')).toHaveText('Gemini generateContent, mode tools');
  await expect(page.locator('#body-prefix')).toHaveClass(/broken/);
  const tools = (await partJson(page, 'config.tools[0]')) as { functionDeclarations: { name: string }[] };
  expect(tools.functionDeclarations[0]?.name).toBe('search_tools');
  expect(tools.functionDeclarations.length).toBeGreaterThan(1);
  await expect(page.locator('#body-parts .part.changed[data-path="config.tools[0]"]')).toHaveCount(1);
  await shot(page, 'gemini-tools');
});
