import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabaseUrl, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-shutdown-'));
// Each test ends its own server with SIGTERM; this only sweeps up after a failed one.
const started: NodeProcess[] = [];
afterAll(async () => {
  for (const node of started) await node.stop(1000);
  rmSync(dataDir, { recursive: true, force: true });
});

async function server(env: Record<string, string>): Promise<NodeProcess> {
  const node = await startNode({ env: nodeEnv(dataDir, env) });
  started.push(node);
  await node.waitUntilReady();
  return node;
}

/** A raw connection that has sent `text` and nothing more; collects whatever comes back. */
async function rawSocket(node: NodeProcess, text: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect({ host: '127.0.0.1', port: node.port });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(text);
  // Let the server read it before the test goes on.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { socket, received: () => received, closed };
}

const createClient = (name: string) => JSON.stringify({ name, tier: 'pro', auth_method: 'both' });
const postClientHead = (body: string) =>
  `POST /admin/v1/clients HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;

// Concurrent: each test has a server of its own, and most of each test is waiting.
describe.concurrent('shutdown on SIGTERM', () => {
  it('lets a request in flight finish, closes a half-sent request line and headers, and exits at once', async () => {
    const node = await server({ SHUTDOWN_TIMEOUT: '20' });
    const half = await rawSocket(node, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ');
    const body = createClient('In flight');
    const inFlight = await rawSocket(node, postClientHead(body) + body.slice(0, 10));

    const signalled = Date.now();
    node.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    inFlight.socket.write(body.slice(10));
    const { code } = await node.exited;

    expect(Date.now() - signalled).toBeLessThan(5000);
    expect(code).toBe(0);
    expect(inFlight.received()).toMatch(/^HTTP\/1\.1 201 /);
    await half.closed;
  });

  it('drains (/readyz 503 SERVICE_UNAVAILABLE, other requests served), then exits SHUTDOWN_TIMEOUT after the drain although a body never arrives', async () => {
    const node = await server({ SHUTDOWN_DRAIN_MS: '1500', SHUTDOWN_TIMEOUT: '2' });
    const stuck = await rawSocket(node, postClientHead(createClient('Never finished')).replace(/Content-Length: \d+/, 'Content-Length: 200') + '{"name":');
    expect((await fetch(`${node.url}/readyz`)).status).toBe(200);
    const signalled = Date.now();
    node.child.kill('SIGTERM');
    await node.waitForLog((line) => line.msg === 'shutting down');

    const ready = await fetch(`${node.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await ready.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), request_id: expect.any(String) } });
    expect((await fetch(`${node.url}/healthz`)).status).toBe(200);
    const created = await fetch(`${node.url}/admin/v1/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: createClient('During the drain'),
    });
    expect(created.status).toBe(201);

    const { code } = await node.exited;
    const took = Date.now() - signalled;
    // 1.5 s of drain, then 2 s for the request that never completes (the process is gone by then:
    // it leaves half a second early), then exit 1 regardless.
    expect(took).toBeGreaterThanOrEqual(3000);
    expect(took).toBeLessThan(8000);
    expect(code).toBe(1);
    stuck.socket.destroy();
  });
});

/** What a load client's requests came to: answers by status, and connection failures by code (and whether the connection was reused). */
interface LoadOutcome {
  statuses: Map<number, number>;
  failures: Map<string, number>;
  /** Answers that carried `Connection: close`. */
  closing: number;
}

/**
 * Bounded load on loopback: `clients` keep-alive connections, each sending its next request as
 * soon as its answer is in, until `stop()`, or until the server refuses connections. A client that
 * is refused a connection stops (the listener is closed: a real client would go to another node).
 */
function load(node: NodeProcess, apiKey: string, clients: number): { stop: () => Promise<LoadOutcome> } {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const outcome: LoadOutcome = { statuses: new Map(), failures: new Map(), closing: 0 };
  let stopped = false;
  const one = () =>
    new Promise<'go' | 'stop'>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port: node.port, path: '/v1/references/sports?page_size=5', agent, headers: { 'x-api-key': apiKey } }, (res) => {
        res.resume();
        res.on('end', () => {
          outcome.statuses.set(res.statusCode ?? 0, (outcome.statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          if (res.headers.connection === 'close') outcome.closing += 1;
          resolve('go');
        });
        res.on('error', () => resolve('go'));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A keep-alive client's connection that fails is what must not happen; a new one may meet
        // the listener closing (refused, or reset while it waited in the kernel's accept queue).
        const code = `${error.code ?? error.message}${req.reusedSocket ? ' on a reused connection' : ''}`;
        outcome.failures.set(code, (outcome.failures.get(code) ?? 0) + 1);
        resolve(code === 'ECONNREFUSED' ? 'stop' : 'go');
      });
      req.end();
    });
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped && (await one()) === 'go');
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
      return outcome;
    },
  };
}

describe.each(DIALECTS)('shutdown under load (%s)', (dialect) => {
  let databaseUrl: string | undefined;
  let drop = async () => {};
  beforeAll(async () => {
    if (dialect === 'postgres') ({ url: databaseUrl, drop } = await freshDatabaseUrl('postgres'));
  });
  afterAll(async () => drop());

  it.each([
    { drainMs: 0, timeoutS: 3 },
    { drainMs: 1500, timeoutS: 2 },
  ])(
    'SHUTDOWN_DRAIN_MS=$drainMs, SHUTDOWN_TIMEOUT=$timeoutS: keep-alive clients are told to close, never reset; idle and half-sent connections are closed; the process exits within its bound although a body never arrives',
    async ({ drainMs, timeoutS }) => {
      const node = await server({
        ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
        SHUTDOWN_DRAIN_MS: String(drainMs),
        SHUTDOWN_TIMEOUT: String(timeoutS),
        TIER_LIMITS: JSON.stringify({ pro: { per_minute: null, per_day: null } }),
      });
      const created = await fetch(`${node.url}/admin/v1/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: createClient('Load'),
      });
      const { api_key: apiKey } = (await created.json()) as { api_key: string };
      const halfBody = await rawSocket(node, postClientHead(createClient('Never finished')).replace(/Content-Length: \d+/, 'Content-Length: 200') + '{"name":');
      const halfHeaders = await rawSocket(node, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ');
      // A keep-alive connection that has had its answer and sends nothing more.
      const idle = await rawSocket(node, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
      const closedAt = (socket: { closed: Promise<void> }) => socket.closed.then(() => Date.now());
      const [halfHeadersClosed, idleClosed] = [closedAt(halfHeaders), closedAt(idle)];

      const traffic = load(node, apiKey, 16);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const signalled = Date.now();
      node.child.kill('SIGTERM');
      const { code } = await node.exited;
      const took = Date.now() - signalled;
      const outcome = await traffic.stop();
      const seen = JSON.stringify({ took, statuses: [...outcome.statuses], failures: [...outcome.failures], closing: outcome.closing });

      expect(took, seen).toBeLessThanOrEqual(drainMs + timeoutS * 1000);
      // The body that never came held the process to its deadline (which it leaves half a second early).
      expect(took, seen).toBeGreaterThanOrEqual(drainMs + timeoutS * 1000 - 500);
      expect(code).toBe(1);
      expect(outcome.statuses.get(200) ?? 0, seen).toBeGreaterThan(100);
      // Keep-alive clients were answered with Connection: close (200 while draining, 503 once the
      // listener is closed), then went to a new connection; not one reused connection was cut off.
      expect(outcome.closing, seen).toBeGreaterThanOrEqual(16);
      expect([...outcome.failures.keys()].filter((failure) => failure.endsWith('on a reused connection')), seen).toEqual([]);
      if (drainMs === 0) expect([...outcome.failures.keys()], seen).toEqual(['ECONNREFUSED']);
      // Idle at once, even while draining; a half-sent request line and headers once the listener is closed.
      expect((await idleClosed) - signalled).toBeLessThan(Math.min(1000, drainMs || 1000));
      expect((await halfHeadersClosed) - signalled).toBeLessThan(drainMs + 1000);
      halfBody.socket.destroy();
    },
  );
});
