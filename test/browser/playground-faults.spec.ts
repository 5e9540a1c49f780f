// Issue 30, item 5: what a new user tripped on in the playground. A pasted catalogue gets a real query for its
// script (an empty one printed “” and returned every tool), and a mode that costs more than sending every tool
// says so with a plus sign (the minus was hard-coded: "−-7%"). The cost advice names only modes the chosen
// provider offers (it recommended 'native' to Chat Completions, which has none).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { PLAYGROUND, ready, shot } from './playground-helpers.ts';

test.use(PLAYGROUND);

/** Six tiny tools: the layer is not bypassed, and its search tool outweighs all of them. */
const TINY = Array.from({ length: 6 }, (_, i) => ({ name: `lamp_${i}`, description: `Turn lamp ${i} on` }));

async function paste(page: Page, text: string): Promise<void> {
  if (!(await page.locator('#own').evaluate((d: HTMLDetailsElement) => d.open)))
    await page.locator('#own summary').click();
  await page.fill('#own-text', text);
  await page.click('#own-apply');
  await ready(page);
}

test('a pasted catalogue gets a query of its own for the script, not an empty one', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await paste(page, JSON.stringify(TINY));
  await expect(page.locator('#query')).toHaveValue('lamp 0');
  await expect(page.locator('#script-steps')).not.toContainText('“”');
});

test('a mode that costs more than sending every tool gets a plus sign', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await paste(page, JSON.stringify(TINY));
  await page.click('#script-step');
  await ready(page);
  const headline = page.locator('#chart-headline');
  await expect(headline).toContainText('in mode bridge (+');
  await expect(headline).not.toContainText('−-');
});

test('starts in the chosen provider adapter’s default mode, not in mode tools', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await expect(page.locator('#modes input[value=bridge]')).toBeChecked();
});

test('the cost advice recommends only a mode the chosen provider offers', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  for (let i = 0; i < 3; i++) {
    await page.click('#script-step');
    await ready(page);
  }
  const advice = page.locator('#cost-advice');
  await expect(advice).toBeVisible();
  // Chat Completions offers tools and bridge: native, cheapest under OpenAI's rules, is only Responses'.
  await expect(advice).toHaveAttribute('data-mode', /^(tools|bridge|none)$/);
  await expect(advice).toContainText(/of the modes OpenAI Chat Completions offers, '(tools|bridge)'/);
  await expect(advice).not.toContainText(/'native'[^.]* is cheapest/);
  await expect(advice).toContainText('but only with another request shape: OpenAI Responses');
  await shot(page, 'cost-advice-chat');
  // Responses offers native: there it is the recommendation, with nothing said about another shape.
  await page.selectOption('#provider', 'openai-responses');
  await ready(page);
  await expect(advice).toHaveAttribute('data-mode', 'native');
  await expect(advice).toContainText("of the modes OpenAI Responses offers, 'native'");
  await expect(advice).not.toContainText('another request shape');
});
