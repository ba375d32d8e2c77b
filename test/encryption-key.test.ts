import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { withEncryptionKey } from '../src/encryption-key.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-encryption-key-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const SECRET = 'a-jwt-secret-that-is-at-least-32-bytes-long';

describe('ENCRYPTION_KEY (and its older name, CHECK_ENDPOINT_KEY)', () => {
  it('takes 32 bytes as hex or base64 under either name, and refuses anything else', () => {
    const hex = 'ab'.repeat(32);
    for (const name of ['ENCRYPTION_KEY', 'CHECK_ENDPOINT_KEY']) {
      expect(loadConfig({ JWT_SECRET: SECRET, [name]: hex }).encryptionKey?.toString('hex')).toBe(hex);
      expect(loadConfig({ JWT_SECRET: SECRET, [name]: Buffer.alloc(32, 7).toString('base64') }).encryptionKey).toEqual(Buffer.alloc(32, 7));
      for (const bad of ['short', 'ab'.repeat(31), Buffer.alloc(16).toString('base64')]) {
        expect(() => loadConfig({ JWT_SECRET: SECRET, [name]: bad }), bad).toThrow(new RegExp(`${name} must be 32 bytes`));
      }
    }
  });

  it('takes both names set to the same key, and refuses two different keys', () => {
    const hex = 'cd'.repeat(32);
    expect(loadConfig({ JWT_SECRET: SECRET, ENCRYPTION_KEY: hex, CHECK_ENDPOINT_KEY: Buffer.from(hex, 'hex').toString('base64') }).encryptionKey?.toString('hex')).toBe(hex);
    expect(() => loadConfig({ JWT_SECRET: SECRET, ENCRYPTION_KEY: hex, CHECK_ENDPOINT_KEY: 'ef'.repeat(32) })).toThrow(/ENCRYPTION_KEY and CHECK_ENDPOINT_KEY \(its older name\) are both set, to different keys/);
  });

  it('is required in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET })).toThrow(/ENCRYPTION_KEY is required when NODE_ENV=production/);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET, CHECK_ENDPOINT_KEY: 'ab'.repeat(32) }).encryptionKey).toHaveLength(32);
  });

  it('is generated once into DATA_DIR/encryption-key (0600) outside production on SQLite, and reused', () => {
    const dir = join(dataDir, 'served');
    const first = withEncryptionKey(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'sqlite::memory:' }));
    const file = join(dir, 'encryption-key');
    expect(first.encryptionKey).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url')).toEqual(first.encryptionKey);
    expect(withEncryptionKey(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'sqlite::memory:' })).encryptionKey).toEqual(first.encryptionKey);
  });

  it('keeps using the key an older version generated into DATA_DIR/check-endpoint-key, and writes no other', () => {
    const dir = join(dataDir, 'older');
    mkdirSync(dir);
    writeFileSync(join(dir, 'check-endpoint-key'), `${Buffer.alloc(32, 9).toString('base64url')}\n`, { mode: 0o600 });
    expect(withEncryptionKey(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'sqlite::memory:' })).encryptionKey).toEqual(Buffer.alloc(32, 9));
    expect(existsSync(join(dir, 'encryption-key'))).toBe(false);
  });

  it('is not generated for a PostgreSQL node outside development: every node must hold the same key', () => {
    const postgres = (nodeEnv: string | undefined) =>
      loadConfig({ DATA_DIR: join(dataDir, 'pg'), DATABASE_URL: 'postgres://u:p@db.internal:5432/sportsdata', NODE_ENV: nodeEnv, JWT_SECRET: SECRET });
    expect(() => withEncryptionKey(postgres('staging'))).toThrow(ConfigError);
    expect(() => withEncryptionKey(postgres(undefined))).toThrow(/ENCRYPTION_KEY is required to serve from PostgreSQL/);
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);
    expect(withEncryptionKey(postgres('development')).encryptionKey).toHaveLength(32);
  });

  it('OUTBOUND_ALLOW_CIDRS takes addresses and CIDRs only', () => {
    expect(loadConfig({ OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8, ::1/128,10.0.0.5' }).outboundAllowCidrs).toEqual(['127.0.0.0/8', '::1/128', '10.0.0.5']);
    expect(() => loadConfig({ OUTBOUND_ALLOW_CIDRS: 'localhost' })).toThrow(/OUTBOUND_ALLOW_CIDRS must be/);
    expect(() => loadConfig({ OUTBOUND_ALLOW_CIDRS: '10.0.0.0/33' })).toThrow(/OUTBOUND_ALLOW_CIDRS must be/);
  });
});
