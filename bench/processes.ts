import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../test/helpers/free-port.js';
import type { RecordedAnswer } from './same-bytes.js';

export interface Running {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** The anchor server, with a way to set the answer it sends. */
export interface Bare extends Running {
  answerWith(answer: RecordedAnswer): Promise<void>;
}

/** The same-bytes anchor (bench/bare-server.ts), in its own process like the API, so both get a core of their own. */
export async function startBare(options: { nodeArgs?: string[] } = {}): Promise<Bare> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...(options.nodeArgs ?? []), 'bench/bare-server.ts'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  const port = Number(chunk.toString().trim());
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stop: () => stopChild(child),
    async answerWith(answer) {
      const acknowledged = once(child, 'message');
      child.send({ status: answer.status, headers: answer.headers, body: answer.body.toString('base64') });
      await acknowledged;
    },
  };
}

/** The node flags `npm start` gives the server (package.json's start script; decision 0150). */
function startFlags(dir: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return (scripts.start ?? '').split(' ').filter((word) => word.startsWith('--'));
}

/**
 * The real API (compiled, as `npm start` runs it, with its node flags) with the given environment. With `probe`, the
 * event-loop probe is preloaded and answers over an IPC channel (bench/event-loop-probe.ts).
 */
export async function startApi(env: Record<string, string>, options: { probe?: boolean; dir?: string; nodeArgs?: string[] } = {}): Promise<Running> {
  const port = await freePort();
  // By absolute URL: the server may run in another checkout (`dir`), whose bench may lack the probe.
  const preload = options.probe ? ['--import', import.meta.resolve('tsx'), '--import', new URL('./event-loop-probe.ts', import.meta.url).href] : [];
  // `dir`: another checkout's build (bench/compare.ts), run from there so it finds its own node_modules.
  const dir = options.dir ?? process.cwd();
  // BENCH_SERVER_NODE_ARGS: node flags for the server alone (`--cpu-prof --cpu-prof-dir=…` profiles it; NODE_OPTIONS refuses them).
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((word) => word !== '');
  const child = spawn(process.execPath, [...preload, ...startFlags(dir), ...(options.nodeArgs ?? []), ...extra, join(dir, 'dist/server.js')], {
    cwd: dir,
    // The demo's prices stay still unless a bench asks for the ticker: every round measures the same slate.
    env: { ...process.env, DEMO_TICKER_PER_SECOND: '0', ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit', ...(options.probe ? (['ipc'] as const) : [])],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the API did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, stop: () => stopChild(child) };
}
