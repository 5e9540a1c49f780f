// The MCP entry as an app without either MCP SDK bundles it: a Cloudflare Agents app has only
// `@modelcontextprotocol/client` 2.x (through `agents`), a plain v2 app no `@modelcontextprotocol/sdk` at all.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertDistBuilt } from '../../scripts/package-entries.mjs';

const root = join(import.meta.dirname, '..', '..');

// Makes every `@modelcontextprotocol/*` import unresolvable, as it is where neither SDK is installed.
const noMcpSdk: Plugin = {
  name: 'no-mcp-sdk',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@modelcontextprotocol\// }, (args) => ({
      errors: [{ text: `Could not resolve "${args.path}" (no MCP SDK installed)` }],
    }));
  },
};

// An import or `import()` type of either SDK (comments may name them).
const SDK_IMPORT = /(from\s*|import\(\s*|require\(\s*)["']@modelcontextprotocol\//;

beforeAll(() => assertDistBuilt());

describe('tool-search-layer/mcp without an MCP SDK installed', () => {
  it('dist/mcp.js bundles (esbuild, as wrangler does) with no @modelcontextprotocol package resolvable', async () => {
    const result = await build({
      entryPoints: [join(root, 'dist', 'mcp.js')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      logLevel: 'silent',
      plugins: [noMcpSdk],
    });
    expect(result.errors).toEqual([]);
    const code = result.outputFiles.map((file) => file.text).join('\n');
    expect(code).toContain('createAgentMcpCatalogue');
    expect(code).not.toMatch(SDK_IMPORT);
  });

  it('its declaration files name no MCP SDK module, so its types need neither major', () => {
    const dir = join(root, 'dist', 'adapters', 'mcp');
    const files = readdirSync(dir).filter((name) => name.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(join(dir, file), 'utf8'), file).not.toMatch(SDK_IMPORT);
  });
});
