import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, configuredSecrets, loadConfig } from '../src/config.js';
import { withJwtSecret } from '../src/jwt-secret.js';

const GOOD_SECRET = 'a-jwt-secret-that-is-at-least-32-bytes-long';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** loadConfig over a complete, valid environment with these changes. */
function load(changes: Record<string, string | undefined>) {
  return loadConfig({ DATA_DIR: dataDir, JWT_SECRET: GOOD_SECRET, DATABASE_URL: 'sqlite::memory:', ...changes });
}

function refusal(changes: Record<string, string | undefined>): ConfigError {
  try {
    load(changes);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('loadConfig accepted the configuration');
}

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: GOOD_SECRET });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: 'sqlite:./data/sportsdata.db',
      jwtIssuer: 'sports-data-api',
      accessTokenTtl: 900,
      refreshTokenTtl: 2_592_000,
      adminToken: undefined,
      redisUrl: undefined,
      demoData: true,
      logLevel: 'info',
      historyRetentionDays: 730,
      streamHeartbeatMs: 15_000,
      publicUrl: undefined,
    });
    expect(config.jwtSecrets).toEqual([GOOD_SECRET]);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads HISTORY_RETENTION_DAYS and STREAM_HEARTBEAT_MS, and refuses values out of range', () => {
    expect(load({ HISTORY_RETENTION_DAYS: '90', STREAM_HEARTBEAT_MS: '500' })).toMatchObject({ historyRetentionDays: 90, streamHeartbeatMs: 500 });
    expect(refusal({ HISTORY_RETENTION_DAYS: '0' }).message).toMatch(/HISTORY_RETENTION_DAYS must be an integer from 1 to 36500/);
    expect(refusal({ STREAM_HEARTBEAT_MS: 'soon' }).message).toMatch(/STREAM_HEARTBEAT_MS/);
  });

  it('reads HEADERS_TIMEOUT and REQUEST_TIMEOUT in seconds (10 and 60 by default); the headers may not take longer than the whole request', () => {
    expect(load({})).toMatchObject({ headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 });
    expect(load({ HEADERS_TIMEOUT: '5', REQUEST_TIMEOUT: '300' })).toMatchObject({ headersTimeoutMs: 5000, requestTimeoutMs: 300_000 });
    expect(refusal({ HEADERS_TIMEOUT: '0' }).message).toMatch(/HEADERS_TIMEOUT must be an integer from 1 to 600/);
    expect(refusal({ REQUEST_TIMEOUT: '5', HEADERS_TIMEOUT: '10' }).message).toMatch(/HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT/);
  });

  it('lists the configured secrets that no log or answer may repeat: ADMIN_TOKEN, the JWT keys, the database and Redis passwords', () => {
    const previous = 'b'.repeat(32);
    const config = load({
      ADMIN_TOKEN: 'a'.repeat(32),
      JWT_PREVIOUS_SECRETS: previous,
      DATABASE_URL: 'postgres://api:p%40ss%2Fword@db.internal:5432/sportsdata',
      REDIS_URL: 'redis://:redis-secret@cache.internal:6379',
    });
    expect(configuredSecrets(config).sort()).toEqual([GOOD_SECRET, previous, 'a'.repeat(32), 'p@ss/word', 'redis-secret'].sort());
    expect(configuredSecrets(load({}))).toEqual([GOOD_SECRET]);
  });

  it('refuses a JWT_SECRET shorter than 32 bytes', () => {
    expect(refusal({ JWT_SECRET: 'x'.repeat(31) }).message).toMatch(/JWT_SECRET must be at least 32 bytes/);
  });

  it('counts JWT_SECRET in UTF-8 bytes, not characters', () => {
    // 16 characters of 2 bytes each: 32 bytes.
    expect(load({ JWT_SECRET: 'é'.repeat(16) }).jwtSecrets).toEqual(['é'.repeat(16)]);
    expect(refusal({ JWT_SECRET: 'é'.repeat(15) }).message).toMatch(/JWT_SECRET/);
  });

  it('refuses an unknown DATABASE_URL scheme', () => {
    for (const url of ['mysql://localhost/db', 'redis://localhost', './data/x.db']) {
      expect(refusal({ DATABASE_URL: url }).message).toMatch(/DATABASE_URL must start with "sqlite:" or "postgres:\/\/"/);
    }
    expect(load({ DATABASE_URL: 'postgres://u:p@localhost:5432/db' }).databaseUrl).toBe('postgres://u:p@localhost:5432/db');
    expect(load({ DATABASE_URL: 'postgresql://localhost/db' }).databaseUrl).toBe('postgresql://localhost/db');
  });

  it('refuses NODE_ENV=production without JWT_SECRET', () => {
    expect(refusal({ NODE_ENV: 'production', JWT_SECRET: undefined }).message).toMatch(/JWT_SECRET is required when NODE_ENV=production/);
    expect(refusal({ NODE_ENV: 'production', JWT_SECRET: '' }).message).toMatch(/JWT_SECRET is required/);
  });

  it('refuses a bad PORT', () => {
    for (const port of ['abc', '-1', '70000', '80.5', '8080x']) expect(refusal({ PORT: port }).message).toMatch(/PORT must be an integer from 0 to 65535/);
    expect(load({ PORT: '3000' }).port).toBe(3000);
  });

  it('refuses bad TTLs, log levels, booleans and a short ADMIN_TOKEN', () => {
    expect(refusal({ ACCESS_TOKEN_TTL: '0' }).message).toMatch(/ACCESS_TOKEN_TTL/);
    expect(refusal({ REFRESH_TOKEN_TTL: 'forever' }).message).toMatch(/REFRESH_TOKEN_TTL/);
    expect(refusal({ LOG_LEVEL: 'loud' }).message).toMatch(/LOG_LEVEL/);
    expect(refusal({ DEMO_DATA: 'maybe' }).message).toMatch(/DEMO_DATA/);
    expect(refusal({ ADMIN_TOKEN: 'short' }).message).toMatch(/ADMIN_TOKEN must be at least 32 bytes/);
  });

  it('takes PUBLIC_URL as an http(s) origin, without a trailing slash; refuses a path, query, fragment or user info', () => {
    expect(load({ PUBLIC_URL: 'https://api.example.com' }).publicUrl).toBe('https://api.example.com');
    expect(load({ PUBLIC_URL: 'https://API.Example.com:443/' }).publicUrl).toBe('https://api.example.com');
    expect(load({ PUBLIC_URL: 'http://127.0.0.1:8080' }).publicUrl).toBe('http://127.0.0.1:8080');
    expect(load({ PUBLIC_URL: '' }).publicUrl).toBeUndefined();
    for (const url of ['api.example.com', 'ftp://api.example.com', 'https://api.example.com/v1', 'https://api.example.com/?a=1', 'https://api.example.com?', 'https://api.example.com#x', 'https://user:pw@api.example.com', '/relative']) {
      expect(refusal({ PUBLIC_URL: url }).message, url).toMatch(/PUBLIC_URL must be an absolute http\(s\) origin/);
    }
  });

  it('lists every problem at once, and never echoes a secret', () => {
    const message = refusal({ JWT_SECRET: 'too-short-secret', PORT: 'x', DATABASE_URL: 'mysql://h/db' }).message;
    expect(message).toMatch(/JWT_SECRET/);
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).not.toContain('too-short-secret');
  });

  it('reads the environment and nothing else: without JWT_SECRET no secret is generated and no file is written', () => {
    const fresh = join(dataDir, 'untouched');
    const config = loadConfig({ DATA_DIR: fresh, DATABASE_URL: 'sqlite::memory:' });
    expect(config.jwtSecrets).toEqual([]);
    expect(existsSync(fresh)).toBe(false);
  });

  it('outside production a serving process generates the JWT secret once into DATA_DIR/jwt-secret (0600) and reuses it', () => {
    const dir = join(dataDir, 'served');
    const first = withJwtSecret(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'sqlite::memory:' }));
    const file = join(dir, 'jwt-secret');
    expect(first.jwtSecrets).toHaveLength(1);
    expect(Buffer.byteLength(first.jwtSecrets[0] ?? '', 'utf8')).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecrets[0]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.isFrozen(first)).toBe(true);

    const again = withJwtSecret(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'sqlite::memory:' }));
    expect(again.jwtSecrets).toEqual(first.jwtSecrets);
  });

  it('a PostgreSQL-backed node generates no JWT secret outside development: NODE_ENV must be development or test by name', () => {
    const postgres = (nodeEnv: string | undefined) =>
      loadConfig({ DATA_DIR: join(dataDir, 'pg'), DATABASE_URL: 'postgres://u:p@db.internal:5432/sportsdata', NODE_ENV: nodeEnv });
    for (const nodeEnv of [undefined, '', 'staging', 'production-eu']) {
      expect(() => withJwtSecret(postgres(nodeEnv)), String(nodeEnv)).toThrow(ConfigError);
      expect(() => withJwtSecret(postgres(nodeEnv))).toThrow(/^Invalid configuration: JWT_SECRET is required to serve from PostgreSQL/);
    }
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);
    for (const nodeEnv of ['development', 'test']) expect(withJwtSecret(postgres(nodeEnv)).jwtSecrets, nodeEnv).toHaveLength(1);
    // SQLite keeps the quick start: one node, one data directory.
    expect(withJwtSecret(loadConfig({ DATA_DIR: join(dataDir, 'lite'), DATABASE_URL: 'sqlite::memory:' })).jwtSecrets).toHaveLength(1);
    // With JWT_SECRET set, PostgreSQL serves in any environment.
    expect(withJwtSecret(load({ DATABASE_URL: 'postgres://u:p@db.internal:5432/sportsdata', NODE_ENV: 'staging' })).jwtSecrets).toEqual([GOOD_SECRET]);
  });

  it('one problem is one line; several are listed one per line', () => {
    expect(refusal({ PORT: 'x' }).message).toBe('Invalid configuration: PORT must be an integer from 0 to 65535');
    expect(refusal({ PORT: 'x', LOG_LEVEL: 'loud' }).message.split('\n')).toHaveLength(3);
  });

  it('a configured JWT_SECRET is used as it is, and no file is written', () => {
    const dir = join(dataDir, 'configured');
    const config = load({ DATA_DIR: dir });
    expect(withJwtSecret(config)).toBe(config);
    expect(existsSync(dir)).toBe(false);
  });

  it('the real server exits with code 1 and a clear message, without a stack trace, on a bad JWT_SECRET', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, JWT_SECRET: 'short', DATABASE_URL: 'sqlite::memory:', DATA_DIR: dataDir, NODE_ENV: 'development' };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/JWT_SECRET must be at least 32 bytes/);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain('ConfigError');
    expect(stdout).toBe('');
  });
});

describe('configuration: the upstream feed', () => {
  const KEY = 'an-upstream-key-0123456789abcdef';

  it('is off without UPSTREAM_URL, and reads the URL, key, sports, regions, markets and interval with it', () => {
    expect(load({}).upstream).toBeUndefined();
    expect(load({ UPSTREAM_URL: 'https://api.the-odds-api.com/', UPSTREAM_API_KEY: KEY, UPSTREAM_SPORTS: 'soccer_epl, basketball_nba' }).upstream).toEqual({
      url: 'https://api.the-odds-api.com',
      apiKey: KEY,
      sports: ['soccer_epl', 'basketball_nba'],
      regions: 'uk,eu',
      markets: 'h2h,spreads,totals',
      intervalMs: 300_000,
      timeoutMs: 10_000,
    });
  });

  it('refuses a URL with a query or user info (a key there would escape the redaction), and no sports', () => {
    expect(refusal({ UPSTREAM_URL: `https://api.the-odds-api.com/?apiKey=${KEY}`, UPSTREAM_SPORTS: 'soccer_epl' }).message).toContain('UPSTREAM_URL must be');
    expect(refusal({ UPSTREAM_URL: 'https://user:pw@upstream.example', UPSTREAM_SPORTS: 'soccer_epl' }).message).toContain('UPSTREAM_URL must be');
    expect(refusal({ UPSTREAM_URL: 'https://upstream.example' }).message).toContain('UPSTREAM_SPORTS must list');
    expect(refusal({ UPSTREAM_SPORTS: 'soccer_epl' }).message).toContain('need UPSTREAM_URL');
    expect(refusal({ UPSTREAM_URL: 'https://upstream.example', UPSTREAM_SPORTS: 'soccer_epl', UPSTREAM_INTERVAL_S: '1' }).message).toContain('UPSTREAM_INTERVAL_S must be an integer from 5');
  });

  it('counts the key among the secrets no logged URL repeats', () => {
    expect(configuredSecrets(load({ UPSTREAM_URL: 'https://upstream.example', UPSTREAM_API_KEY: KEY, UPSTREAM_SPORTS: 'soccer_epl' }))).toContain(KEY);
  });
});
