import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIMITS_NEVER_REACHED } from '../limits.js';
import { call } from '../scenarios/http.js';

/** A price change as an odds.changed delivery carries it (the stream's item). */
interface Change {
  odds_id: number;
  price_decimal: { to: number };
}

/** What one endpoint's receiver saw. */
export interface Received {
  deliveries: number;
  /** The sequences of the deliveries, in arrival order (a retry repeats one). */
  sequences: number[];
  /** Ids seen more than once: retries. */
  repeats: number;
}

/**
 * N webhook endpoints on one local HTTP server (a path each), answering 200 at once, or 503 while
 * an endpoint is set down. `waitFor(i, oddsId, price)` resolves when endpoint i receives that price
 * change, with performance.now(): how a benchmark times a change from its import to its delivery.
 */
export interface Receivers {
  url(index: number): string;
  received(index: number): Received;
  setDown(index: number, down: boolean): void;
  waitFor(index: number, oddsId: number, price: number, timeoutMs?: number): Promise<number | undefined>;
  /** Registers N endpoints for odds.changed with the API, as the client `authorization` names. */
  register(apiUrl: string, authorization: string, count: number): Promise<string[]>;
  close(): Promise<void>;
}

export async function startReceivers(count: number): Promise<Receivers> {
  const seen = Array.from({ length: count }, () => ({ deliveries: 0, sequences: [] as number[], repeats: 0, ids: new Set<string>(), down: false }));
  const waiting = new Map<string, (at: number) => void>();
  const server: Server = createServer((req, res) => {
    void body(req).then((text) => {
      const index = Number(req.url?.slice(1));
      const into = seen[index];
      if (into === undefined) return void res.writeHead(404).end();
      if (into.down) return void res.writeHead(503).end();
      res.writeHead(200).end();
      const at = performance.now();
      const id = String(req.headers['webhook-id']);
      if (into.ids.has(id)) into.repeats += 1;
      into.ids.add(id);
      into.deliveries += 1;
      const payload = JSON.parse(text) as { type: string; data: { sequence?: number; changes?: Change[] } };
      if (payload.data.sequence !== undefined) into.sequences.push(payload.data.sequence);
      for (const change of payload.data.changes ?? []) {
        const key = `${index}:${change.odds_id}:${change.price_decimal.to}`;
        const resolve = waiting.get(key);
        if (resolve !== undefined) {
          waiting.delete(key);
          resolve(at);
        }
      }
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = (index: number) => `http://127.0.0.1:${port}/${index}`;
  return {
    url,
    received: (index) => {
      const s = seen[index];
      return { deliveries: s?.deliveries ?? 0, sequences: [...(s?.sequences ?? [])], repeats: s?.repeats ?? 0 };
    },
    setDown(index, down) {
      const s = seen[index];
      if (s !== undefined) s.down = down;
    },
    waitFor(index, oddsId, price, timeoutMs = 30_000) {
      return new Promise((resolve) => {
        const key = `${index}:${oddsId}:${price}`;
        const timer = setTimeout(() => {
          waiting.delete(key);
          resolve(undefined);
        }, timeoutMs);
        waiting.set(key, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    async register(apiUrl, authorization, n) {
      const ids: string[] = [];
      for (let i = 0; i < n; i += 1) {
        const made = await call<{ id: string }>(apiUrl, 'POST', '/v1/webhooks', {
          headers: { authorization },
          body: { url: url(i), event_types: ['odds.changed'], description: `bench receiver ${i}` },
        });
        ids.push(made.id);
      }
      return ids;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The server's environment for `count` endpoints on loopback receivers: loopback allowed, the tiers' limits never reached, the endpoint cap raised. */
export function receiversEnv(count: number): Record<string, string> {
  const limits = JSON.parse(LIMITS_NEVER_REACHED) as Record<string, Record<string, unknown>>;
  for (const tier of Object.values(limits)) tier.webhook_endpoints = Math.max(count, 50);
  return { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8', TIER_LIMITS: JSON.stringify(limits) };
}
