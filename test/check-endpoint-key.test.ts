import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withCheckEndpointKey } from '../src/check-endpoint-key.js';
import { ConfigError, loadConfig } from '../src/config.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-check-key-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const SECRET = 'a-jwt-secret-that-is-at-least-32-bytes-long';

describe('CHECK_ENDPOINT_KEY', () => {
  it('takes 32 bytes as hex or base64, and refuses anything else', () => {
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ JWT_SECRET: SECRET, CHECK_ENDPOINT_KEY: hex }).checkEndpointKey?.toString('hex')).toBe(hex);
    expect(loadConfig({ JWT_SECRET: SECRET, CHECK_ENDPOINT_KEY: Buffer.alloc(32, 7).toString('base64') }).checkEndpointKey).toEqual(Buffer.alloc(32, 7));
    for (const bad of ['short', 'ab'.repeat(31), Buffer.alloc(16).toString('base64')]) {
      expect(() => loadConfig({ JWT_SECRET: SECRET, CHECK_ENDPOINT_KEY: bad }), bad).toThrow(/CHECK_ENDPOINT_KEY must be 32 bytes/);
    }
  });

  it('is required in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET })).toThrow(/CHECK_ENDPOINT_KEY is required when NODE_ENV=production/);
  });

  it('is generated once into DATA_DIR/check-endpoint-key (0600) outside production on SQLite, and reused', () => {
    const dir = join(dataDir, 'served');
    const first = withCheckEndpointKey(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'sqlite::memory:' }));
    const file = join(dir, 'check-endpoint-key');
    expect(first.checkEndpointKey).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url')).toEqual(first.checkEndpointKey);
    expect(withCheckEndpointKey(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'sqlite::memory:' })).checkEndpointKey).toEqual(first.checkEndpointKey);
  });

  it('is not generated for a PostgreSQL node outside development: every node must hold the same key', () => {
    const postgres = (nodeEnv: string | undefined) =>
      loadConfig({ DATA_DIR: join(dataDir, 'pg'), DATABASE_URL: 'postgres://u:p@db.internal:5432/sportsdata', NODE_ENV: nodeEnv, JWT_SECRET: SECRET });
    expect(() => withCheckEndpointKey(postgres('staging'))).toThrow(ConfigError);
    expect(() => withCheckEndpointKey(postgres(undefined))).toThrow(/CHECK_ENDPOINT_KEY is required to serve from PostgreSQL/);
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);
    expect(withCheckEndpointKey(postgres('development')).checkEndpointKey).toHaveLength(32);
  });

  it('OUTBOUND_ALLOW_CIDRS takes addresses and CIDRs only', () => {
    expect(loadConfig({ OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8, ::1/128,10.0.0.5' }).outboundAllowCidrs).toEqual(['127.0.0.0/8', '::1/128', '10.0.0.5']);
    expect(() => loadConfig({ OUTBOUND_ALLOW_CIDRS: 'localhost' })).toThrow(/OUTBOUND_ALLOW_CIDRS must be/);
    expect(() => loadConfig({ OUTBOUND_ALLOW_CIDRS: '10.0.0.0/33' })).toThrow(/OUTBOUND_ALLOW_CIDRS must be/);
  });
});
