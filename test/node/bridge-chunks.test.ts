// The bridge and its validator are chunks loaded on first use: the core entry a user's bundler ships up front
// holds neither, and the bridge's bench runs end to end.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bridgeTable, measureBridge } from '../../bench/bridge.ts';
import { measureSize } from '../../bench/size.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The code of an entry with its dynamic imports bundled in (`inline`) or left out. */
async function bundled(entry: string, inline: boolean): Promise<string> {
  const result = await build({
    entryPoints: [`${root}/${entry}`],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    external: ['valibot', 'stemmer'],
    plugins: inline
      ? []
      : [
          {
            name: 'lazy-apart',
            setup(b) {
              b.onResolve({ filter: /.*/ }, (a) =>
                a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined,
              );
            },
          },
        ],
  });
  return result.outputFiles[0]?.text ?? '';
}

describe('bridge chunks', () => {
  it('keeps the validator and the bridge out of the core entry, loading them on first use', async () => {
    const eager = await bundled('dist/index.js', false);
    const whole = await bundled('dist/index.js', true);
    // A message of the validator, of its linear-time patterns (re2js), and a text of the bridge, are in the lazy
    // chunks only.
    for (const marker of [
      'Duplicate schema URI',
      'invalid or unsupported Perl syntax',
      'Tools found here are called with call_tool',
    ]) {
      expect(whole).toContain(marker);
      expect(eager).not.toContain(marker);
    }
    expect(eager).toMatch(/import\(["']\.\/chunks\/call-tool-/);
  });

  it('measures the core entry without its lazy chunks', { timeout: 120_000 }, async () => {
    const rows = await measureSize(`${root}/package.json`);
    const core = rows.find((row) => row.entry === '.');
    expect(core?.minBytes).toBeLessThan((await bundled('dist/index.js', true)).length);
  });

  it('times callTool on a catalogue', async () => {
    const tools = Array.from({ length: 40 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool number ${i} for weather and mail`,
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    }));
    const row = await measureBridge(tools, ['weather', 'mail tool'], 20);
    expect(row.accepted).toMatch(/^(\d+) \/ \1$/);
    expect(row.callP50Ms).toBeGreaterThan(0);
    expect(row.hostileMaxMs).toBeGreaterThan(0);
    expect(bridgeTable(row).rows[0]).toHaveLength(7);
  });
});
