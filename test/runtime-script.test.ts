import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'runtime.mjs');
const PINNED = /const DEFAULT_RUNTIME = '([\d.]+)'/;

/**
 * scripts/runtime.mjs, run as npm's `prepare` runs it, in a scratch project. The pinned runtime
 * is pre-installed there as this test's own node, so nothing is downloaded.
 */
function scratchProject(): { dir: string; link: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sportsdata-runtime-script-'));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const pinned = PINNED.exec(execFileSync('cat', [SCRIPT], { encoding: 'utf8' }))?.[1];
  const pkg = `node-${process.platform}-${process.arch}`;
  const bin = join(dir, '.runtime', `${pkg}-${pinned}`, 'node_modules', pkg, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(process.execPath, join(bin, 'node'));
  return { dir, link: join(dir, 'node_modules', '.bin', 'node') };
}

/** A stand-in for an end-of-life system node: answers `-p process.versions.node` with 20. */
function oldNode(dir: string): string {
  const path = join(dir, 'old-node');
  writeFileSync(path, '#!/bin/sh\necho 20.20.2\n');
  chmodSync(path, 0o755);
  return path;
}

function prepare(dir: string, node: string, npmNode: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_node_execpath: npmNode };
  delete env.SPORTSDATA_FORCE_RUNTIME;
  return execFileSync(node, [SCRIPT], { cwd: dir, env, encoding: 'utf8' });
}

describe('scripts/runtime.mjs (npm prepare)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('on a machine whose npm runs on Node 20, links the pinned runtime as node_modules/.bin/node', () => {
    const { dir, link } = scratchProject();
    dirs.push(dir);
    expect(prepare(dir, process.execPath, oldNode(dir))).toMatch(/Node v20\.20\.2 is not supported/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(execFileSync(link, ['-p', 'process.version'], { encoding: 'utf8' }).trim()).toBe(process.version);
  });

  it('keeps the link when npm runs the script on the linked node itself (a later npm install)', () => {
    const { dir, link } = scratchProject();
    dirs.push(dir);
    const old = oldNode(dir);
    prepare(dir, process.execPath, old);
    // npm puts node_modules/.bin first on a lifecycle script's PATH: `node` is the link now.
    expect(prepare(dir, link, old)).toMatch(/is not supported/);
    expect(existsSync(link)).toBe(true);
  });

  it('on a supported node, links nothing and removes a link it made before', () => {
    const { dir, link } = scratchProject();
    dirs.push(dir);
    prepare(dir, process.execPath, oldNode(dir));
    expect(prepare(dir, process.execPath, process.execPath)).toMatch(/supported; nothing to install/);
    expect(existsSync(link)).toBe(false);
  });
});
