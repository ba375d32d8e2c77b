import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: its headers and its body's exact bytes. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A local HTTP server standing in for a client's webhook endpoint: it keeps what it gets and answers `status`. */
export interface Receiver {
  url: string;
  received: Received[];
  status: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver = { received: [] as Received[], status: 204 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = receiver.status;
      res.end(receiver.status === 204 ? undefined : `answered ${receiver.status}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
