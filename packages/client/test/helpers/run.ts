import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../../../test/helpers/process.js';

export { ROOT };

/** tsx by absolute URL: a script anywhere runs as TypeScript, with the repository's tsconfig paths when run from ROOT. */
export const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (killed after `timeoutMs`) with exactly `env` beside PATH and HOME. */
export function run(file: string, args: string[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<Ran> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? options.cwd, ...options.env };
  return new Promise((resolve) => {
    execFile(file, args, { cwd: options.cwd, env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Runs a TypeScript file with this process's node and tsx, from `cwd` (default the repository). */
export function runTypeScript(script: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Ran> {
  return run(process.execPath, ['--import', TSX_LOADER, script, ...args], { ...options, cwd: options.cwd ?? ROOT });
}
