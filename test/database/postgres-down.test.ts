import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../helpers/harness.js';
import { apiKeyLogin, pairOf } from '../auth/auth-helpers.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../helpers/embedded-postgres.js';
import { smallDataset } from '../import/fixture.js';
import { expectUnavailable } from '../helpers/unavailable.js';

// With PostgreSQL down, /readyz and every request that needed the database
// answered 500. A private server is stopped here: the run's shared server must stay up.
describe('PostgreSQL down, then back', () => {
  let server: EmbeddedPostgres;
  let t: Harness;
  let client: OnboardedClient;
  let bearer: string;
  const sports = () => t.as({ headers: { authorization: bearer } }).get('/v1/references/sports');

  beforeAll(async () => {
    server = await startEmbeddedPostgres();
    t = await harness({ dialect: 'postgres', databaseUrl: server.url });
    await t.import({ sports: smallDataset().sports });
    client = await t.client();
    bearer = `Bearer ${pairOf(await apiKeyLogin(t, client.apiKey)).access_token}`;
    // Served once from the database: the page and the client's account are now in memory.
    expect((await sports()).statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close().catch(() => {});
    await server?.remove();
  });

  it('answers 503 with Retry-After where the database is needed, serves what is in memory, and recovers without a restart', async () => {
    await server.stop();

    expectUnavailable(await t.anonymous.get('/readyz'));
    expectUnavailable(await apiKeyLogin(t, client.apiKey));
    expectUnavailable(await t.as({ headers: { authorization: bearer } }).get('/v1/references/leagues'));
    expect((await t.anonymous.get('/healthz')).statusCode).toBe(200);
    expect((await sports()).statusCode).toBe(200);

    await server.start();
    // The pool replaces the connections the shutdown ended; no restart of the app.
    const ready = await t.anonymous.get('/readyz');
    expect(ready.statusCode, ready.body).toBe(200);
    pairOf(await apiKeyLogin(t, client.apiKey));
  }, 60_000);
});
