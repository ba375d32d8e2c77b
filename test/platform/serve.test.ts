import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { manualClock } from '../../src/platform/clock.js';
import { startServer } from '../../src/serve.js';
import { DIALECTS, freshDatabaseUrl, openTestDatabase, TEST_JWT_SECRET } from '../helpers/app.js';
import { harness } from '../helpers/harness.js';

describe.each(DIALECTS)('the serving process: what it creates, starts and stops (%s)', (dialect) => {
  let dataDir: string;
  let databaseUrl: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-serve-'));
    // A file, not :memory:, so that the second start sees the first one's database.
    ({ url: databaseUrl, drop } = dialect === 'sqlite' ? { url: `sqlite:${join(dataDir, 'db.sqlite')}`, drop: async () => {} } : await freshDatabaseUrl(dialect));
  });
  afterAll(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // Development: without JWT_SECRET a PostgreSQL-backed node serves only there (decision 0083).
  const env = () => ({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: '0', DEMO_DATA: 'false', DEMO_TICKER_PER_SECOND: '0', LOG_LEVEL: 'silent', NODE_ENV: 'development' });

  it('generates the JWT secret once, runs its background jobs while it serves, and stops everything on close', async () => {
    const signals = process.listenerCount('SIGTERM');
    const first = await startServer(loadConfig(env()));
    const secret = readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim();
    expect(first.ctx.config.jwtSecrets).toEqual([secret]);
    expect(first.ctx.background.running).toBe(true);
    expect(process.listenerCount('SIGTERM')).toBe(signals + 1);
    const address = first.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    await first.close();
    expect(first.ctx.background.running).toBe(false);
    expect(process.listenerCount('SIGTERM')).toBe(signals);

    const second = await startServer(loadConfig(env()));
    expect(second.ctx.config.jwtSecrets).toEqual([secret]);
    await second.close();
  });
});

describe.each(DIALECTS)('apps and their context (%s)', (dialect) => {
  it('building an app starts no background work: two apps on one context leave nothing running', async () => {
    const { database, close } = await openTestDatabase(dialect);
    const ctx = createContext({ config: loadConfig({ DATABASE_URL: 'sqlite::memory:', JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent' }), database });
    const apps = [await buildApp(ctx), await buildApp(ctx)];
    expect(ctx.background.running).toBe(false);
    // The process's metrics (an event-loop delay monitor, a GC observer) come with the background jobs.
    expect(ctx.metrics.registry.getSingleMetric('nodejs_eventloop_lag_seconds')).toBeUndefined();
    for (const app of apps) await app.close();
    await close();
  });

  it("the test app's clock is the clock the app runs on, also when the test passes one in", async () => {
    const clock = manualClock(Date.parse('2030-01-01T00:00:00Z'));
    const t = await harness({ dialect, clock });
    try {
      expect(t.clock).toBe(clock);
      expect(t.ctx.clock).toBe(clock);
      const { claims } = t.ctx.keyring.sign({ client_id: '0b9e4f3a-6c1d-4f0e-9a55-2f1e8c7d6b5a', tenant_id: '0b9e4f3a-6c1d-4f0e-9a55-2f1e8c7d6b5b', tier: 'pro', cred: '0b9e4f3a-6c1d-4f0e-9a55-2f1e8c7d6b5c', gen: 1 });
      expect(claims.iat).toBe(Date.parse('2030-01-01T00:00:00Z') / 1000);
    } finally {
      await t.close();
    }
  });
});
