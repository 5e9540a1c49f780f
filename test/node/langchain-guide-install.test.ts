// Issue 42 item 2: the LangChain guide's install line names every package its examples import. It named
// `langchain @langchain/core` while the example imported `@langchain/langgraph` and `zod` too, which resolved only
// because `langchain` depends on them (a strict package manager, or a later langchain, would not find them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The packages named by a guide's `npm install` lines (versions cut off). */
function installed(guide: string): Set<string> {
  const blocks = [...guide.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
  const names = new Set<string>();
  for (const line of blocks.join('\n').split('\n')) {
    const words = line.replace(/#.*/, '').trim().split(/\s+/);
    if (words[0] !== 'npm' || words[1] !== 'install') continue;
    for (const word of words.slice(2).filter((w) => !w.startsWith('-'))) {
      const at = word.lastIndexOf('@');
      names.add(at > 0 ? word.slice(0, at) : word);
    }
  }
  return names;
}

/** The packages the guide's checked examples (```ts run and ```ts check blocks) import, `node:` built-ins aside. */
function imported(guide: string): Set<string> {
  const code = [...guide.matchAll(/^```ts (?:run|check)\n([\s\S]*?)^```$/gm)].map((match) => match[1]).join('\n');
  const specifiers = [...code.matchAll(/^import [^;]*?from '([^'.][^']*)';$/gm)].map((match) => match[1] as string);
  return new Set(
    specifiers
      .filter((s) => !s.startsWith('node:'))
      .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] as string))),
  );
}

const missing = (guide: string) => [...imported(guide)].filter((name) => !installed(guide).has(name));

describe("the LangChain guide's install line", () => {
  it('finds a package an example imports and the line does not install', () => {
    const guide = [
      '```sh\nnpm install tool-search-layer langchain@1 # the agent\n```',
      "```ts run\nimport { MemorySaver } from '@langchain/langgraph';\nimport { tool } from 'langchain';\n```",
      "```ts run\nimport * as z from 'zod';\nimport { x } from 'tool-search-layer/langchain';\n```",
    ].join('\n');
    expect([...imported(guide)]).toEqual(['@langchain/langgraph', 'langchain', 'zod', 'tool-search-layer']);
    expect(missing(guide)).toEqual(['@langchain/langgraph', 'zod']);
  });

  it('installs every package the examples import', () => {
    const guide = readFileSync(join(root, 'docs', 'langchain.md'), 'utf8');
    expect([...imported(guide)]).toEqual(expect.arrayContaining(['@langchain/langgraph', 'zod', 'langchain']));
    expect(missing(guide)).toEqual([]);
  });
});
