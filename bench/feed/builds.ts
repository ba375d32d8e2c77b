import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

/** A build of the API under comparison: a checkout with dist/ built and node_modules. */
export interface Build {
  name: string;
  dir: string;
}

/** The builds of one run, and how to remove the worktrees made for them. */
export interface Builds {
  builds: Build[];
  remove(): void;
}

const git = (args: string[], cwd = process.cwd()) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();

/**
 * A git ref built in a throwaway worktree. It borrows this checkout's node_modules (a link: there
 * may be no network for `npm ci`): the run refuses a ref whose package.json takes away a dependency
 * that this one has, as the installed modules would then not be the ref's. Its `.runtime` is linked
 * too when its package.json uses one (the Node binary of `prepare`).
 */
function worktreeOf(ref: string, dir: string): Build {
  git(['worktree', 'add', '--quiet', '--detach', dir, ref]);
  refuseMissingDependencies(ref);
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  if (existsSync('.runtime') && readFileSync(join(dir, 'package.json'), 'utf8').includes('runtime')) symlinkSync(resolve('.runtime'), join(dir, '.runtime'));
  execFileSync('npm', ['run', '-s', 'build'], { cwd: dir, stdio: 'inherit' });
  return { name: ref, dir };
}

/** Every dependency the ref's package.json names must be installed here at its range's version. */
function refuseMissingDependencies(ref: string): void {
  type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const theirs = JSON.parse(git(['show', `${ref}:package.json`])) as Manifest;
  const ours = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
  const wanted = { ...theirs.dependencies, ...theirs.devDependencies };
  const have = { ...ours.dependencies, ...ours.devDependencies };
  const differing = Object.entries(wanted).filter(([name, range]) => have[name] !== range);
  if (differing.length > 0) {
    throw new Error(`${ref} asks for dependencies this checkout's node_modules does not hold as asked: ${differing.map(([n, r]) => `${n}@${r}`).join(', ')}`);
  }
}

/**
 * The control (a git ref, built in a worktree; none when it is `none`), this checkout ("main", built here), "main, again"
 * with `again` (the A/A pair: the difference between two copies of one build is the run's noise),
 * and other checkouts by directory (each with dist/ built and its node_modules).
 */
export function prepareBuilds(control: string, again: boolean, others: string[]): Builds {
  const parent = mkdtempSync(join(tmpdir(), 'sportsdata-feed-builds-'));
  const made: string[] = [];
  const remove = () => {
    for (const dir of made) {
      try {
        git(['worktree', 'remove', '--force', dir]);
      } catch {
        // Removed below with its parent; `git worktree prune` forgets it then.
      }
    }
    rmSync(parent, { recursive: true, force: true });
    git(['worktree', 'prune']);
  };
  try {
    execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
    const builds: Build[] = [];
    if (control !== 'none') {
      const controlDir = join(parent, control.replace(/[^A-Za-z0-9._-]/g, '_'));
      made.push(controlDir);
      builds.push(worktreeOf(control, controlDir));
    }
    builds.push({ name: 'main', dir: process.cwd() });
    if (again) builds.push({ name: 'main, again', dir: process.cwd() });
    for (const other of others) {
      // Named by its folder, or by its path where the folder's name is taken (a checkout named main): rows are keyed by name.
      const name = basename(resolve(other));
      builds.push({ name: builds.some((build) => build.name === name) ? resolve(other) : name, dir: resolve(other) });
    }
    return { builds, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
