import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabaseUrl, TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from '../helpers/app.js';
import { type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';

const PREVIOUS_JWT_SECRET = 'an-older-signing-key-still-accepted-for-verification';
const REDIS_PASSWORD = 'the-redis-password-nobody-may-read';

/** Every character percent-encoded, as a client library may send it; the same secret to anyone who decodes the log. */
const encodedWhole = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

/**
 * A configured secret (ADMIN_TOKEN, JWT_SECRET and its predecessors, the passwords in DATABASE_URL
 * and REDIS_URL) never reaches the log, wherever a client puts it in a URL: a path segment, a
 * query parameter of any name, percent-encoded or not. Through the real server process and the
 * lines it writes to stdout.
 */
describe.each(DIALECTS)('configured secrets in URLs never reach the log (%s)', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-log-secrets-'));
  let node: NodeProcess;
  let dropDatabase = async () => {};
  let databasePassword: string | undefined;

  beforeAll(async () => {
    const changes: Record<string, string> = {
      JWT_PREVIOUS_SECRETS: PREVIOUS_JWT_SECRET,
      // Nothing listens there: the node serves on without Redis, and its password is still a secret.
      REDIS_URL: `redis://:${REDIS_PASSWORD}@127.0.0.1:9`,
    };
    if (dialect === 'postgres') {
      const { url, drop } = await freshDatabaseUrl('postgres');
      dropDatabase = drop;
      changes.DATABASE_URL = url;
      databasePassword = decodeURIComponent(new URL(url).password) || undefined;
    }
    node = await startNode({ env: nodeEnv(dataDir, changes) });
    await node.waitUntilReady();
  });
  afterAll(async () => {
    await node?.stop();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Sends a GET and returns the URL the server logged for it (its "incoming request" line, by request id). */
  async function loggedUrl(path: string): Promise<{ url: string; status: number; body: string }> {
    const res = await fetch(`${node.url}${path}`);
    const body = await res.text();
    const requestId = res.headers.get('x-request-id');
    const line = await node.waitForLog((l) => l.msg === 'incoming request' && l.request_id === requestId);
    return { url: (line.req as { url: string }).url, status: res.status, body };
  }

  it('redacts ADMIN_TOKEN in a path segment, in a query value of any name, percent-encoded or cut into the middle of a value', async () => {
    const paths = [
      `/admin/v1/${TEST_ADMIN_TOKEN}`,
      `/admin/v1/clients/${TEST_ADMIN_TOKEN}`,
      `/v1/references/sports?search=${TEST_ADMIN_TOKEN}&page=1`,
      `/v1/references/sports?note=${encodedWhole(TEST_ADMIN_TOKEN)}`,
      `/v1/references/sports?note=before${encodeURIComponent(TEST_ADMIN_TOKEN)}after`,
      `/healthz?x=${TEST_JWT_SECRET.replaceAll('-', '%2D')}`,
      `/healthz/${encodeURIComponent(PREVIOUS_JWT_SECRET)}`,
      `/healthz?${REDIS_PASSWORD}=1`,
    ];
    for (const path of paths) {
      const { url, status, body } = await loggedUrl(path);
      expect(url, path).toContain('[redacted]');
      for (const secret of [TEST_ADMIN_TOKEN, TEST_JWT_SECRET, PREVIOUS_JWT_SECRET, REDIS_PASSWORD]) {
        expect(decodeURIComponent(url).includes(secret), `${path} logged as ${url}`).toBe(false);
        // A 404 names the path it did not find: without the secret, since answers may be logged on their way too.
        if (status === 404) expect(decodeURIComponent(body).includes(secret), `${path} answered ${body}`).toBe(false);
      }
    }
    expect((await loggedUrl(`/admin/v1/${TEST_ADMIN_TOKEN}`)).url).toBe('/admin/v1/[redacted]');
    expect((await loggedUrl(`/v1/references/sports?search=${TEST_ADMIN_TOKEN}&page=1`)).url).toBe('/v1/references/sports?search=[redacted]&page=1');
  });

  // Only a PostgreSQL DATABASE_URL carries a password: on SQLite there is no such case, rather than a skipped one.
  if (dialect === 'postgres') {
    describe("DATABASE_URL's password", () => {
      it('is redacted as a whole path segment or query value', async () => {
        const password = databasePassword ?? '';
        expect(password).not.toBe('');
        expect((await loggedUrl(`/v1/references/sports?search=${encodeURIComponent(password)}`)).url).toBe('/v1/references/sports?search=[redacted]');
        expect((await loggedUrl(`/${encodeURIComponent(password)}/x`)).url).toBe('/[redacted]/x');
      });
    });
  }

  it('the whole log holds none of them, in any of the forms sent', () => {
    const logs = node
      .logs()
      .map((line) => JSON.stringify(line))
      .join('\n');
    for (const secret of [TEST_ADMIN_TOKEN, TEST_JWT_SECRET, PREVIOUS_JWT_SECRET, REDIS_PASSWORD]) {
      for (const form of [secret, encodeURIComponent(secret), encodedWhole(secret), secret.replaceAll('-', '%2D')]) {
        expect(logs.includes(form), `${secret.slice(0, 8)}… is in the log`).toBe(false);
      }
    }
  });

  it('keeps data keys readable: sport_key, league_key and the like are not secrets', async () => {
    const path = '/v1/references/leagues?sport_key=basketball&league_key=nba&team_key=lakers&page=1';
    expect((await loggedUrl(path)).url).toBe(path);
    // Names that do carry credentials are still hidden.
    expect((await loggedUrl('/v1/references/sports?api_key=abc&access_token=def&key=ghi&page=1')).url).toBe(
      '/v1/references/sports?api_key=[redacted]&access_token=[redacted]&key=[redacted]&page=1',
    );
  });
});
