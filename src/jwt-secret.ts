import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';

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

function storedJwtSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}
