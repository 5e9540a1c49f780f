// Runs before `npm test`: builds dist/ (the core-dist, core-workerd and browser tests import it)
// and makes sure a Chromium exists for Playwright, installing one when the machine allows.
// Usage: node scripts/pretest.mjs [--no-build]
import { spawnSync } from 'node:child_process';
import { chromiumVersion, findChromium, INSTALL_HELP, installChromium } from './chromium.mjs';

function build() {
  console.log('pretest: building dist/ (npm run build)');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('pretest: the build failed, so no test can run against dist/.');
    process.exit(result.status ?? 1);
  }
}

function ensureChromium() {
  let found;
  try {
    found = findChromium();
  } catch (error) {
    console.error(`pretest: ${error.message}`);
    process.exit(1);
  }
  if (!found) {
    console.log("pretest: no Chromium found ($CHROMIUM_PATH, /usr/bin/chromium, Playwright's download).");
    found = installChromium();
  }
  if (!found) {
    console.error(`pretest: could not install a Chromium.\n${INSTALL_HELP}`);
    process.exit(1);
  }
  const version = chromiumVersion(found.path);
  if (!version) {
    console.error(
      `pretest: ${found.path} (${found.source}) does not start: \`${found.path} --version\` failed.\n${INSTALL_HELP}`,
    );
    process.exit(1);
  }
  console.log(`pretest: browser tests will use ${version} at ${found.path} (${found.source})`);
}

if (!process.argv.includes('--no-build')) build();
ensureChromium();
