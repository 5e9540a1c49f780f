// What most layers never use is not in the core entry's eager code: the semantic ranker, the Chinese texts and
// the answers to refused calls load as chunks of their own, when an option or a refusal first needs them.
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

const leaveDynamicImports: Plugin = {
  name: 'leave-dynamic-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined));
  },
};

/** The built core entry bundled, with its dynamic imports inlined (`whole`) or left out (`eager`). */
async function bundled(eager: boolean): Promise<string> {
  const result = await build({
    entryPoints: [`${root}/dist/index.js`],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
    external: ['valibot', 'stemmer', '@cfworker/json-schema'],
    plugins: eager ? [leaveDynamicImports] : [],
  });
  return result.outputFiles[0]?.text ?? '';
}

describe('the core entry', () => {
  it('loads the semantic ranker, the zh texts and the refusal answers only on first use', async () => {
    const eager = await bundled(true);
    const whole = await bundled(false);
    const markers = {
      semantic: 'embed did not answer within',
      zh: '最接近的名称',
      refusals: 'function closestNames',
    };
    for (const marker of Object.values(markers)) {
      expect(whole).toContain(marker);
      expect(eager).not.toContain(marker);
    }
  });
});
