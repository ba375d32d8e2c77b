// Gives the project a supported Node.js even on a machine whose own `node` is too old.
// Run by `prepare`, i.e. after every `npm ci` / `npm install` (docs/decisions/0017).
//
// Supported lines: 22, 24 and 26. When the `node` that runs npm is one of them, nothing happens:
// the project runs on it. Otherwise (Node 20 and older, end of life) the official Node 24 binary
// is installed from the npm registry into .runtime/ (kept across `npm ci`, so it is fetched once)
// and linked as node_modules/.bin/node. npm puts node_modules/.bin first on the PATH of every
// npm script and of npx, so `npm start`, `npm test` and `npx sportsdata` all run on it.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The default line's pinned release; bump it with the supported lines in package.json engines. */
const DEFAULT_RUNTIME = '24.21.0';
const SUPPORTED_MAJORS = [22, 24, 26];
const LINK = join('node_modules', '.bin', 'node');

/**
 * The node that runs npm, not the one running this script: once our link exists, npm runs
 * lifecycle scripts with node_modules/.bin first on the PATH, so this script itself runs on the
 * linked Node 24 and would otherwise take the machine for a supported one and drop the link.
 */
function npmNodeVersion() {
  const npmNode = process.env.npm_node_execpath;
  if (!npmNode || npmNode === process.execPath) return process.versions.node;
  return execFileSync(npmNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
}

const npmNode = npmNodeVersion();
const major = Number(npmNode.split('.')[0]);
const runtimePackage = `node-${process.platform}-${process.arch}`;

if (!existsSync('node_modules')) process.exit(0); // not an install of this project (e.g. npm pack)

if (SUPPORTED_MAJORS.includes(major) && !process.env.SPORTSDATA_FORCE_RUNTIME) {
  removeOurLink();
  console.log(`runtime: Node v${npmNode} (supported; nothing to install)`);
} else {
  const binary = installRuntime();
  mkdirSync(join('node_modules', '.bin'), { recursive: true });
  removeOurLink();
  symlinkSync(relative(join('node_modules', '.bin'), binary), LINK);
  console.log(`runtime: Node v${npmNode} is not supported; npm scripts and npx use Node ${DEFAULT_RUNTIME} (${binary})`);
}

/** The official binary from the npm registry's `node-<platform>-<arch>` package, installed once. */
function installRuntime() {
  const prefix = resolve('.runtime', `${runtimePackage}-${DEFAULT_RUNTIME}`);
  const binary = join(prefix, 'node_modules', runtimePackage, 'bin', 'node');
  if (existsSync(binary)) return binary;
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  try {
    execFileSync(
      command,
      [...args, 'install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', `${runtimePackage}@${DEFAULT_RUNTIME}`],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch {
    console.error(`runtime: could not install ${runtimePackage}@${DEFAULT_RUNTIME}; install Node 22, 24 or 26 and run npm ci again`);
    process.exit(1);
  }
  if (!existsSync(binary)) {
    console.error(`runtime: ${runtimePackage}@${DEFAULT_RUNTIME} has no binary at ${binary}; install Node 22, 24 or 26 and run npm ci again`);
    process.exit(1);
  }
  return binary;
}

/** Removes a node_modules/.bin/node link that points into .runtime/ (and nothing else). */
function removeOurLink() {
  try {
    if (lstatSync(LINK).isSymbolicLink() && readlinkSync(LINK).includes('.runtime')) rmSync(LINK);
  } catch {
    // no link: nothing to remove
  }
}
