import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import type { TestApp } from '../helpers/app.js';

/** One HTTP/1.1 response as read off a socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Listens on a free loopback port; returns it. For what `inject` cannot send: malformed HTTP. */
export async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

export function openSocket(port: number): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {
    // A server that refuses a request may reset the connection after answering; what it sent counts.
  });
  return socket;
}

/** Everything the server sends until it closes the connection. */
export function readUntilClose(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Sends raw bytes on a new connection and parses every response the server sends before closing it. */
export async function rawExchange(port: number, request: string): Promise<RawResponse[]> {
  const socket = openSocket(port);
  const text = readUntilClose(socket);
  socket.write(request);
  return parseResponses(await text);
}

/** Splits a stream of HTTP/1.1 responses (each with Content-Length) into responses. */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`not an HTTP response: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyBytes = Buffer.from(rest.slice(end + 4), 'utf8');
    responses.push({ status, headers, body: bodyBytes.subarray(0, length).toString('utf8') });
    rest = bodyBytes.subarray(length).toString('utf8');
  }
  return responses;
}
