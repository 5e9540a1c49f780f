// The README and the guides take their figures from the bench through marked blocks (`<!-- name:start -->` …
// `<!-- name:end -->`, filled by bench/readme.ts). A block left empty, an end without a start, or a placeholder
// word in the prose (RANKING_SUMMARY was one, printed on the front page) fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicCostLine, rankingSummary } from '../../bench/readme.ts';

const root = join(import.meta.dirname, '..', '..');
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const read = (doc: string) => readFileSync(join(root, doc), 'utf8');

/** The prose of a Markdown text: fenced blocks, inline code, comments and link targets taken out. */
const proseOf = (text: string): string =>
  text
    .replace(/^```[\s\S]*?^```$/gm, '')
    .replace(/`[^`\n]*`/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\]\([^)]*\)/g, ']');

/** Words that stand for a figure still to be filled in: SCREAMING_SNAKE_CASE outside code. */
const placeholders = (text: string): string[] =>
  [...proseOf(text).matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)].map((m) => m[0]);

/** Marked blocks that are not whole: `name: reason` for each. */
function unfilledBlocks(text: string): string[] {
  const problems: string[] = [];
  const names = new Set([...text.matchAll(/<!-- ([\w-]+):(?:start|end) -->/g)].map((m) => m[1] as string));
  for (const name of names) {
    const from = text.indexOf(`<!-- ${name}:start -->`);
    const to = text.indexOf(`<!-- ${name}:end -->`);
    if (from < 0 || to < from) problems.push(`${name}: a start and then an end are needed`);
    else if (text.slice(from + `<!-- ${name}:start -->`.length, to).trim() === '') problems.push(`${name}: empty`);
  }
  return problems;
}

describe('figures in the README and the docs', () => {
  it('finds the faults it looks for', () => {
    expect(placeholders('**Finding the right tool.** RANKING_SUMMARY\n')).toEqual(['RANKING_SUMMARY']);
    expect(placeholders('Set `CHROMIUM_PATH`.\n```sh\nFOO_BAR=1\n```\n')).toEqual([]);
    expect(unfilledBlocks('<!-- a:start -->\n\n<!-- a:end -->\n<!-- b:end -->')).toEqual([
      'a: empty',
      'b: a start and then an end are needed',
    ]);
  });

  for (const doc of docs) {
    it(`${doc}: every marked block is filled, and no placeholder is left in the prose`, () => {
      const text = read(doc);
      expect(unfilledBlocks(text)).toEqual([]);
      expect(placeholders(text)).toEqual([]);
    });
  }

  it('README.md: the ranking sentence is the one the last full bench run gives', () => {
    const latest = JSON.parse(read('bench/results/latest.json')) as { quality: Parameters<typeof rankingSummary>[0] };
    const block = /<!-- ranking:start -->\n([\s\S]*?)\n<!-- ranking:end -->/.exec(read('README.md'))?.[1];
    expect(block).toBe(rankingSummary(latest.quality));
  });

  it('docs/anthropic.md gives the cost the README measured (one answer per question)', () => {
    const row = read('README.md')
      .split('\n')
      .find((line) => line.startsWith('| anthropic |'));
    const cells = (row ?? '')
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const block = /<!-- anthropic-cost:start -->\n([\s\S]*?)\n<!-- anthropic-cost:end -->/.exec(
      read('docs/anthropic.md'),
    )?.[1];
    expect(cells).toHaveLength(7);
    expect(block).toBe(anthropicCostLine(cells));
  });
});
