import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { TEST_JWT_SECRET } from '../helpers/app.js';
import { TEST_CHECK_ENDPOINT_KEY } from '../helpers/node-process.js';
import { freePort } from '../helpers/free-port.js';
import { type Exited, linesOf, runProcess } from '../helpers/process.js';

/**
 * A start-up that cannot succeed prints one line saying why on stderr and exits with a
 * non-zero code — no stack trace, no password. Each case runs the real server process.
 */
describe('start-up failures of the real server', () => {
  let dir: string;
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sportsdata-startup-'));
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const address = busy.address();
    busyPort = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await new Promise((resolve) => busy.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const postgresUrl = (database: string, port?: number) => {
    const url = new URL(inject('postgresUrl'));
    url.pathname = `/${database}`;
    if (port !== undefined) url.port = String(port);
    return url.toString();
  };

  function expectOneLine(result: Exited, pattern: RegExp): void {
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(1);
    const lines = linesOf(result.stderr);
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^cannot start: /);
    expect(lines[0]).toMatch(pattern);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    // The test server's password is "postgres": the line names the server, never the credentials.
    expect(result.stderr).not.toContain('postgres:postgres@');
  }

  const env = (changes: Record<string, string>) => ({ JWT_SECRET: TEST_JWT_SECRET, CHECK_ENDPOINT_KEY: TEST_CHECK_ENDPOINT_KEY, DEMO_DATA: 'false', LOG_LEVEL: 'silent', DATA_DIR: dir, HOST: '127.0.0.1', ...changes });

  it('a busy port', async () => {
    const result = await runProcess('server', [], { env: env({ PORT: String(busyPort), DATABASE_URL: `sqlite:${join(dir, 'busy.db')}` }) });
    expectOneLine(result, new RegExp(`127\\.0\\.0\\.1:${busyPort} is already in use.*set PORT`));
  });

  it('an unreachable PostgreSQL server', async () => {
    const nobody = await freePort();
    const result = await runProcess('server', [], { env: env({ PORT: '0', DATABASE_URL: postgresUrl('postgres', nobody) }) });
    expectOneLine(result, new RegExp(`cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${nobody}: .*ECONNREFUSED`));
  });

  it('a PostgreSQL database that does not exist', async () => {
    const name = `missing_${randomBytes(4).toString('hex')}`;
    const result = await runProcess('server', [], { env: env({ PORT: '0', DATABASE_URL: postgresUrl(name) }) });
    expectOneLine(result, new RegExp(`the PostgreSQL database "${name}" does not exist on .*: create it first \\(createdb ${name}, or npx sportsdata migrate --create\\)`));
  });

  it('PostgreSQL without JWT_SECRET outside development, before touching the database', async () => {
    // NODE_ENV unset and NODE_ENV=staging both refuse; the database named does not even exist.
    for (const nodeEnv of [{}, { NODE_ENV: 'staging' }] as Array<Record<string, string>>) {
      const { JWT_SECRET: _secret, ...rest } = env({ PORT: '0', DATABASE_URL: postgresUrl(`missing_${randomBytes(4).toString('hex')}`), ...nodeEnv });
      const result = await runProcess('server', [], { env: rest });
      expectOneLine(result, /JWT_SECRET is required to serve from PostgreSQL \(every node must sign with the same key\)/);
    }
  });

  it('PostgreSQL without ENCRYPTION_KEY (or CHECK_ENDPOINT_KEY) outside development, before touching the database', async () => {
    const { CHECK_ENDPOINT_KEY: _key, ...rest } = env({ PORT: '0', DATABASE_URL: postgresUrl(`missing_${randomBytes(4).toString('hex')}`) });
    const result = await runProcess('server', [], { env: rest });
    expectOneLine(result, /ENCRYPTION_KEY is required to serve from PostgreSQL \(every node must read the tokens and secrets the others stored\)/);
  });

  it('an invalid configuration', async () => {
    const result = await runProcess('server', [], { env: env({ PORT: 'eighty', DATABASE_URL: 'sqlite::memory:' }) });
    expectOneLine(result, /Invalid configuration: PORT must be an integer from 0 to 65535/);
  });
});
