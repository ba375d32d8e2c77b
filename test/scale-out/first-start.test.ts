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

describe.each(DIALECTS)('two nodes starting at once on one empty database (%s)', (dialect) => {
  it('create exactly one demo client and one JWT secret, and both serve', async () => {
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
    await Promise.all(nodes.map((node) => node.waitUntilReady(60_000)));

    const database = openDatabase(url);
    try {
      const { n } = await database.db.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(n)).toBe(1);
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
  }, 120_000);
});
