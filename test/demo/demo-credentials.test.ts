import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type DemoCredentials, demoCredentialsFile, ensureDemoClient } from '../../src/modules/demo/index.js';
import { startServer } from '../../src/serve.js';
import { sportsdata } from '../cli/cli-helpers.js';
import { TEST_JWT_SECRET } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;

/**
 * Each database writes its own demo credentials file (the README's
 * `./data/demo-credentials.json` stays the default SQLite database's), always mode 0600.
 */
describe('the demo credentials file', () => {
  let dir: string;
  let sqlite: Harness;
  let postgres: Harness;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sportsdata-demo-credentials-'));
    [sqlite, postgres] = await Promise.all([harness({ dialect: 'sqlite' }), harness({ dialect: 'postgres' })]);
  });
  afterAll(async () => {
    await Promise.all([sqlite.close(), postgres.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is named after its database: demo-credentials.json for the default SQLite database, demo-credentials-<name>.json otherwise', () => {
    expect(demoCredentialsFile('./data', 'sqlite:./data/sportsdata.db')).toBe('data/demo-credentials.json');
    expect(demoCredentialsFile('/srv/x', 'sqlite:/srv/x/sportsdata.db')).toBe('/srv/x/demo-credentials.json');
    expect(demoCredentialsFile('/srv/x', 'sqlite:/srv/x/bench.sqlite')).toBe('/srv/x/demo-credentials-bench.json');
    expect(demoCredentialsFile('./data', 'postgres://u:p@db.internal:5432/sportsdata')).toBe('data/demo-credentials-sportsdata.json');
    expect(demoCredentialsFile('./data', 'postgres://u:p@db.internal/odd%20name')).toBe('data/demo-credentials-odd_name.json');
  });

  it('starting on PostgreSQL after SQLite, in the same DATA_DIR, keeps the SQLite credentials and writes its own file', async () => {
    const sqliteUrl = `sqlite:${join(dir, 'sportsdata.db')}`;
    const sqliteFile = await ensureDemoClient({ clients: sqlite.ctx.clients, dataDir: dir, databaseUrl: sqliteUrl });
    expect(sqliteFile).toBe(join(dir, 'demo-credentials.json'));
    const first = readFileSync(join(dir, 'demo-credentials.json'), 'utf8');

    const postgresFile = await ensureDemoClient({ clients: postgres.ctx.clients, dataDir: dir, databaseUrl: postgres.config.databaseUrl });
    const name = new URL(postgres.config.databaseUrl).pathname.slice(1);
    expect(postgresFile).toBe(join(dir, `demo-credentials-${name}.json`));
    expect(readFileSync(join(dir, 'demo-credentials.json'), 'utf8')).toBe(first);

    // Each file names its database (never with a password) and holds that database's client.
    expect(read(join(dir, 'demo-credentials.json'))).toMatchObject({ database: sqliteUrl, client_id: expect.any(String) });
    const pgCredentials = read(join(dir, `demo-credentials-${name}.json`));
    expect(pgCredentials.database).toMatch(new RegExp(`^postgres://[^:@/]+:\\d+/${name}$`));
    expect((await postgres.ctx.clients.get(pgCredentials.client_id)).name).toBe('Demo client');
    expect(modeOf(join(dir, `demo-credentials-${name}.json`))).toBe(0o600);
  });

  it('is 0600 even when a file with wider permissions was there, and holds the new credentials', async () => {
    const other = await harness({ dialect: 'sqlite' });
    try {
      const sub = mkdtempSync(join(dir, 'open-'));
      const file = join(sub, 'demo-credentials.json');
      writeFileSync(file, '{"stale":true}\n', { mode: 0o644 });
      chmodSync(file, 0o666);
      expect(await ensureDemoClient({ clients: other.ctx.clients, dataDir: sub, databaseUrl: `sqlite:${join(sub, 'sportsdata.db')}` })).toBe(file);
      expect(modeOf(file)).toBe(0o600);
      expect(read(file)).toMatchObject({ api_key: expect.stringMatching(/^sdk_/), client_secret: expect.stringMatching(/^sds_/) });
      expect(read(file)).not.toHaveProperty('stale');
    } finally {
      await other.close();
    }
  });

  it('the serving process writes the file of the database it serves', async () => {
    const sub = mkdtempSync(join(dir, 'served-'));
    const env = { DATABASE_URL: `sqlite:${join(sub, 'served.db')}`, DATA_DIR: sub, JWT_SECRET: TEST_JWT_SECRET };
    // A database with sports data already: the server creates the demo client and keeps the data.
    writeFileSync(join(sub, 'tiny.json'), JSON.stringify({ sports: [{ id: 1, key: 'curling', name: 'Curling' }] }));
    expect((await sportsdata(env, 'migrate', '--create')).code).toBe(0);
    expect((await sportsdata(env, 'import', join(sub, 'tiny.json'))).code).toBe(0);
    const server = await startServer(loadConfig({ ...env, PORT: '0', LOG_LEVEL: 'silent', DEMO_DATA: 'true', DEMO_TICKER_PER_SECOND: '0' }));
    await server.close();
    const file = join(sub, 'demo-credentials-served.json');
    expect(read(file)).toMatchObject({ database: env.DATABASE_URL, name: 'Demo client', auth_method: 'both', tier: 'pro' });
    expect(modeOf(file)).toBe(0o600);
    expect(existsSync(join(sub, 'demo-credentials.json'))).toBe(false);
  });
});
