import { createServer } from 'node:http';

/** The baseline: a bare node:http server answering a fixed JSON body. Prints its port. */
const body = JSON.stringify({ results: [{ id: 1, name: 'Soccer' }], total_count: 1, page: 1, page_size: 20, total_pages: 1 });
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
