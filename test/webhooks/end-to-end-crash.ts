import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { type DIALECTS, freshDatabaseUrl } from '../helpers/app.js';
import { eventually, type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { WEBHOOK_ENV } from '../helpers/webhooks.js';
import { historyDataset, odds } from '../history/fixture.js';
import { admin, call, onboard } from '../scale-out/api.js';

interface Got {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver that, while `holding`, takes requests and never answers them (a node dies
 * mid-delivery), else answers 200; or, made `listening: false`, refuses connections until `up()`.
 */
async function crashReceiver(listening: boolean) {
  const state = { holding: listening, received: [] as Got[], answered: [] as Got[] };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      state.received.push(got);
      if (state.holding) return;
      state.answered.push(got);
      response.writeHead(200, { connection: 'close' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  if (!listening) await close();
  const up = async () => {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
  };
  return Object.assign(state, { url: `http://127.0.0.1:${port}/hooks`, up, close: () => (server.listening ? close() : Promise.resolve()) });
}

const sequenceOf = (got: Got) => (JSON.parse(got.body) as { data: { sequence: number } }).data.sequence;

/**
 * kill -9 of a node between an import's commit and its delivery, then a restart on the same
 * database: `held`, the node dies while the receiver holds its first delivery open (the restarted
 * node sends it again once its lease ends, LEASE_MARGIN_MS after the deadline); `refused`, the
 * receiver is not listening until after the kill.
 */
export function crashThenRestart(dialect: (typeof DIALECTS)[number], mode: 'held' | 'refused'): void {
  let dataDir = '';
  let drop: () => Promise<void> = async () => {};
  let env: Record<string, string> = {};
  const started: NodeProcess[] = [];
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-webhooks-crash-'));
    const shared = dialect === 'postgres' ? await freshDatabaseUrl('postgres') : undefined;
    drop = shared?.drop ?? drop;
    const { CHECK_ENDPOINT_KEY: _older, ...base } = nodeEnv(dataDir, {
      ...WEBHOOK_ENV,
      // The held delivery's lease is the deadline and 30 s more: the restarted node sends it again once the lease expires, within the test's wait.
      WEBHOOK_TIMEOUT_MS: '2000',
      DEMO_TICKER_PER_SECOND: '0', ...(shared ? { DATABASE_URL: shared.url } : {}) });
    // One key (ENCRYPTION_KEY) for every node: its older name set beside it to another key is refused.
    env = base;
  }, 60_000);
  afterAll(async () => {
    for (const node of started) await node.stop(2000);
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = async () => {
    const node = await startNode({ env });
    started.push(node);
    await node.waitUntilReady(60_000);
    return node;
  };

  it('loses nothing: after a restart the receiver gets every change, each sequence once (a retry keeps its id)', async () => {
    const receiver = await crashReceiver(mode === 'held');
    try {
      const first = await start();
      const { apiKey } = await onboard(first.url);
      const created = await call(first.url, 'POST', '/v1/webhooks', { 'x-api-key': apiKey }, { url: receiver.url, event_types: ['odds.changed'] });
      expect(created.status).toBe(201);
      const secret = String(created.body.secret);

      expect((await admin(first.url, 'POST', '/admin/v1/import', historyDataset(Date.now()))).status).toBe(200);
      // The node is sending the first delivery (the receiver holds it), or has been refused it; a second import commits meanwhile.
      if (mode === 'held') expect(await eventually(async () => receiver.received.length > 0, 20_000)).toBe(true);
      expect((await admin(first.url, 'POST', '/admin/v1/import', { odds: [odds(5, 200, 1, 1, 'home', 1.65), odds(6, 200, 2, 1, 'away', 2.4)] })).status).toBe(200);
      first.child.kill('SIGKILL');
      await first.exited;
      receiver.holding = false;
      if (mode === 'refused') await receiver.up();

      const database = openDatabase(String(env.DATABASE_URL));
      try {
        const history = (await database.db.selectFrom('odds_history').select('id').orderBy('id').execute()).map((row) => Number(row.id));
        const carried = () => receiver.answered.flatMap((got) => (JSON.parse(got.body) as { data: { changes: Array<{ id: number }> } }).data.changes.map((c) => c.id));
        await start();
        expect(await eventually(async () => carried().length >= history.length, 40_000, 100)).toBe(true);
        expect(carried()).toEqual(history);

        // Each sequence answered once, in order; a sequence sent again (the one held when the node died) keeps its webhook-id.
        expect(receiver.answered.map(sequenceOf)).toEqual(receiver.answered.map((_, i) => i + 1));
        const idOf = new Map<number, string>();
        for (const got of receiver.received) {
          const id = String(got.headers['webhook-id']);
          expect(idOf.get(sequenceOf(got)) ?? id).toBe(id);
          idOf.set(sequenceOf(got), id);
        }
        if (mode === 'held') expect(receiver.received.filter((got) => sequenceOf(got) === 1).length).toBeGreaterThanOrEqual(2);
        for (const got of receiver.answered) expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toBeTruthy();
        // The node records a delivery as delivered once its 2xx comes back, after the receiver has
        // taken the body: on a busy machine that lands a moment after the last body arrived.
        const pending = () => database.db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'pending').execute();
        await eventually(async () => (await pending()).length === 0, 20_000, 100);
        expect(await pending()).toEqual([]);
        // Nothing was left to send again: the receiver still holds each change exactly once.
        expect(carried()).toEqual(history);
      } finally {
        await database.close();
      }
    } finally {
      await receiver.close();
    }
  }, 120_000);
}
