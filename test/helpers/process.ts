import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** tsx by absolute URL, so that a process started in another directory still runs our TypeScript. */
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real server (`src/server.ts`, what `npm start` runs) or CLI (`src/cli/main.ts`, what
 * `npx sportsdata` runs) as a process of its own with exactly `env` (plus PATH and HOME), in `cwd`,
 * and waits for it to exit. A process still running after `timeoutMs` is killed and reported
 * with code null: a start-up that should have failed but served instead.
 */
export function runProcess(entry: 'server' | 'cli', args: string[], options: { env: Record<string, string>; cwd?: string; timeoutMs?: number }): Promise<Exited> {
  const script = join(ROOT, entry === 'server' ? 'src/server.ts' : 'src/cli/main.ts');
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DEMO_TICKER_PER_SECOND: '0', ...options.env };
  const child = spawn(process.execPath, ['--import', TSX, script, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The lines of a process's stderr, without the trailing newline. */
export function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.length > 0);
}
