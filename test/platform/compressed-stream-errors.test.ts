import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCompression } from '../../src/platform/http/compression.js';
import { sendFile } from '../../src/platform/http/files.js';

/**
 * Decision 0126 and 0151: a file streams, compressed as it goes when the client accepts it. When its
 * source fails after the first bytes, the connection is cut, so that the client sees a broken
 * transfer and never a short file that looks complete — plain or compressed alike.
 */
describe('a file whose source fails half-way', () => {
  let app: FastifyInstance;
  let port: number;
  // Random text, so that the compressed stream has bytes to send before the failure.
  const line = () => `${randomBytes(1500).toString('base64')}\n`;

  beforeAll(async () => {
    app = Fastify();
    registerCompression(app);
    app.get('/file', (request, reply) =>
      sendFile(request, reply, {
        etag: '"file"',
        filename: 'file.csv',
        contentType: 'text/csv; charset=utf-8',
        async *chunks() {
          for (let i = 0; i < 100; i += 1) yield line();
          // The first bytes are on their way when the source fails.
          await new Promise((resolve) => setTimeout(resolve, 100));
          throw new Error('the database went away');
        },
      }),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => app.close());

  /** The answer's status and headers, the bytes that came, and whether the transfer completed. */
  const fetchFile = (headers: Record<string, string>) =>
    new Promise<{ status: number; encoding: string | undefined; bytes: number; complete: boolean }>((resolve) => {
      const req = request({ port, host: '127.0.0.1', path: '/file', headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        const done = () => resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], bytes, complete: res.complete });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      });
      req.on('error', () => resolve({ status: 0, encoding: undefined, bytes: 0, complete: false }));
      req.end();
    });

  it('compressed: the client gets a start of the file in gzip, then a cut connection', async () => {
    const answer = await fetchFile({ 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.encoding).toBe('gzip');
    expect(answer.bytes).toBeGreaterThan(0);
    expect(answer.complete).toBe(false);
  });

  it('plain: the same', async () => {
    const answer = await fetchFile({});
    expect(answer.status).toBe(200);
    expect(answer.encoding).toBeUndefined();
    expect(answer.bytes).toBeGreaterThan(0);
    expect(answer.complete).toBe(false);
  });
});
