// Run by `pretest`: the suite needs a few system programs (Debian packages). On a fresh Debian
// machine where we are root, install the missing ones, as .ci/run does; elsewhere say in one
// line what to install, before any test runs, rather than failing halfway with a missing binary.
import { execFileSync, spawnSync } from 'node:child_process';

/** binary on the PATH → the Debian package that provides it. */
const NEEDED = {
  chromium: 'chromium', // the /docs page in a real browser (test/docs/docs-page.test.ts)
  prometheus: 'prometheus', // scrapes the service, with promtool beside it (test/metrics/prometheus.test.ts)
  'redis-server': 'redis-server', // the change feed across nodes (test/scale-out/*)
  curl: 'curl', // the README's and the docs' commands, run as written (test/docs/documented-commands.test.ts)
  sqlite3: 'sqlite3', // operations.md's SQLite backups, run as written (the same test)
};

const has = (binary) => spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
const missing = Object.entries(NEEDED).filter(([binary]) => !has(binary)).map(([, pkg]) => pkg);
if (missing.length === 0) process.exit(0);

const canInstall = process.getuid?.() === 0 && has('apt-get');
if (!canInstall) {
  console.error(`The tests need these Debian packages first: apt-get install ${missing.join(' ')}`);
  process.exit(1);
}
console.log(`Installing the test prerequisites: ${missing.join(' ')}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
