import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { eventually } from '../helpers/node-process.js';

/** Sends `text` on a new connection and sends nothing more; resolves with what came back and when the server closed it. */
function sendAndWait(port: number, text: string): Promise<{ received: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    let sentAt = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write(text);
      sentAt = Date.now();
    });
    socket.once('close', () => resolve({ received, closedAfterMs: Date.now() - sentAt }));
    // Bounded: a server without the timeouts would hold the connection for minutes.
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after 15 s; received: ${received}`));
    }, 15_000).unref();
  });
}

/**
 * HEADERS_TIMEOUT and REQUEST_TIMEOUT through a real socket: a client that stops part-way through
 * its headers, or through its body, is answered 408 and its connection closed once its time is up
 * (to within the second at which Node checks), instead of holding the connection for minutes.
 */
describe.each(DIALECTS)('request timeouts (%s)', (dialect) => {
  let t: Harness;
  let port: number;
  beforeAll(async () => {
    t = await harness({ dialect, env: { HEADERS_TIMEOUT: '1', REQUEST_TIMEOUT: '3' } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => t.close());

  it('a request line and headers not complete within HEADERS_TIMEOUT: 408 REQUEST_TIMEOUT, connection closed', async () => {
    const { received, closedAfterMs } = await sendAndWait(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ');
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toContain('"code":"REQUEST_TIMEOUT"');
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(3500);
  });

  it('a body not complete within REQUEST_TIMEOUT: 408 REQUEST_TIMEOUT, connection closed, nothing created', async () => {
    const body = JSON.stringify({ name: 'Half a body', tier: 'pro', auth_method: 'both' });
    const head = `POST /admin/v1/clients HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const { received, closedAfterMs } = await sendAndWait(port, head + body.slice(0, 10));
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(2900);
    expect(closedAfterMs).toBeLessThan(5500);
    const listed = await t.admin.get('/admin/v1/clients');
    expect(listed.json<{ results: Array<{ name: string }> }>().results.map((client) => client.name)).not.toContain('Half a body');
  });

  it('a request that arrives in time is served, however long its keep-alive connection was idle before it', async () => {
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const answered = (count: number) => Promise.race([closed, eventually(async () => (received.match(/\r\n\r\n\{"status"/g) ?? []).length >= count, 20_000)]);
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await answered(1);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    // Idle for longer than HEADERS_TIMEOUT, so that Node's check (every second) looks at it at least once while it is idle:
    // between two requests a connection is not in a request, and the time counts from the next request's first byte.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await answered(2);
    expect(received.split('HTTP/1.1 ').slice(1).map((answer) => answer.slice(0, 3))).toEqual(['200', '200']);
    socket.destroy();
  });

  it('a new connection that sends nothing is closed once HEADERS_TIMEOUT has passed since it opened', async () => {
    const { received, closedAfterMs } = await sendAndWait(port, '');
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
  });
});
