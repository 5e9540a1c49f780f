// `npm run check:package`: what `npm pack` would publish. The LICENSE and the README are in it, every file is under
// package.json's `files` (or one npm always adds), and every relative link of the README and the shipped docs points
// to a file in the package, so the guides work from node_modules and on the registry's page.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const root = join(dirname(new URL(import.meta.url).pathname), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const [pack] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
);
const files = new Set(pack.files.map((file) => file.path));
const problems = [];

for (const required of ['LICENSE', 'README.md', 'package.json']) {
  if (!files.has(required)) problems.push(`${required} is not in the package`);
}
const always = new Set(['LICENSE', 'README.md', 'package.json']);
const allowed = (path) =>
  always.has(path) || manifest.files.some((entry) => path === entry || path.startsWith(`${entry}/`));
for (const path of files) if (!allowed(path)) problems.push(`${path} is outside package.json's files`);

for (const doc of [...files].filter((path) => path.endsWith('.md'))) {
  const text = readFileSync(join(root, doc), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:|^#/.test(target)) continue;
    const path = normalize(join(dirname(doc), decodeURI(target.split('#')[0])));
    const isDir = [...files].some((file) => file.startsWith(`${path}/`));
    if (!files.has(path) && !isDir) problems.push(`${doc}: the link ${target} points outside the package`);
  }
}

if (problems.length > 0) {
  process.stderr.write(`check-pack: ${problems.length} problem(s)\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`check-pack: ${files.size} files, LICENSE and docs included, every relative link resolves\n`);
