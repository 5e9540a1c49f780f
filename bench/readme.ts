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
