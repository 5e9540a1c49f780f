// Issue 30 item 2: the Worker guide's install lines name every package its example's bundle resolves. The bundle of
// an `McpAgent` failed at `Could not resolve "@modelcontextprotocol/server"` because the guide did not install it,
// and `skipLibCheck` hid that from tsc. Offline: the guide's lines against what the installed `agents` imports and
// pins (the same lines were run in an empty folder and bundled with wrangler@latest on Node 22; see the guide).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const guide = readFileSync(join(root, 'docs', 'cloudflare-agents.md'), 'utf8');
// agents exports no ./package.json: its folder is found from its main entry.
const agentsEntry = createRequire(join(root, 'package.json')).resolve('agents');
const agentsDir = agentsEntry.slice(0, agentsEntry.lastIndexOf(`${sep}dist${sep}`));
const agents = JSON.parse(readFileSync(join(agentsDir, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
};

/** The packages of the Install section's `npm install` lines, with the version each pins (or undefined). */
function installed(): Map<string, string | undefined> {
  const section = guide.slice(guide.indexOf('## Install'), guide.indexOf('\n## ', guide.indexOf('## Install') + 1));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const packages = new Map<string, string | undefined>();
  for (const line of block.split('\n')) {
    const words = line.replace(/#.*/, '').trim().split(/\s+/);
    if (words[0] !== 'npm' || words[1] !== 'install') continue;
    for (const word of words.slice(2).filter((w) => !w.startsWith('-'))) {
      const at = word.lastIndexOf('@');
      packages.set(at > 0 ? word.slice(0, at) : word, at > 0 ? word.slice(at + 1) : undefined);
    }
  }
  return packages;
}

/** The bare packages a built file of `agents` imports. */
function importsOf(file: string): string[] {
  const code = readFileSync(join(agentsDir, file), 'utf8');
  const specifiers = [...code.matchAll(/from\s*"([^".][^"]*)"/g)].map((match) => match[1] as string);
  const packages = specifiers
    .filter((s) => !s.startsWith('node:') && !s.startsWith('cloudflare:'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] as string)));
  return [...new Set(packages)];
}

describe("the Worker guide's install lines", () => {
  it('install every MCP SDK that agents/mcp (McpAgent) imports, at the exact version agents pins', () => {
    const lines = installed();
    const mcp = importsOf('dist/mcp/index.js').filter((name) => name.startsWith('@modelcontextprotocol/'));
    expect(mcp).toEqual(
      expect.arrayContaining([
        '@modelcontextprotocol/server',
        '@modelcontextprotocol/sdk',
        '@modelcontextprotocol/client',
      ]),
    );
    for (const name of mcp) {
      expect(lines.has(name), `${name} is installed by the guide`).toBe(true);
      expect(lines.get(name), `${name} at agents' exact peer`).toBe(agents.peerDependencies[name]);
    }
  });

  it('install the rest of what the example imports, and wrangler@latest, which says its Node', () => {
    const lines = installed();
    for (const name of ['tool-search-layer', 'agents', 'ai', 'workers-ai-provider', 'zod']) {
      expect(lines.has(name), name).toBe(true);
    }
    expect(lines.get('wrangler')).toBe('latest');
    expect(guide).toContain('Node 22.12 or newer');
  });
});
