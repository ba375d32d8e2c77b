import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoCredentialsFile } from '../../src/modules/demo/index.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/app.js';
import { type NodeProcess, startNode } from '../helpers/node-process.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function post(node: NodeProcess, path: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${node.url}${path}`, { method: 'POST', headers });
}

/**
 * Each node makes the full demo dataset from the machine's clock before it serves (a minute and
 * more on a busy two-core machine, for two at once): nothing asserted depends on the day, only on
 * what the nodes stored, and readiness is waited for, however long the import takes.
 */
const READY_MS = 200_000;

describe.each(DIALECTS)('two nodes starting at once on one empty database (%s)', (dialect) => {
  it('create exactly one demo client, one JWT secret and one demo dataset, and both serve', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-first-start-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let url = `sqlite:${join(dataDir, 'sportsdata.db')}`;
    if (dialect === 'postgres') {
      const fresh = await freshDatabaseUrl('postgres');
      cleanups.push(fresh.drop);
      url = fresh.url;
    }
    // No JWT_SECRET: outside production each node generates one into the shared data directory.
    const env = { DATABASE_URL: url, DATA_DIR: dataDir, DEMO_DATA: 'true', NODE_ENV: 'development' };
    const nodes = await Promise.all([startNode({ env }), startNode({ env })]);
    for (const node of nodes) cleanups.push(async () => void (await node.stop()));
    await Promise.all(nodes.map((node) => node.waitUntilReady(READY_MS)));

    // One node imported the dataset it made; the other found the database filled. The log is
    // written asynchronously: on a busy machine its line may reach the pipe after /readyz answers.
    const seededLine = (line: { msg?: unknown }) => line.msg === 'generated the demo dataset';
    await Promise.any(nodes.map((node) => node.waitForLog(seededLine, 30_000)));
    const seeded = nodes.flatMap((node) => node.logs().filter(seededLine));
    expect(seeded).toHaveLength(1);
    const upserted = seeded[0]?.upserted as Record<string, number> | undefined;
    const database = openDatabase(url);
    try {
      const count = async (table: 'clients' | 'events' | 'odds' | 'flows') => Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      expect(await count('clients')).toBe(1);
      // The matchups' events and the competitions' (decision 0331): both are events rows.
      expect({ events: await count('events'), odds: await count('odds'), flows: await count('flows') }).toEqual({
        events: (upserted?.events ?? 0) + (upserted?.competitions ?? 0),
        odds: upserted?.odds,
        flows: upserted?.flows,
      });
      expect(upserted?.competitions).toBe(61);
    } finally {
      await database.close();
    }
    const demo = JSON.parse(readFileSync(demoCredentialsFile(dataDir, url), 'utf8')) as { api_key: string };
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const login = await post(a, '/v1/auth/login', { 'x-api-key': demo.api_key });
    expect(login.status).toBe(200);
    expect((await post(b, '/v1/auth/login', { 'x-api-key': demo.api_key })).status).toBe(200);
    // One secret: a token of one node is good on the other.
    const { access_token } = (await login.json()) as { access_token: string };
    expect((await fetch(`${b.url}/v1/account/config`, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(200);
    // The first start's competitions: listed, and the tournament not over yet (on the machine's clock: scheduled, or live from Thursday to Sunday) on the board when asked for.
    const authorization = `Bearer ${access_token}`;
    const listed = await fetch(`${b.url}/v1/competitions?type=tournament`, { headers: { authorization } });
    expect(listed.status).toBe(200);
    const golf = ((await listed.json()) as { results: Array<{ id: number; status: string }> }).results.find((c) => c.status !== 'final');
    expect(golf).toBeDefined();
    const board = await fetch(`${b.url}/v1/odds/board`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ event_kinds: ['competition'], event_ids: [golf?.id] }),
    });
    expect(board.status).toBe(200);
    expect(((await board.json()) as { results: Array<{ event_id: number }> }).results.map((r) => r.event_id)).toContain(golf?.id);
  }, READY_MS + 60_000);
});
