import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server answering as The Odds API v4 documents, for the upstream feed's tests: each path
 * answers the replies queued for it in turn, then its last one again.
 */

/** One answer of the fake upstream: a status, headers and body, or no answer at all. */
export type Reply = { status: number; body: string; headers?: Record<string, string> } | 'hang';

/** A local upstream: each path answers its queued replies in turn, then its last one again. */
export function fakeUpstream() {
  const queues = new Map<string, Reply[]>();
  const requests: URL[] = [];
  const hung: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    requests.push(url);
    const queue = queues.get(url.pathname) ?? [];
    const reply = queue.length > 1 ? queue.shift() : queue[0];
    if (reply === undefined) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Unknown sport"}');
    if (reply === 'hang') return void hung.push(res);
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body);
  });
  return {
    requests,
    answer: (path: string, ...replies: Reply[]) => void queues.set(path, replies),
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export const quota = (remaining: number, used: number) => ({ 'x-requests-remaining': String(remaining), 'x-requests-used': String(used), 'x-requests-last': '3' });
export const ODDS = '/v4/sports/soccer_epl/odds';
export const SCORES = '/v4/sports/soccer_epl/scores';

