// Finds (and, for the pretest, installs) the Chromium that Playwright drives.
// Shared by scripts/pretest.mjs and playwright.config.ts so both agree on one binary.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** Environment variable that names a Chromium or Chrome binary; it wins over every other place. */
export const CHROMIUM_ENV = 'CHROMIUM_PATH';

/** Debian's package (`apt-get install chromium`) puts its wrapper here. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * Launch flags for a headless Chromium in a container or CI box: no sandbox (we run as root),
 * no GPU, and none of the background traffic that a closed network answers with refused connections.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** How to get a browser, printed whenever none is found. */
export const INSTALL_HELP = [
  'The browser tests need a Chromium. Get one, then run the tests again:',
  `  - any system: set ${CHROMIUM_ENV}=/path/to/chromium (or chrome)`,
  '  - where downloads work: npx playwright install chromium',
  '  - Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y chromium',
].join('\n');

/**
 * The Chromium to launch, looked up in this order: `$CHROMIUM_PATH`, Debian's `/usr/bin/chromium`,
 * Playwright's own downloaded browser. Returns undefined when there is none.
 * A `$CHROMIUM_PATH` that names a missing file throws: the user asked for that binary.
 * @returns {{ path: string, source: string } | undefined}
 */
export function findChromium() {
  const fromEnv = process.env[CHROMIUM_ENV];
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`${CHROMIUM_ENV}=${fromEnv}, but no file is there.\n${INSTALL_HELP}`);
    return { path: fromEnv, source: `$${CHROMIUM_ENV}` };
  }
  if (existsSync(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, source: "Debian's chromium package" };
  const downloaded = chromium.executablePath();
  if (downloaded && existsSync(downloaded)) return { path: downloaded, source: "Playwright's downloaded browser" };
  return undefined;
}

/** Like findChromium, but throws the install help when there is none (for playwright.config.ts). */
export function requireChromium() {
  const found = findChromium();
  if (!found) throw new Error(INSTALL_HELP);
  return found;
}

/** The binary's `--version` line, or undefined when it does not start (a broken install). */
export function chromiumVersion(path) {
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  // Debian's wrapper script prints a harmless "[: ... unexpected operator" on stderr; only stdout counts.
  const line = run.stdout?.split('\n').find((l) => /chrom/i.test(l));
  return run.status === 0 && line ? line.trim() : undefined;
}

function run(command, args, env = {}) {
  console.log(`$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function canUseApt() {
  return (
    process.platform === 'linux' &&
    existsSync('/etc/debian_version') &&
    process.getuid?.() === 0 &&
    spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0
  );
}

/**
 * Installs a Chromium the way this machine allows, saying what it does: Debian's package when we
 * are root on Debian (Playwright's download is blocked on some such machines), else Playwright's
 * download, trying the other one when the first fails. Returns what findChromium finds afterwards.
 */
export function installChromium() {
  const apt = () => {
    console.log("Installing Debian's chromium package with apt-get (about 40 s)...");
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    return run('apt-get', ['update', '-qq'], env) && run('apt-get', ['install', '-y', '-qq', 'chromium'], env);
  };
  const playwright = () => {
    console.log("Installing Playwright's Chromium with `npx playwright install chromium`...");
    return run('npx', ['playwright', 'install', 'chromium']);
  };
  const attempts = canUseApt() ? [apt, playwright] : [playwright];
  for (const attempt of attempts) {
    if (attempt() && findChromium()) return findChromium();
    console.log('That did not give a usable Chromium.');
  }
  return undefined;
}
