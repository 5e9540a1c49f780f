// Keeps the figures of the README and docs/benchmark.md the ones the last full run measured: each marked block is
// replaced whole.
import { readFileSync, writeFileSync } from 'node:fs';

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` for each block; unknown markers are left alone. */
export function updateReadme(path: string, blocks: Readonly<Record<string, string>>): void {
  let text = readFileSync(path, 'utf8');
  for (const [name, body] of Object.entries(blocks)) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) continue;
    text = `${text.slice(0, from + start.length)}\n${body.trim()}\n${text.slice(to)}`;
  }
  writeFileSync(path, text);
}

/** One row of the retrieval-quality section (bench/quality.ts), as far as the summary reads it. */
interface QualityScore {
  readonly set: string;
  readonly peer: string;
  readonly recall5: number;
  readonly queries: number;
}

const percent = (x: number) => `${(x * 100).toFixed(0)}%`;

/** The README's ranking sentence: this library's mean recall@5 over the labelled sets, beside the peers'. */
export function rankingSummary(rows: readonly QualityScore[], self = 'tool-search-layer'): string {
  const bySet = new Map<string, number>();
  const byPeer = new Map<string, number[]>();
  for (const row of rows) {
    byPeer.set(row.peer, [...(byPeer.get(row.peer) ?? []), row.recall5]);
    if (row.peer === self) bySet.set(row.set, row.queries);
  }
  const mean = (peer: string) => {
    const scores = byPeer.get(peer) ?? [];
    return scores.reduce((sum, x) => sum + x, 0) / scores.length;
  };
  const peers = [...byPeer.keys()].filter((peer) => peer !== self).sort((a, b) => mean(b) - mean(a));
  const queries = [...bySet.values()].reduce((sum, n) => sum + n, 0);
  const [best, ...rest] = peers;
  const others = rest.map((peer) => `${peer} ${percent(mean(peer))}`).join(', ');
  return (
    `Over ${bySet.size} public labelled tool sets (${queries.toLocaleString('en-US')} users' requests, asked as ` +
    `written), the right tool is in the first five results ${percent(mean(self))} of the time (recall@5, the mean ` +
    `of the sets), against ${percent(mean(best as string))} for the best other library measured (${best}) and ` +
    `${others}; each set, with nDCG and MRR, is in [docs/benchmark.md](docs/benchmark.md).`
  );
}

/**
 * docs/anthropic.md's cost line, from the README's measured headline table (its `anthropic` row: every tool, 'tools',
 * 'bridge', 'native'), so the guide and the front page give one answer.
 */
export function anthropicCostLine(row: readonly string[]): string {
  const [, none, tools, bridge, native, floor, ratio] = row;
  const amount = (cell: string | undefined) => Number((cell ?? '').replace(/\s.*$/, '').replaceAll(',', ''));
  const toolsVersusNone =
    amount(tools) > amount(none)
      ? 'more than no layer at all'
      : `${(amount(tools) / amount(bridge)).toFixed(1)}x the bridge: each discovery rewrites the tools block, and the cached prefix with it`;
  return (
    `Measured through this adapter (\`npm run bench:cost\`: the GitHub MCP catalogue, 30 rounds, 6 discoveries, ` +
    `token-equivalents at the base input price under Anthropic's cache rules): native ${native}, bridge ${bridge} ` +
    `(percentages of sending every tool, ${none}); \`'tools'\` costs ${tools}, ${toolsVersusNone}.` +
    (floor && ratio && floor !== '–'
      ? ` The floor, the same session with only the tools it calls sent inline, costs ${floor}: native is ${ratio.replace(/\s.*$/, '')} of it.`
      : '')
  );
}
