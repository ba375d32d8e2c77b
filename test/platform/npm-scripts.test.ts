import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabaseUrl } from '../helpers/app.js';
import { freePort } from '../helpers/free-port.js';
import { eventually, type LogLine, nodeEnv } from '../helpers/node-process.js';
import { ROOT } from '../helpers/process.js';

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The parent's pid, from /proc (field 4 of `stat`, after the command name in parentheses). */
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);

const listening = async (port: number) => {
  try {
    await fetch(`http://127.0.0.1:${port}/healthz`);
    return true;
  } catch {
    return false;
  }
};

/**
 * `npm start` and `npm run serve` as an operator or a process manager runs them: npm starts the
 * script under `sh -c`, and a signal to npm must reach the server. `--ignore-scripts` skips only
 * `prestart`'s build (dist/ is built by `npm ci` and before the tests); the script line itself runs.
 */
describe.each(DIALECTS)('the npm scripts, signalled (%s)', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-npm-scripts-'));
  const children: ChildProcess[] = [];
  const servers: number[] = [];
  let databaseUrl: string | undefined;
  let drop = async () => {};
  beforeAll(async () => {
    if (dialect === 'postgres') ({ url: databaseUrl, drop } = await freshDatabaseUrl('postgres'));
  });
  afterAll(async () => {
    // Only after a failure is anything left: the server that outlived npm included.
    for (const child of children) child.kill('SIGKILL');
    for (const pid of servers) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['npm start', ['start']],
    ['npm run serve', ['run', 'serve']],
  ])('%s: SIGTERM to the npm process stops the server and frees the port', async (_name, args) => {
    const port = await freePort();
    const env = {
      ...nodeEnv(dataDir, databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
    };
    const npm = spawn('npm', [...args, '--ignore-scripts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(npm);
    const npmExited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    let stdout = '';
    npm.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const serving = () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogLine)
        .find((line) => line.msg === 'serving');

    expect(await eventually(async () => serving() !== undefined, 30_000, 100), `no "serving" line; stdout: ${stdout.slice(-2000)}`).toBe(true);
    const pid = Number(serving()?.pid);
    servers.push(pid);
    // The server is the script's process itself (the shell made way for it), so npm's signal reaches it.
    expect(parentOf(pid)).toBe(npm.pid);
    expect(await listening(port)).toBe(true);

    npm.kill('SIGTERM');
    await npmExited;
    expect(await eventually(async () => !isRunning(pid), 15_000, 100), `the server (pid ${pid}) outlived npm`).toBe(true);
    expect(await listening(port)).toBe(false);
    expect(stdout).toContain('"msg":"shutting down"');
    // Beyond its waits (30 s for "serving", 15 s for the exit): they, not the suite's 30 s, bound a busy machine's start.
  }, 60_000);
});
