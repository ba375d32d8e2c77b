import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from './config.js';
import { readOrCreateFile } from './platform/files/create-once.js';

/**
 * The config a serving process signs tokens with. Outside production JWT_SECRET may be unset:
 * a secret is then generated once into DATA_DIR/jwt-secret (mode 0600) and read back on later
 * starts, so tokens survive a restart. Only the serve path calls this: reading the config
 * (e.g. for `sportsdata clients list`) creates no file.
 */
export function withJwtSecret(config: Config): Config {
  if (config.jwtSecrets.length > 0) return config;
  return Object.freeze({ ...config, jwtSecrets: Object.freeze([storedJwtSecret(config.dataDir)]) });
}

/** Processes starting at once on one directory all end up with the one secret written first. */
function storedJwtSecret(dataDir: string): string {
  return readOrCreateFile(join(dataDir, 'jwt-secret'), () => `${randomBytes(48).toString('base64url')}\n`).trim();
}
