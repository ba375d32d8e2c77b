import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { freePort } from './free-port.js';

/** A real redis-server (Debian's package) on a port of its own, without persistence. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops it (SIGTERM) and waits for the process to end. */
  stop(): Promise<void>;
  /** Starts it (again) on the same port. */
  start(): Promise<void>;
}

/** Starts one; with `{ running: false }` only picks its port (for a node that starts before Redis). */
export async function startRedis(options: { running?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    process.once('exit', () => proc.kill('SIGKILL'));
    await waitUntilAccepting(proc, port);
  };
  if (options.running ?? true) await start();

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = once(proc, 'exit');
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** redis-server logs little at `warning`: poll the port with PING until it answers PONG. */
async function waitUntilAccepting(proc: ChildProcess, port: number): Promise<void> {
  let stderr = '';
  proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode}: ${stderr}`);
    const pong = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('error', () => resolve(false));
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
    });
    if (pong) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
