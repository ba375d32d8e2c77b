import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type Config, ConfigError, parseCheckEndpointKey } from './config.js';
import { readOrCreateFile } from './platform/files/create-once.js';

/** The NODE_ENV values under which a PostgreSQL-backed node may generate its own key. */
const DEVELOPMENT = ['development', 'test'];

/**
 * The config a serving process encrypts check-endpoint tokens with. Outside production
 * CHECK_ENDPOINT_KEY may be unset: a key is then generated once into DATA_DIR/check-endpoint-key
 * (mode 0600) and read back on later starts, so stored tokens stay readable after a restart.
 * Not on PostgreSQL outside development, for the reason JWT_SECRET is not (jwt-secret.ts): the
 * nodes sharing a database would each hold another key and fail to read each other's tokens.
 */
export function withCheckEndpointKey(config: Config): Config {
  if (config.checkEndpointKey !== undefined) return config;
  requireSharedCheckEndpointKey(config);
  return Object.freeze({ ...config, checkEndpointKey: storedKey(config.dataDir) });
}

/** Refuses to serve from PostgreSQL without CHECK_ENDPOINT_KEY outside development; writes nothing. */
export function requireSharedCheckEndpointKey(config: Config): void {
  const postgres = !config.databaseUrl.startsWith('sqlite:');
  if (config.checkEndpointKey === undefined && postgres && !DEVELOPMENT.includes(config.nodeEnv ?? '')) {
    throw new ConfigError(
      'Invalid configuration: CHECK_ENDPOINT_KEY is required to serve from PostgreSQL (every node must read the tokens the others stored); ' +
        'set it, or set NODE_ENV=development for a single development node',
    );
  }
}

/** Processes starting at once on one directory all end up with the one key written first. */
function storedKey(dataDir: string): Buffer {
  const text = readOrCreateFile(join(dataDir, 'check-endpoint-key'), () => `${randomBytes(32).toString('base64url')}\n`).trim();
  const key = parseCheckEndpointKey(text);
  if (key === undefined) throw new ConfigError(`Invalid configuration: ${join(dataDir, 'check-endpoint-key')} does not hold a 32-byte key; remove it or set CHECK_ENDPOINT_KEY`);
  return key;
}
