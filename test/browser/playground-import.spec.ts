// The visitor's own catalogue and queries: a paste in each of the five shapes (converted by the adapters), invalid
// JSON, an invalid and a repeated tool (each named by position, the page otherwise untouched), an upload, the
// catalogue surviving a reload, and their own queries scored with recall@5 and MRR against the keyword baseline.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { PLAYGROUND, ready, shot } from './playground-helpers.ts';

test.use(PLAYGROUND);

interface RawTool {
  name: string;
  description: string;
  parameters: Record<string, unknown> | null;
  group?: string;
}

/** Eight real tools of the npm capture: a browser, a file system and a memory server's. */
const TOOLS: RawTool[] = (JSON.parse(readFileSync('demo/catalogues/mcp-npm-capture.json', 'utf8')) as RawTool[]).filter(
  (t) =>
    [
      'browser_take_screenshot',
      'browser_navigate',
      'browser_click',
      'browser_fill_form',
      'read_text_file',
      'write_file',
      'create_entities',
      'search_nodes',
    ].includes(t.name),
);
const schema = (t: RawTool) => t.parameters ?? { type: 'object', properties: {} };

/** The same eight tools in each shape the page reads, with the label it reports. */
const SHAPES: { label: string; json: unknown }[] = [
  {
    label: 'OpenAI Chat Completions function tools',
    json: TOOLS.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: schema(t) },
    })),
  },
  {
    label: 'OpenAI Responses function tools',
    json: {
      tools: TOOLS.map((t) => ({
        type: 'function',
        name: t.name,
        description: t.description,
        parameters: schema(t),
        strict: false,
      })),
    },
  },
  {
    label: 'MCP tools/list result',
    json: {
      jsonrpc: '2.0',
      id: 2,
      result: { tools: TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: schema(t) })) },
    },
  },
  {
    label: 'Anthropic tools',
    json: TOOLS.map((t) => ({ name: t.name, description: t.description, input_schema: schema(t) })),
  },
  {
    label: "the layer's own Tool[]",
    json: TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, groups: [t.group] })),
  },
];

async function paste(page: Page, text: string): Promise<void> {
  if (!(await page.locator('#own').evaluate((d: HTMLDetailsElement) => d.open)))
    await page.locator('#own summary').click();
  await page.fill('#own-text', text);
  await page.click('#own-apply');
  await ready(page);
}

test('invalid JSON, an invalid tool and a repeated tool are named by position; the page carries on', async ({
  page,
}) => {
  await expect(page.locator('#catalogue-stats')).toContainText('tokens');
  const stats = await page.locator('#catalogue-stats').textContent();
  await paste(page, '[\n  {"name": "a", "description": "x",}\n]');
  await expect(page.locator('#own-result .problems')).toContainText('Not valid JSON at line 2, column');
  await expect(page.locator('#own-text')).toHaveAttribute('aria-invalid', 'true');

  const chat = SHAPES[0]?.json as unknown[];
  await paste(page, JSON.stringify([chat[0], { type: 'function', function: { description: 'no name' } }]));
  await expect(page.locator('#own-result .problems')).toContainText(
    'Tool 2 (tools[1]) is not OpenAI Chat Completions function tools like tool 1',
  );

  await paste(page, JSON.stringify([chat[0], chat[1], chat[0]]));
  await expect(page.locator('#own-result .problems')).toContainText(
    'Tool 3 (tools[2]) repeats the name "browser_fill_form" of tool 1 (tools[0])',
  );

  await paste(page, JSON.stringify([{ name: 'ok_tool' }, { name: 'bad_groups', groups: 'x' }]));
  await expect(page.locator('#own-result .problems')).toContainText('Tool 2 (tools[1]) ("bad_groups") is skipped');
  await shot(page, 'import-errors');

  // Nothing else changed: the catalogue, and the page still searches.
  await expect(page.locator('#catalogue-stats')).toHaveText(stats ?? '');
  await page.click('#search button[type=submit]');
  await ready(page);
  await expect(page.locator('#round-title')).toHaveText('Round 1');
});

for (const shape of SHAPES) {
  test(`a paste of ${shape.label} is converted and searched`, async ({ page }) => {
    await paste(page, JSON.stringify(shape.json, null, 2));
    await expect(page.locator('#own-result')).toContainText(`Read 8 tools as ${shape.label}`);
    await expect(page.locator('#own-text')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#catalogue')).toHaveValue('own');
    await expect(page.locator('#catalogue-stats')).toContainText('8 tools');
    await page.fill('#query', 'take a screenshot');
    await page.click('#search button[type=submit]');
    await ready(page);
    await expect(page.locator('#usable li[data-name=browser_take_screenshot]')).toHaveCount(1);
  });
}

test('an uploaded catalogue survives a reload; own queries get recall@5 and MRR against the keyword baseline', async ({
  page,
}) => {
  await page.locator('#own summary').click();
  await page.setInputFiles('#own-file', {
    name: 'tools.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(SHAPES[3]?.json)),
  });
  await ready(page);
  await expect(page.locator('#own-result')).toContainText('Read 8 tools as Anthropic tools');
  await page.fill(
    '#queries',
    [
      'take a screenshot of the page → browser_take_screenshot',
      'open the url example.com -> browser_navigate',
      'remember that Alice works at Acme => create_entities',
      'not a query line',
      'zzz qqq → write_file',
    ].join('\n'),
  );
  await page.click('#run-queries');
  await ready(page);
  await expect(page.locator('#golden-result .error')).toContainText('Line 4');
  await expect(page.locator('.scores caption')).toHaveText('4 queries');
  await expect(page.locator('#score-layer td').first()).toHaveText(/^\d+%$/);
  await expect(page.locator('#score-keyword td').first()).toHaveText(/^\d+%$/);
  await expect(page.locator('#misses li')).toContainText(['zzz qqq']);
  await shot(page, 'own-queries');

  await page.reload();
  await ready(page);
  await expect(page.locator('#catalogue')).toHaveValue('own');
  await expect(page.locator('#catalogue-stats')).toContainText('8 tools');
  await expect(page.locator('#queries')).toHaveValue(/zzz qqq → write_file/);
  await page.selectOption('#catalogue', 'mcp-github');
  await ready(page);
  await page.click('#run-queries');
  await ready(page);
  await expect(page.locator('.scores caption')).toHaveText('14 queries');
});

test('counts of one read in the singular: one tool in one group, one query', async ({ page }) => {
  const one = TOOLS.slice(0, 1).map((t) => ({ name: t.name, description: t.description, groups: ['only'] }));
  await paste(page, JSON.stringify(one));
  await expect(page.locator('#own-result')).toContainText('Read 1 tool as');
  await expect(page.locator('#catalogue-stats')).toContainText(/^1 tool · 1 group · [\d,]+ tokens/);
  await paste(page, JSON.stringify([...one, { name: 'second_tool', description: 'another', groups: ['only'] }]));
  await expect(page.locator('#catalogue-stats')).toContainText(/^2 tools · 1 group · /);
  await page.fill('#queries', `take a screenshot → ${one[0]?.name}`);
  await page.click('#run-queries');
  await ready(page);
  await expect(page.locator('.scores caption')).toHaveText('1 query');
  await shot(page, 'import-singular');
});
