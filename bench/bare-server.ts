import { createServer } from 'node:http';

/**
 * The anchor: a bare node:http server in its own process, answering every request with one
 * recorded answer — by default a small fixed JSON body; the bench sends it each scenario's own
 * answer (status, headers and body, byte for byte) over IPC before measuring it, so that every
 * scenario is compared with a server that does nothing but send the same bytes. It reads each
 * request's body before answering, as the API does. Prints its port.
 */
interface RecordedAnswer {
  status: number;
  /** Name, value, name, value…: as the API sent them, minus what node:http adds itself. */
  headers: string[];
  body: Buffer;
}

const fixed = Buffer.from(JSON.stringify({ results: [{ id: 1, name: 'Soccer' }], total_count: 1, page: 1, page_size: 20, total_pages: 1 }));
let answer: RecordedAnswer = {
  status: 200,
  headers: ['content-type', 'application/json; charset=utf-8', 'content-length', String(fixed.length)],
  body: fixed,
};

process.on('message', (message: { status: number; headers: string[]; body: string }) => {
  answer = { status: message.status, headers: message.headers, body: Buffer.from(message.body, 'base64') };
  process.send?.('ok');
});

const server = createServer((req, res) => {
  req.on('end', () => {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  req.resume();
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
