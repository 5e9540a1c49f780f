// The playground's learning demo: every other query of the visitor's list is a session that searched and called its
// tools; the others are searched again with learning off and on.
import { expect, test } from './fixtures.ts';
import { check, PLAYGROUND, ready, shot } from './playground-helpers.ts';

test.use(PLAYGROUND);

test('learning from the visitor’s own queries lifts the held-out ones, shown as two bars', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await page.selectOption('#catalogue', 'mcp-github');
  await ready(page);
  // Words no tool holds: keywords alone find nothing for the second and fourth lines.
  await page.fill(
    '#queries',
    [
      'yeet my branch into main → merge_pull_request',
      'yeet it → merge_pull_request',
      'whoami → get_me',
      'whoami again please → get_me',
    ].join('\n'),
  );
  await page.click('#run-learning');
  await ready(page);
  await expect(page.locator('#learn-result')).toContainText('Learned from 2 sessions');
  await expect(page.locator('#learn-off .learn-value')).toHaveText('0%');
  await expect(page.locator('#learn-on .learn-value')).toHaveText('100%');
  await expect(page.locator('#learn-changes li')).toHaveCount(2);
  await shot(page, 'learning');
  await check(page, 'learning');

  await page.fill('#queries', 'only one line → get_me');
  await page.click('#run-learning');
  await ready(page);
  await expect(page.locator('#learn-result .error')).toContainText('at least two lines');
});

// The samples come in pairs (a request, then the same request in other words): fed the first of each pair, learning
// carries users' words over to the second wherever a pair shares some, and the page says so on every catalogue.
const SAMPLES_LEARNED = [
  { catalogue: 'mcp-github', sessions: 7, off: '43%', on: '86%' },
  { catalogue: 'mcp-npm-capture', sessions: 7, off: '43%', on: '57%' },
  { catalogue: 'metatool', sessions: 4, off: '0%', on: '50%' },
  { catalogue: 'bfcl', sessions: 4, off: '100%', on: '100%' },
];

test('each catalogue’s sample queries teach learning something to show', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  for (const { catalogue, sessions, off, on } of SAMPLES_LEARNED) {
    await page.selectOption('#catalogue', catalogue);
    await ready(page);
    await page.click('#run-learning');
    await ready(page);
    await expect(page.locator('#learn-result')).toContainText(`Learned from ${sessions} sessions`);
    await expect(page.locator('#learn-off .learn-value')).toHaveText(off);
    await expect(page.locator('#learn-on .learn-value')).toHaveText(on);
    if (on !== off) await expect(page.locator('#learn-changes li').first()).toBeVisible();
  }
  await page.selectOption('#catalogue', 'mcp-github');
  await ready(page);
  await page.click('#run-learning');
  await ready(page);
  await shot(page, 'learning-samples');
});
