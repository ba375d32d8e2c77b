import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from './app.js';
import { freePort } from './free-port.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One JSON log line of a server process (pino). */
export interface LogLine {
  msg?: string;
  pid?: number;
  level?: number;
  [field: string]: unknown;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A real server process: the server, or the CLI with arguments (compiled, or the sources through tsx). */
export interface NodeProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  /** Every JSON line it has written to stdout so far. */
  logs(): LogLine[];
  stderr(): string;
  /** Resolves with the first log line (already written or still to come) that matches. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Polls GET /readyz until 200; rejects with its stderr if the process exits first. */
  waitUntilReady(timeoutMs?: number): Promise<void>;
  readonly exited: Promise<Exit>;
  /** SIGTERM, then SIGKILL if it is still there after `graceMs`. */
  stop(graceMs?: number): Promise<Exit>;
}

export interface NodeOptions {
  /** The server's environment (on top of PATH and HOME; nothing else of the test's is passed on). */
  env: Record<string, string>;
  /** Run the CLI (`src/cli/main.ts`) with these arguments instead of `src/server.ts`. */
  cli?: string[];
  port?: number;
}

let databases = 0;

/**
 * A test server's environment: the test secrets, the admin API, no demo data, and (unless
 * `changes` says otherwise) an SQLite file of its own in `dataDir`.
 */
/** 32 bytes in hex: a check-endpoint key every test node of a database shares. */
export const TEST_CHECK_ENDPOINT_KEY = '5e'.repeat(32);

export function nodeEnv(dataDir: string, changes: Record<string, string> = {}): Record<string, string> {
  databases += 1;
  return {
    DATABASE_URL: `sqlite:${join(dataDir, `node-${process.pid}-${databases}.db`)}`,
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    // Nodes on one PostgreSQL database share it, as they share JWT_SECRET.
    CHECK_ENDPOINT_KEY: TEST_CHECK_ENDPOINT_KEY,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    DEMO_DATA: 'false',
    DEMO_TICKER_PER_SECOND: '0',
    ...changes,
  };
}

const running = new Set<ChildProcess>();
// A failed test must not leave servers behind holding ports and databases.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startNode(options: NodeOptions): Promise<NodeProcess> {
  const port = options.port ?? (await freePort());
  const { loader, cli, server } = compiledIsCurrent()
    ? { loader: [], cli: 'dist/cli/main.js', server: 'dist/server.js' }
    : { loader: ['--import', 'tsx'], cli: 'src/cli/main.ts', server: 'src/server.ts' };
  const script = options.cli ? [...loader, cli, ...options.cli] : [...loader, server];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    // A node started with the demo's data keeps its prices still, unless the test asks otherwise.
    DEMO_TICKER_PER_SECOND: '0',
    ...options.env,
  };
  const child = spawn(process.execPath, script, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const lines: LogLine[] = [];
  const waiters = new Set<(line: LogLine) => void>();
  let stderr = '';
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    for (const text of complete) {
      const line = parseLine(text);
      if (line === undefined) continue;
      lines.push(line);
      for (const waiter of waiters) waiter(line);
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  let exit: Exit | undefined;
  void exited.then((e) => (exit = e));
  const url = `http://127.0.0.1:${port}`;

  const node: NodeProcess = {
    child,
    port,
    url,
    logs: () => [...lines],
    stderr: () => stderr,
    waitForLog(match, timeoutMs = 20_000) {
      const found = lines.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching log line within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
        }, timeoutMs);
        const waiter = (line: LogLine) => {
          if (!match(line)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(line);
        };
        waiters.add(waiter);
      });
    },
    async waitUntilReady(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (exit) throw new Error(`the server exited (${JSON.stringify(exit)}) before it was ready; stderr: ${stderr.slice(-2000)}`);
        try {
          if ((await fetch(`${url}/readyz`)).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    exited,
    async stop(graceMs = 15_000) {
      if (exit) return exit;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  return node;
}

let compiled: boolean | undefined;

/**
 * True when dist/ was built after the last change under src/ (`npm test` builds first): the
 * compiled server starts with about half the CPU of tsx, which counts with many processes on two
 * cores. After an edit without a build, the tests run the sources through tsx instead.
 */
function compiledIsCurrent(): boolean {
  if (compiled !== undefined) return compiled;
  const built = mtimeOf(join(ROOT, 'dist/server.js'));
  compiled = built !== undefined && newestUnder(join(ROOT, 'src')) <= built;
  return compiled;
}

function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : (mtimeOf(path) ?? 0));
  }
  return newest;
}

function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function parseLine(text: string): LogLine | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text) as LogLine;
  } catch {
    return undefined;
  }
}

/** Retries `check` until it returns true or `timeoutMs` passes; returns whether it held. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
