import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type Config, ConfigError } from './config.js';
import { readOrCreateFile } from './platform/files/create-once.js';

/** The NODE_ENV values under which a PostgreSQL-backed node may generate its own JWT secret. */
const DEVELOPMENT = ['development', 'test'];

/**
 * The config a serving process signs tokens with. Outside production JWT_SECRET may be unset:
 * a secret is then generated once into DATA_DIR/jwt-secret (mode 0600) and read back on later
 * starts, so tokens survive a restart. Only the serve path calls this: reading the config
 * (e.g. for `sportsdata clients list`) creates no file.
 *
 * Not on PostgreSQL outside development: a PostgreSQL database is what several nodes share, and
 * a generated secret belongs to one data directory, so each node would refuse the others'
 * tokens (docs/decisions/0083). NODE_ENV must say development or test by name: a deployment
 * that forgot NODE_ENV is the case this protects.
 */
export function withJwtSecret(config: Config): Config {
  if (config.jwtSecrets.length > 0) return config;
  requireSharedSecret(config);
  return Object.freeze({ ...config, jwtSecrets: Object.freeze([storedJwtSecret(config.dataDir)]) });
}

/** Refuses to serve from PostgreSQL without JWT_SECRET outside development; writes nothing, so it can run before anything else. */
export function requireSharedSecret(config: Config): void {
  const postgres = !config.databaseUrl.startsWith('sqlite:');
  if (config.jwtSecrets.length === 0 && postgres && !DEVELOPMENT.includes(config.nodeEnv ?? '')) {
    throw new ConfigError(
      'Invalid configuration: JWT_SECRET is required to serve from PostgreSQL (every node must sign with the same key); ' +
        'set it, or set NODE_ENV=development for a single development node',
    );
  }
}

/** Processes starting at once on one directory all end up with the one secret written first. */
function storedJwtSecret(dataDir: string): string {
  return readOrCreateFile(join(dataDir, 'jwt-secret'), () => `${randomBytes(48).toString('base64url')}\n`).trim();
}
