import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
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
    // 1.5 s of drain, then 2 s for the request that never completes, then exit 1 regardless.
    expect(took).toBeGreaterThanOrEqual(3400);
    expect(took).toBeLessThan(8000);
    expect(code).toBe(1);
    stuck.socket.destroy();
  });
});
