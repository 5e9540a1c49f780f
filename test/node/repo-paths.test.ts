// Nothing in the repository reads outside it: a user's clone has nothing beside it. Every relative path written in
// src/, test/, bench/, scripts/, demo/ or docs/ must stay inside the repository, and no file names the folder the
// repository sits in.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const folders = ['src', 'test', 'bench', 'scripts', 'demo', 'docs'];
const skipped = new Set(['node_modules', 'dist', 'dist-demo', 'results', 'data', '.readme-examples', '.docs']);
const texts = new Set(['.ts', '.mts', '.mjs', '.js', '.json', '.jsonc', '.md', '.html', '.css', '.toml', '.txt']);

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (skipped.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (texts.has(extname(entry))) yield path;
  }
}

// Session ids the store docs quote as hostile input, not paths.
const hostileIds = new Set(['../x']);

const outside = (path: string) => {
  const rel = relative(root, path);
  return rel === '..' || rel.startsWith(`..${sep}`);
};

/** The places in one file's text that point outside the repository, with the reason. */
function escapes(file: string, text: string, parent = dirname(root)): string[] {
  const found: string[] = [];
  const here = dirname(file);
  // '../x'-style paths, from the file's folder (imports, reads, links); in Markdown a path that is no link from the
  // file's folder is prose, read from the root.
  for (const match of text.matchAll(/(?<![\w./-])((?:\.\.\/)+)([\w@.+-][\w@.+/-]*)?/g)) {
    const path = match[0];
    if (hostileIds.has(path)) continue;
    const fromFile = resolve(here, path);
    const fromRoot = resolve(root, path);
    const prose = extname(file) === '.md' && !existsSync(fromFile);
    if (outside(fromFile) || (prose && outside(fromRoot))) found.push(path);
  }
  // join(dirname, '..', '..', 'x')-style paths: as many '..' steps as the file is deep leave the repository.
  const depth = relative(root, here).split(sep).filter(Boolean).length;
  for (const match of text.matchAll(/(?:(['"])\.\.\1\s*,\s*)+/g)) {
    const steps = match[0].split(',').filter((part) => part.trim()).length;
    if (steps > depth) found.push(match[0].trim());
  }
  // The workspace's folders beside the checkout, by absolute path; the parent alone may be /tmp, which tests name.
  for (const beside of ['shared', '.library'].map((name) => join(parent, name))) {
    if (text.includes(beside)) found.push(beside);
  }
  return found;
}

describe('paths in the repository', () => {
  it('never reach outside it', () => {
    const bad: string[] = [];
    for (const folder of folders) {
      for (const file of files(join(root, folder))) {
        for (const path of escapes(file, readFileSync(file, 'utf8'))) bad.push(`${relative(root, file)}: ${path}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('catches the three ways a path leaves (the check can fail)', () => {
    const file = join(root, 'bench', 'x.ts');
    expect(escapes(file, "readFileSync('../../elsewhere/bench/tools.json')")).toHaveLength(1);
    expect(escapes(file, "join(dirname(here), '..', '..', 'elsewhere')")).toHaveLength(1);
    expect(escapes(file, `const dir = '${dirname(root)}${sep}shared${sep}bench'`)).toHaveLength(1);
    expect(escapes(file, "const scratch = '/tmp/x'")).toEqual([]);
    expect(escapes(join(root, 'docs', 'a.md'), 'the sets in `../elsewhere/bench/`')).toHaveLength(1);
    expect(escapes(file, "import { x } from '../src/index.ts'; join(here, '..', 'data')")).toEqual([]);
  });
});
