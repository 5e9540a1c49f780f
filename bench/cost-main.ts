// npm run bench:cost: the cost tables alone; they also go into README.md and docs/cost.md.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { breakEvenTable, costTable, headlineCostTable } from './cost.ts';
import { measureCost } from './cost-run.ts';
import { loadSet } from './data.ts';
import { updateReadme } from './readme.ts';
import { renderMarkdown, renderText } from './table.ts';
import { discoveryQueries } from './tokens.ts';

const here = dirname(fileURLToPath(import.meta.url));
const seal = loadSet('seal-tools');
const { rows, checks, shapes } = await measureCost([
  { name: 'mcp-github', tools: loadSet('mcp-github').tools, queries: discoveryQueries['mcp-github'] ?? [] },
  { name: 'seal-tools 1,000', tools: seal.tools.slice(0, 1000), queries: seal.queries.map((q) => q.query) },
]);
const shape = shapes[0];
const tables = [costTable(rows), ...(shape ? [breakEvenTable(shape.catalogueTokens / shape.toolCount)] : [])];
process.stdout.write(`${tables.map(renderText).join('\n\n')}\n`);
const misses = checks.filter((c) => Math.abs(c.gap) >= 10);
process.stdout.write(
  `\nestimate within 10% of the measured session: ${checks.length - misses.length} of ${checks.length}${misses.map((c) => `\n  off: ${c.catalogue} ${c.turns}/${c.discoveries} ${c.provider} ${c.mode} ${c.gap.toFixed(1)}%`).join('')}\n`,
);
const headline = renderMarkdown(headlineCostTable(rows, 'mcp-github', 30, 6)).replace(/^### \n+/, '');
updateReadme(join(here, '..', 'README.md'), { cost: headline });
updateReadme(join(here, '..', 'docs', 'cost.md'), {
  'cost-table': tables.map((t) => renderMarkdown(t)).join('\n\n'),
  'cost-checks': `The estimate is within 10% of the measured session in ${checks.length - misses.length} of ${checks.length} sessions.${misses.length ? ` Off by more: ${misses.map((c) => `${c.catalogue}, ${c.turns} rounds / ${c.discoveries} discoveries, ${c.provider} ${c.mode} (${c.gap > 0 ? '+' : ''}${c.gap.toFixed(1)}%)`).join('; ')}.` : ''}`,
});
