import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The whole body of an answer with a Content-Length; '' for one without (a stream), read no further. */
  body: string;
}

/**
 * One HTTP/1.1 request written byte for byte on a socket of its own: the path exactly as given.
 * fetch, node:http's URL handling and `app.inject` resolve `.`, `..` and `%2e` segments before a
 * request leaves; a proxy that must refuse them has to be sent them as a raw client would. An
 * answer without a Content-Length (an event stream) resolves at its head, and the socket is closed.
 */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; timeoutMs?: number },
): Promise<RawAnswer> {
  const { method = 'GET', path, headers = {}, body, timeoutMs = 5000 } = options;
  const lines = [`${method} ${path} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${method} ${path}: no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = (answer: RawAnswer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine = '', ...headerLines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const answerHeaders: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        answerHeaders[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      const length = answerHeaders['content-length'];
      if (length === undefined) return finish({ status, headers: answerHeaders, body: '' });
      const rest = received.subarray(end + 4);
      if (rest.length >= Number(length)) finish({ status, headers: answerHeaders, body: rest.subarray(0, Number(length)).toString('utf8') });
    });
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
  });
}
