import { isIP } from 'node:net';
import { dirname } from 'node:path';
import { parseTierLimits, type TierLimits } from './modules/limits/index.js';

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
  /** When set, rate-limit and login-failure counters live in Redis, shared by every node and worker. */
  readonly redisUrl: string | undefined;
  /** TIER_LIMITS merged over the defaults: per tier, a per-minute rate and a daily quota (null: no cap). */
  readonly tierLimits: TierLimits;
  /** How often each node writes its usage counts (a crash loses at most this much). */
  readonly usageFlushMs: number;
  /** Usage rows older than this many days are purged. */
  readonly usageRetentionDays: number;
  /** Failed logins, refreshes and X-API-Keys per UTC minute from one source address. */
  readonly loginFailuresPerMinute: number;
  /** The same, for one client_id from one source address. */
  readonly loginFailuresPerClientPerMinute: number;
  /**
   * Fastify's trustProxy: false (the peer is the source), a hop count, or the addresses and
   * CIDRs of the load balancers whose X-Forwarded-For is believed.
   */
  readonly trustProxy: false | number | readonly string[];
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

  const tiers = parseTierLimits(nonEmpty(env.TIER_LIMITS));
  problems.push(...tiers.problems);
  const usageFlushMs = integer(env, 'USAGE_FLUSH_MS', 5000, 10, 600_000, problems);
  const usageRetentionDays = integer(env, 'USAGE_RETENTION_DAYS', 400, 1, 36_500, problems);
  const loginFailuresPerMinute = integer(env, 'LOGIN_FAILURES_PER_MINUTE', 100, 1, 1_000_000, problems);
  const loginFailuresPerClientPerMinute = integer(env, 'LOGIN_FAILURES_PER_CLIENT_PER_MINUTE', 10, 1, 1_000_000, problems);
  const trustProxy = readTrustProxy(nonEmpty(env.TRUST_PROXY), problems);

  const adminToken = nonEmpty(env.ADMIN_TOKEN);
  if (adminToken !== undefined && Buffer.byteLength(adminToken, 'utf8') < MIN_SECRET_BYTES) {
    problems.push(`ADMIN_TOKEN must be at least ${MIN_SECRET_BYTES} bytes`);
  }

  const jwtSecrets = readJwtSecrets(env, nodeEnv, problems);

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
    tierLimits: tiers.limits,
    usageFlushMs,
    usageRetentionDays,
    loginFailuresPerMinute,
    loginFailuresPerClientPerMinute,
    trustProxy,
    jwtSecrets: Object.freeze(jwtSecrets),
    jwtIssuer: nonEmpty(env.JWT_ISSUER) ?? 'sports-data-api',
    jwtAudience: nonEmpty(env.JWT_AUDIENCE) ?? 'sports-data-api',
    accessTokenTtl,
    refreshTokenTtl,
    adminToken,
    demoData,
    logLevel,
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

/**
 * TRUST_PROXY: off (the default), a hop count, or a comma-separated list of addresses and CIDRs
 * (or proxy-addr's names loopback, linklocal, uniquelocal). Never `true`: believing every
 * X-Forwarded-For would let any client pick the source address the login-failure limits
 * count, and so escape them.
 */
function readTrustProxy(raw: string | undefined, problems: string[]): false | number | readonly string[] {
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw) && Number(raw) <= 10) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isTrustedProxy(entry));
  if (raw === 'true' || bad.length > 0) {
    problems.push('TRUST_PROXY must be a hop count from 0 to 10 or a comma-separated list of load-balancer addresses or CIDRs (not "true": any client could then choose its address)');
    return false;
  }
  return Object.freeze(entries);
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isTrustedProxy(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/**
 * With several workers (`--workers N`) the limits must be counted in one place, or each
 * worker would grant a client its whole limit: Redis, or start-up refuses (decision 0090).
 * Called where the worker count is known (WORKERS, `serve --workers`).
 */
export function workersProblem(workers: number, redisUrl: string | undefined): string | undefined {
  if (workers <= 1 || redisUrl !== undefined) return undefined;
  return `${workers} workers need REDIS_URL: rate limits, quotas and login-failure limits are counted per client across every worker, which one process's memory cannot do (decision 0090); set REDIS_URL or serve with one worker`;
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

function boolean(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  problems.push(`${name} must be true or false`);
  return fallback;
}
