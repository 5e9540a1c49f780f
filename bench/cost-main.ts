// npm run bench:cost: the cost tables alone.
import { breakEvenTable, costTable } from './cost.ts';
import { measureCost } from './cost-run.ts';
import { loadSet } from './data.ts';
import { renderText } from './table.ts';
import { discoveryQueries } from './tokens.ts';

const seal = loadSet('seal-tools');
const { rows, checks, shapes } = await measureCost([
  { name: 'mcp-github', tools: loadSet('mcp-github').tools, queries: discoveryQueries['mcp-github'] ?? [] },
  { name: 'seal-tools 1,000', tools: seal.tools.slice(0, 1000), queries: seal.queries.map((q) => q.query) },
]);
console.log(renderText(costTable(rows)));
for (const c of checks)
  console.log(
    `${c.catalogue}\t${c.turns}/${c.discoveries}\t${c.provider}\t${c.mode}\t${c.adapter}\tmeasured ${Math.round(c.measured)}\testimated ${Math.round(c.estimated)}\t${c.gap.toFixed(1)}%`,
  );
const shape = shapes[0];
if (shape) console.log(renderText(breakEvenTable(shape.catalogueTokens / shape.toolCount)));
