import { dirname } from 'node:path';

/**
 * The only reader of process.env. Everything else receives a frozen, typed Config. Reading the
 * configuration touches nothing else: no file is read or written here (see jwt-secret.ts for
 * the one file a serving process creates).
 */
export interface Config {
  readonly nodeEnv: string;
  readonly host: string;
  readonly port: number;
  readonly databaseUrl: string;
  /** Directory for the SQLite file, the generated JWT secret and demo credentials. */
  readonly dataDir: string;
  /** Accepted so that deployments can set it ahead of time; nothing uses Redis yet. */
  readonly redisUrl: string | undefined;
  /**
   * Newest first: tokens are signed with jwtSecrets[0] and verified with any of them. Empty
   * when JWT_SECRET is unset outside production: a serving process then uses the secret kept
   * in the data directory (jwt-secret.ts); commands that sign nothing need none.
   */
  readonly jwtSecrets: readonly string[];
  readonly jwtIssuer: string;
  readonly jwtAudience: string;
  readonly accessTokenTtl: number;
  readonly refreshTokenTtl: number;
  readonly adminToken: string | undefined;
  readonly demoData: boolean;
  readonly logLevel: string;
  /**
   * PUBLIC_URL: the service's public origin (`https://api.example.com`, no trailing slash), the
   * OAuth issuer identifier of the RFC 8414 metadata. Unset: the origin each request came to.
   */
  readonly publicUrl: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const MIN_SECRET_BYTES = 32;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const nodeEnv = env.NODE_ENV ?? 'development';
  const databaseUrl = env.DATABASE_URL ?? 'sqlite:./data/sportsdata.db';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with "sqlite:" or "postgres://" (got an unknown scheme)');
  }
  const dataDir = env.DATA_DIR ?? defaultDataDir(databaseUrl);

  const port = integer(env, 'PORT', 8080, 0, 65535, problems);
  const accessTokenTtl = integer(env, 'ACCESS_TOKEN_TTL', 900, 1, 86_400, problems);
  const refreshTokenTtl = integer(env, 'REFRESH_TOKEN_TTL', 2_592_000, 60, 31_536_000, problems);

  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const demoData = boolean(env, 'DEMO_DATA', true, problems);

  const adminToken = nonEmpty(env.ADMIN_TOKEN);
  if (adminToken !== undefined && Buffer.byteLength(adminToken, 'utf8') < MIN_SECRET_BYTES) {
    problems.push(`ADMIN_TOKEN must be at least ${MIN_SECRET_BYTES} bytes`);
  }

  const jwtSecrets = readJwtSecrets(env, nodeEnv, problems);
  const publicUrl = origin(env, 'PUBLIC_URL', problems);

  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return Object.freeze({
    nodeEnv,
    host: env.HOST ?? '127.0.0.1',
    port,
    databaseUrl,
    dataDir,
    redisUrl: nonEmpty(env.REDIS_URL),
    jwtSecrets: Object.freeze(jwtSecrets),
    jwtIssuer: nonEmpty(env.JWT_ISSUER) ?? 'sports-data-api',
    jwtAudience: nonEmpty(env.JWT_AUDIENCE) ?? 'sports-data-api',
    accessTokenTtl,
    refreshTokenTtl,
    adminToken,
    demoData,
    logLevel,
    publicUrl,
  });
}

function readJwtSecrets(env: Env, nodeEnv: string, problems: string[]): string[] {
  const current = nonEmpty(env.JWT_SECRET);
  // Previous keys stay valid for verification so that a rotation logs nobody out.
  const previous = (env.JWT_PREVIOUS_SECRETS ?? '').split(/\s+/).filter((s) => s.length > 0);
  if (current === undefined) {
    if (nodeEnv === 'production') problems.push('JWT_SECRET is required when NODE_ENV=production');
    if (previous.length > 0) problems.push('JWT_PREVIOUS_SECRETS needs JWT_SECRET');
    return [];
  }
  for (const [name, secret] of [['JWT_SECRET', current], ...previous.map((s) => ['JWT_PREVIOUS_SECRETS entry', s])] as const) {
    if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
      problems.push(`${name} must be at least ${MIN_SECRET_BYTES} bytes (HS256 key)`);
    }
  }
  return [current, ...previous];
}

function defaultDataDir(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    if (path !== ':memory:' && path !== '') return dirname(path);
  }
  return './data';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return value;
}

/**
 * An absolute http(s) origin, returned without a trailing slash. RFC 8414 §3.1 places the metadata
 * between the host and the issuer's path: an issuer with a path would need another well-known
 * URL than the one served, so a path (other than "/"), a query, a fragment or user info is refused.
 */
function origin(env: Env, name: string, problems: string[]): string | undefined {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  const plain = url !== undefined && url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
  if (url === undefined || !['http:', 'https:'].includes(url.protocol) || !plain || raw.includes('?') || raw.includes('#')) {
    problems.push(`${name} must be an absolute http(s) origin such as https://api.example.com, without a path, query or fragment`);
    return undefined;
  }
  return url.origin;
}

function boolean(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  problems.push(`${name} must be true or false`);
  return fallback;
}
