import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in operator received. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/**
 * A real pricing endpoint on 127.0.0.1: it records every call, and answers by its path —
 * `/ok` echoes `{priced: flow_id}` (an array of them for an array), `/slow-<id>` makes flow <id>
 * wait past any deadline, `/error` answers 500, `/text` answers what is not JSON, `/deep` JSON
 * nested 100,000 levels deep (200 KB: under the answer's cap).
 */
export async function startStandIn(): Promise<{ url: (path: string) => string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body });
      const priced = (one: unknown) => ({ priced: (one as { flow_id: number }).flow_id });
      const slow = /^\/slow-(\d+)$/.exec(path);
      if (slow && (body as { flow_id: number }).flow_id === Number(slow[1])) return void setTimeout(() => res.end('{}'), 10_000).unref();
      if (path === '/error') return void res.writeHead(500).end('{"message":"down"}');
      if (path === '/text') return void res.writeHead(200).end('<html>');
      if (path === '/deep') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? body.map(priced) : priced(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
