import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, ConfigError, parseEncryptionKey } from './config.js';
import { readOrCreateFile } from './platform/files/create-once.js';

/** The NODE_ENV values under which a PostgreSQL-backed node may generate its own key. */
const DEVELOPMENT = ['development', 'test'];

/** The generated key's file, and the one it was kept in while it sealed only check-endpoint tokens. */
const KEY_FILE = 'encryption-key';
const OLDER_KEY_FILE = 'check-endpoint-key';

/**
 * The config a serving process encrypts check-endpoint tokens and webhook signing secrets with.
 * Outside production ENCRYPTION_KEY may be unset: a key is then generated once into
 * DATA_DIR/encryption-key (mode 0600) and read back on later starts, so stored values stay
 * readable after a restart; a data directory that holds the older DATA_DIR/check-endpoint-key
 * keeps using that key. Not on PostgreSQL outside development, for the reason JWT_SECRET is not
 * (jwt-secret.ts): the nodes sharing a database would each hold another key and fail to read
 * each other's values.
 */
export function withEncryptionKey(config: Config): Config {
  if (config.encryptionKey !== undefined) return config;
  requireSharedEncryptionKey(config);
  return Object.freeze({ ...config, encryptionKey: storedKey(config.dataDir) });
}

/** Refuses to serve from PostgreSQL without ENCRYPTION_KEY outside development; writes nothing. */
export function requireSharedEncryptionKey(config: Config): void {
  const postgres = !config.databaseUrl.startsWith('sqlite:');
  if (config.encryptionKey === undefined && postgres && !DEVELOPMENT.includes(config.nodeEnv ?? '')) {
    throw new ConfigError(
      'Invalid configuration: ENCRYPTION_KEY is required to serve from PostgreSQL (every node must read the tokens and secrets the others stored); ' +
        'set it (or its older name, CHECK_ENDPOINT_KEY), or set NODE_ENV=development for a single development node',
    );
  }
}

/** Processes starting at once on one directory all end up with the one key written first. */
function storedKey(dataDir: string): Buffer {
  const older = join(dataDir, OLDER_KEY_FILE);
  const file = existsSync(older) ? older : join(dataDir, KEY_FILE);
  const text = file === older ? readFileSync(older, 'utf8').trim() : readOrCreateFile(file, () => `${randomBytes(32).toString('base64url')}\n`).trim();
  const key = parseEncryptionKey(text);
  if (key === undefined) throw new ConfigError(`Invalid configuration: ${file} does not hold a 32-byte key; remove it or set ENCRYPTION_KEY`);
  return key;
}
