import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { dirname } from 'node:path';
import { parseTierLimits, type TierLimits } from './modules/limits/index.js';

/**
 * The only reader of process.env. Everything else receives a frozen, typed Config. Reading the
 * configuration touches nothing else: no file is read or written here (see jwt-secret.ts for
 * the one file a serving process creates).
 */
export interface Config {
  /**
   * NODE_ENV as set, undefined when unset. Unset is not `development`: the rules that relax in
   * development (a generated JWT secret on PostgreSQL, jwt-secret.ts) ask for it by name.
   */
  readonly nodeEnv: string | undefined;
  readonly host: string;
  readonly port: number;
  readonly databaseUrl: string;
  /** Directory for the SQLite file, the generated JWT secret and demo credentials. */
  readonly dataDir: string;
  /**
   * When set, changes reach every node through Redis pub/sub (the poll stays as the fallback), and
   * rate-limit and login-failure counters live there, shared by every node and worker.
   */
  readonly redisUrl: string | undefined;
  /** How often every node reads the change counters: the fallback when a Redis message is missed. */
  readonly changePollMs: number;
  /** Processes serving one port (node:cluster); 1 serves in this process. */
  readonly workers: number;
  /** After SIGTERM, /readyz answers 503 this long before the listener closes (load balancers notice). */
  readonly shutdownDrainMs: number;
  /** After the drain, in-flight requests get this long to finish; then the process exits regardless. */
  readonly shutdownTimeoutMs: number;
  /** HEADERS_TIMEOUT: a request line and headers not complete this long after their first byte are answered 408. */
  readonly headersTimeoutMs: number;
  /** REQUEST_TIMEOUT: a whole request (headers and body) not complete this long after its first byte is answered 408. */
  readonly requestTimeoutMs: number;
  /** TIER_LIMITS merged over the defaults: per tier, a per-minute rate and a daily quota (null: no cap). */
  readonly tierLimits: TierLimits;
  /** How often each node writes its usage counts (a crash loses at most this much). */
  readonly usageFlushMs: number;
  /** Usage rows older than this many days are purged. */
  readonly usageRetentionDays: number;
  /** AUDIT_RETENTION_DAYS: audit-log entries older than this are purged (hourly, on every node). */
  readonly auditRetentionDays: number;
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
  /** HISTORY_RETENTION_DAYS: price changes older than this are purged (hourly, on every node). */
  readonly historyRetentionDays: number;
  /** STREAM_HEARTBEAT_MS: how often an idle odds stream gets a comment line, so that proxies keep it open. */
  readonly streamHeartbeatMs: number;
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
  const nodeEnv = nonEmpty(env.NODE_ENV);
  const databaseUrl = env.DATABASE_URL ?? 'sqlite:./data/sportsdata.db';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with "sqlite:" or "postgres://" (got an unknown scheme)');
  }
  const dataDir = env.DATA_DIR ?? defaultDataDir(databaseUrl);

  const port = integer(env, 'PORT', 8080, 0, 65535, problems);
  const accessTokenTtl = integer(env, 'ACCESS_TOKEN_TTL', 900, 1, 86_400, problems);
  const refreshTokenTtl = integer(env, 'REFRESH_TOKEN_TTL', 2_592_000, 60, 31_536_000, problems);
  const changePollMs = integer(env, 'CHANGE_POLL_MS', 1000, 10, 3_600_000, problems);
  const shutdownDrainMs = integer(env, 'SHUTDOWN_DRAIN_MS', 0, 0, 600_000, problems);
  const shutdownTimeoutSeconds = integer(env, 'SHUTDOWN_TIMEOUT', 10, 0, 3600, problems);
  const headersTimeoutSeconds = integer(env, 'HEADERS_TIMEOUT', 10, 1, 600, problems);
  const requestTimeoutSeconds = integer(env, 'REQUEST_TIMEOUT', 60, 1, 3600, problems);
  // Node refuses a header timeout longer than the whole request's.
  if (headersTimeoutSeconds > requestTimeoutSeconds) problems.push('HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT');
  const historyRetentionDays = integer(env, 'HISTORY_RETENTION_DAYS', 730, 1, 36_500, problems);
  const streamHeartbeatMs = integer(env, 'STREAM_HEARTBEAT_MS', 15_000, 100, 300_000, problems);
  const workers = parseWorkerCount(nonEmpty(env.WORKERS) ?? '1');
  if (workers === undefined) problems.push(`WORKERS must be "auto" or an integer from 1 to ${MAX_WORKERS}`);

  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const demoData = boolean(env, 'DEMO_DATA', true, problems);

  const tiers = parseTierLimits(nonEmpty(env.TIER_LIMITS));
  problems.push(...tiers.problems);
  const usageFlushMs = integer(env, 'USAGE_FLUSH_MS', 1000, 10, 600_000, problems);
  const usageRetentionDays = integer(env, 'USAGE_RETENTION_DAYS', 400, 1, 36_500, problems);
  const auditRetentionDays = integer(env, 'AUDIT_RETENTION_DAYS', 730, 1, 36_500, problems);
  const loginFailuresPerMinute = integer(env, 'LOGIN_FAILURES_PER_MINUTE', 100, 1, 1_000_000, problems);
  const loginFailuresPerClientPerMinute = integer(env, 'LOGIN_FAILURES_PER_CLIENT_PER_MINUTE', 10, 1, 1_000_000, problems);
  const trustProxy = readTrustProxy(nonEmpty(env.TRUST_PROXY), problems);

  const adminToken = nonEmpty(env.ADMIN_TOKEN);
  if (adminToken !== undefined && Buffer.byteLength(adminToken, 'utf8') < MIN_SECRET_BYTES) {
    problems.push(`ADMIN_TOKEN must be at least ${MIN_SECRET_BYTES} bytes`);
  }

  const jwtSecrets = readJwtSecrets(env, nodeEnv, problems);
  const publicUrl = origin(env, 'PUBLIC_URL', problems);

  if (problems.length > 0) {
    // One problem is one line; several are listed, so that one start-up names them all.
    throw new ConfigError(problems.length === 1 ? `Invalid configuration: ${problems[0]}` : `Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return Object.freeze({
    nodeEnv,
    host: env.HOST ?? '127.0.0.1',
    port,
    databaseUrl,
    dataDir,
    redisUrl: nonEmpty(env.REDIS_URL),
    changePollMs,
    workers: workers ?? 1,
    shutdownDrainMs,
    shutdownTimeoutMs: shutdownTimeoutSeconds * 1000,
    headersTimeoutMs: headersTimeoutSeconds * 1000,
    requestTimeoutMs: requestTimeoutSeconds * 1000,
    tierLimits: tiers.limits,
    usageFlushMs,
    usageRetentionDays,
    auditRetentionDays,
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
    historyRetentionDays,
    streamHeartbeatMs,
    publicUrl,
  });
}

function readJwtSecrets(env: Env, nodeEnv: string | undefined, problems: string[]): string[] {
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
 * The configured values no log line or answer may show, should a client put one in a URL:
 * ADMIN_TOKEN, the JWT keys (the current one, generated or not, and the previous ones) and the
 * passwords of DATABASE_URL and REDIS_URL.
 */
export function configuredSecrets(config: Config): string[] {
  const secrets = [...config.jwtSecrets];
  if (config.adminToken !== undefined) secrets.push(config.adminToken);
  for (const url of [config.databaseUrl, config.redisUrl]) {
    const password = passwordOf(url);
    if (password !== undefined) secrets.push(password);
  }
  return secrets;
}

function passwordOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const password = new URL(url).password;
    return password === '' ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}

export const MAX_WORKERS = 256;

/** `auto` (one per core) or a count; undefined when neither. Shared by WORKERS and `serve --workers`. */
export function parseWorkerCount(raw: string): number | undefined {
  if (raw === 'auto') return availableParallelism();
  const value = Number(raw);
  return /^\d+$/.test(raw) && value >= 1 && value <= MAX_WORKERS ? value : undefined;
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
