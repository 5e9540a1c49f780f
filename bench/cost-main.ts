// npm run bench:cost: the cost tables alone (npm run bench runs them too); rewrites README.md's and docs/cost.md's.
import { costSection } from './cost-run.ts';
import { renderText } from './table.ts';

const { tables, summary } = await costSection(true);
process.stdout.write(`${tables.map(renderText).join('\n\n')}\n\n${summary}\n`);
