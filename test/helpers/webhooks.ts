import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { createSecretCipher } from '../../src/platform/secret-cipher.js';
import { newWebhookSecret } from '../../src/modules/webhooks/index.js';
import type { TestApp } from './app.js';

/** The service key every test app of a webhook suite seals and opens secrets with (ENCRYPTION_KEY). */
export const WEBHOOK_TEST_KEY = randomBytes(32).toString('hex');

/** What a webhook suite's app runs with: loopback reachable, one key for every node, and a deadline no loaded machine reaches: a slow answer is not a failed one (only a test of the deadline sets its own). */
export const WEBHOOK_ENV = { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128', ENCRYPTION_KEY: WEBHOOK_TEST_KEY, WEBHOOK_TIMEOUT_MS: '30000' };

const cipher = createSecretCipher(Buffer.from(WEBHOOK_TEST_KEY, 'hex'));

/** A secret sealed as the endpoint routes seal it, under the suites' key. */
export const sealedSecret = (secret: string): string => cipher.seal(secret);

/** An endpoint as a test made it: its id and its signing secret in the clear. */
export interface TestEndpoint {
  id: string;
  secret: string;
}

/** Inserts an enabled endpoint of `clientId` at `url`, its secret sealed as the endpoint routes seal it. */
export async function insertEndpoint(t: TestApp, clientId: string, url: string, options: { previousSecret?: string; previousExpiresAt?: number } = {}): Promise<TestEndpoint> {
  const id = `ep_${randomBytes(16).toString('base64url')}`;
  const secret = newWebhookSecret(randomBytes);
  const now = t.clock.now();
  await t.database.db
    .insertInto('webhook_endpoints')
    .values({
      id,
      client_id: clientId,
      url,
      description: 'test receiver',
      event_types: JSON.stringify(['odds.changed', 'event.updated']),
      filters: '{}',
      enabled: 1,
      disabled_reason: null,
      disabled_at: null,
      secret_sealed: cipher.seal(secret),
      previous_secret_sealed: options.previousSecret === undefined ? null : cipher.seal(options.previousSecret),
      previous_secret_expires_at: options.previousExpiresAt ?? null,
      last_sequence: 0,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .execute();
  return { id, secret };
}

/** Adds the endpoint's next delivery (pending, due now), as the former stores one; its id (webhook-id) and sequence. */
export async function insertDelivery(t: TestApp, endpointId: string, options: { createdAt?: number; type?: string } = {}): Promise<{ id: string; sequence: number }> {
  const { db } = t.database;
  const now = options.createdAt ?? t.clock.now();
  return db.transaction().execute(async (trx) => {
    const endpoint = await trx.updateTable('webhook_endpoints').set({ last_sequence: sql<number>`last_sequence + 1` }).where('id', '=', endpointId).returning('last_sequence').executeTakeFirstOrThrow();
    const sequence = Number(endpoint.last_sequence);
    const id = `msg_${randomBytes(32).toString('base64url')}`;
    await trx
      .insertInto('webhook_deliveries')
      .values({
        id,
        endpoint_id: endpointId,
        sequence,
        type: options.type ?? 'event.updated',
        data: JSON.stringify({ sequence, event: { id: 1000 + sequence }, changed: ['status'] }),
        state: 'pending',
        attempts: 0,
        next_attempt_at: now,
        lease_holder: null,
        lease_expires_at: null,
        changed_at: now,
        created_at: now,
        delivered_at: null,
      })
      .execute();
    return { id, sequence };
  });
}

/** Re-enables an endpoint as PATCH enabled=true does: its pending deliveries start over, due now. */
export async function reenableEndpoint(t: TestApp, endpointId: string): Promise<void> {
  const { db } = t.database;
  const now = t.clock.now();
  await db.updateTable('webhook_endpoints').set({ enabled: 1, disabled_reason: null, disabled_at: null, updated_at: now }).where('id', '=', endpointId).execute();
  await db.updateTable('webhook_deliveries').set({ attempts: 0, next_attempt_at: now }).where('endpoint_id', '=', endpointId).where('state', '=', 'pending').execute();
}

/** One request the receiver took: its path, headers and raw body. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP server answering each webhook with the status `answer` gives (200 unless told), recording what it got. */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** What came to one path (`${receiver.url}/name` gives each endpoint its own). */
  at(name: string): Received[];
  /** The status the next requests get, one per call, then `otherwise`. */
  answer: (received: Received) => number;
  /**
   * Down until `up()`: every connection is cut as soon as it is made, before any answer. It keeps
   * its port, which another test's server could otherwise take between down and up.
   */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const state = { down: false };
  const receiver: Receiver = {
    url: '',
    received: [],
    at: (name) => receiver.received.filter((r) => r.path === `/hooks/${name}`),
    answer: () => 200,
    async down() {
      state.down = true;
      server.closeAllConnections();
    },
    async up() {
      state.down = false;
    },
    close: () => closeServer(server),
  };
  const server = await listen(receiver, state);
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, { url: `http://127.0.0.1:${port}/hooks` });
}

/** Answers `statuses` in turn, then 200. */
export function statusesThen200(...statuses: number[]): () => number {
  const queue = [...statuses];
  return () => queue.shift() ?? 200;
}

function listen(receiver: Receiver, state: { down: boolean }): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.received.push(received);
      const status = receiver.answer(received);
      response.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
      response.end(`answered ${status}`);
    });
  });
  server.on('connection', (socket) => {
    if (state.down) socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
