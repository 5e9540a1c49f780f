// Issue 42 item 3: a TypeScript user of the Cloudflare stores needs `@cloudflare/workers-types`, which their
// declarations import for Cloudflare's own `KVNamespace` and `DurableObjectStorage` (docs/stores.md says so). A
// project holding the built package and no workers-types fails tsc; with it, the stores type-check and a wrong
// binding is caught; with skipLibCheck the import goes unreported and the binding is not checked at all.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDistBuilt } from '../../scripts/package-entries.mjs';

const root = join(import.meta.dirname, '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const project = mkdtempSync(join(tmpdir(), 'tsl-cf-types-'));

const user = `import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { createDurableObjectStore } from 'tool-search-layer/durable-object';
type Storage = Parameters<typeof createDurableObjectStore>[0]['storage'];
type Namespace = Parameters<typeof createKvStore>[0]['namespace'];
export const make = (storage: Storage, namespace: Namespace) => [createDurableObjectStore({ storage }), createKvStore({ namespace })];
// @ts-expect-error a number is no storage
createDurableObjectStore({ storage: 1 });
`;

/** tsc's output over the user's file, with or without skipLibCheck ('' when it passes). */
function check(skipLibCheck: boolean): string {
  const compilerOptions = {
    strict: true,
    module: 'ESNext',
    moduleResolution: 'Bundler',
    target: 'ES2022',
    noEmit: true,
    types: [],
    skipLibCheck,
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['user.ts'] }));
  const run = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
    cwd: project,
    encoding: 'utf8',
  });
  return `${run.stdout}${run.stderr}`.trim();
}

beforeAll(() => {
  assertDistBuilt();
  const own = join(project, 'node_modules', 'tool-search-layer');
  mkdirSync(own, { recursive: true });
  cpSync(join(root, 'dist'), join(own, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(own, 'package.json'));
  writeFileSync(join(project, 'user.ts'), user);
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the Cloudflare stores in a TypeScript project', () => {
  it('fails tsc without @cloudflare/workers-types, as docs/stores.md warns', () => {
    expect(check(false)).toMatch(
      /dist\/stores\/(durable-object|cloudflare-kv)\.d\.ts\(\d+,\d+\): error TS2307: Cannot find module '@cloudflare\/workers-types'/,
    );
    // skipLibCheck hides it, and then the binding is not checked: the @ts-expect-error line is unused.
    expect(check(true)).toMatch(/user\.ts\(6,1\): error TS2578: Unused '@ts-expect-error' directive/);
    expect(readFileSync(join(root, 'docs', 'stores.md'), 'utf8')).toContain('npm install -D @cloudflare/workers-types');
  });

  it('type-checks with it installed, and catches a wrong binding', () => {
    mkdirSync(join(project, 'node_modules', '@cloudflare'), { recursive: true });
    symlinkSync(
      join(root, 'node_modules', '@cloudflare', 'workers-types'),
      join(project, 'node_modules', '@cloudflare', 'workers-types'),
    );
    expect(check(false)).toBe('');
    expect(check(true)).toBe('');
  });
});
