import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { dirname } from 'node:path';
import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ENV, type EnvVariables, MAX_WORKERS } from './config-env.js';
import { parseTierLimits, type TierLimits } from './modules/limits/index.js';
import type { UpstreamSettings } from './modules/sources/index.js';
import { SECOND_MS } from './platform/time.js';

export { MAX_WORKERS };

/**
 * The only reader of process.env. Everything else receives a frozen, typed Config. Reading the
 * configuration touches nothing else: no file is read or written here (see jwt-secret.ts for
 * the one file a serving process creates). Each field is the variable of its name in the schema
 * (config-env.ts, where its meaning, default and bounds are), in milliseconds where that is in seconds.
 */
export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const MIN_SECRET_BYTES = 32;

export function loadConfig(env: Env = process.env) {
  const problems: string[] = [];
  const v = readVariables(env, problems);
  // Node refuses a header timeout longer than the whole request's.
  if (v.HEADERS_TIMEOUT > v.REQUEST_TIMEOUT) problems.push('HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT');
  const workers = parseWorkerCount(v.WORKERS);
  if (workers === undefined) problems.push(`WORKERS must be "auto" or an integer from 1 to ${MAX_WORKERS}`);
  const tiers = parseTierLimits(v.TIER_LIMITS);
  problems.push(...tiers.problems);
  const trustProxy = readTrustProxy(v.TRUST_PROXY, problems);
  if (v.ADMIN_TOKEN !== undefined && Buffer.byteLength(v.ADMIN_TOKEN, 'utf8') < MIN_SECRET_BYTES) {
    problems.push(`ADMIN_TOKEN must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  const jwtSecrets = readJwtSecrets(v, problems);
  const publicUrl = origin('PUBLIC_URL', v.PUBLIC_URL, problems);
  const encryptionKey = readEncryptionKey(v, problems);
  const outboundAllowCidrs = readCidrs('OUTBOUND_ALLOW_CIDRS', v.OUTBOUND_ALLOW_CIDRS, problems);
  const upstream = readUpstream(v, problems);

  if (problems.length > 0) {
    // One problem is one line; several are listed, so that one start-up names them all.
    throw new ConfigError(problems.length === 1 ? `Invalid configuration: ${problems[0]}` : `Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return Object.freeze({
    /** Unset is not `development`: the rules that relax in development (jwt-secret.ts) ask for it by name. */
    nodeEnv: v.NODE_ENV,
    host: v.HOST,
    port: v.PORT,
    databaseUrl: v.DATABASE_URL,
    dataDir: v.DATA_DIR ?? defaultDataDir(v.DATABASE_URL),
    redisUrl: v.REDIS_URL,
    changePollMs: v.CHANGE_POLL_MS,
    /** The import route's imports and the history processors on a thread of their own (a database file or PostgreSQL only). */
    importThread: v.IMPORT_THREAD,
    /** The import thread's nice value (Linux): how far it leaves the CPU to the serving thread. */
    importThreadNice: v.IMPORT_THREAD_NICE,
    /** Processes serving one port (node:cluster); 1 serves in this process. */
    workers: workers ?? 1,
    shutdownDrainMs: v.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT * SECOND_MS,
    headersTimeoutMs: v.HEADERS_TIMEOUT * SECOND_MS,
    requestTimeoutMs: v.REQUEST_TIMEOUT * SECOND_MS,
    /** TIER_LIMITS merged over the defaults: per tier, a per-minute rate and a daily quota (null: no cap). */
    tierLimits: tiers.limits,
    usageFlushMs: v.USAGE_FLUSH_MS,
    usageRetentionDays: v.USAGE_RETENTION_DAYS,
    usageHourlyRetentionDays: v.USAGE_HOURLY_RETENTION_DAYS,
    auditRetentionDays: v.AUDIT_RETENTION_DAYS,
    loginFailuresPerMinute: v.LOGIN_FAILURES_PER_MINUTE,
    loginFailuresPerClientPerMinute: v.LOGIN_FAILURES_PER_CLIENT_PER_MINUTE,
    /** Sessions each of the portal and the console keeps on this node. */
    webSessionsPerNode: v.WEB_SESSIONS_PER_NODE,
    /** Fastify's trustProxy: false (the peer is the source), a hop count, or the load balancers whose X-Forwarded-For is believed. */
    trustProxy,
    /** Newest first: the first signs, any verifies. Empty when unset outside production: a serving process then generates one (jwt-secret.ts). */
    jwtSecrets: Object.freeze(jwtSecrets),
    jwtIssuer: v.JWT_ISSUER,
    jwtAudience: v.JWT_AUDIENCE,
    accessTokenTtl: v.ACCESS_TOKEN_TTL,
    refreshTokenTtl: v.REFRESH_TOKEN_TTL,
    adminToken: v.ADMIN_TOKEN,
    demoData: v.DEMO_DATA,
    demoTickerPerSecond: v.DEMO_TICKER_PER_SECOND, // About this many demo prices move a second (the demo ticker); 0: none.
    logLevel: v.LOG_LEVEL,
    historyRetentionDays: v.HISTORY_RETENTION_DAYS,
    /** The EV% from which the signals' detector records a value bet. */
    signalsMinEvPct: v.SIGNALS_MIN_EV_PCT,
    streamHeartbeatMs: v.STREAM_HEARTBEAT_MS,
    /** PUBLIC_URL's origin, without a trailing slash. */
    publicUrl,
    /** The AES-256-GCM key sealing check-endpoint tokens and webhook secrets; unset: generated by a serving process (encryption-key.ts). */
    encryptionKey,
    /** Ranges outbound calls may reach although they are private, loopback or link-local. */
    outboundAllowCidrs,
    ...callsOut(v),
    /** Steam moves and drops: whether they are found, and the thresholds they are found with (a request may only tighten them). */
    moves: { detect: v.MOVES_DETECT, thresholds: { minBooks: v.MOVES_MIN_BOOKS, minMove: v.MOVES_MIN_MOVE, minDrop: v.MOVES_MIN_DROP, windowSeconds: v.MOVES_WINDOW_S } },
    upstream, // The upstream feed (UPSTREAM_*): undefined when UPSTREAM_URL is unset.
  });
}

/** The settings of the calls the service makes to clients' URLs: check endpoints and webhooks. */
function callsOut(v: EnvVariables) {
  return {
    /** Calls to its check endpoint one client may cause per UTC minute. */
    outboundCallsPerMinute: v.OUTBOUND_CALLS_PER_MINUTE,
    /** How long a check endpoint has to answer one call. */
    outboundTimeoutMs: v.OUTBOUND_TIMEOUT_MS,
    /** A webhook delivery's deadline for a 2xx. */
    webhookTimeoutMs: v.WEBHOOK_TIMEOUT_MS,
    /** Changes within this window go to an endpoint as one delivery. */
    webhookBatchWindowMs: v.WEBHOOK_BATCH_WINDOW_MS,
    webhookBatchMax: v.WEBHOOK_BATCH_MAX,
    webhookRetentionDays: v.WEBHOOK_RETENTION_DAYS,
  };
}

/**
 * Every variable of the schema, parsed by its type and checked against its bounds; an empty value
 * is an unset one. A bad value is a problem naming the variable, and its default stands in, so that
 * one start-up lists every problem.
 */
function readVariables(env: Env, problems: string[]): EnvVariables {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ENV.properties)) {
    const raw = env[name];
    const value = raw === undefined || raw === '' ? undefined : parsed(name, schema, raw, problems);
    if (value !== undefined) values[name] = value;
    else if (keyword(schema, 'default') !== undefined) values[name] = keyword(schema, 'default');
  }
  if (!Value.Check(ENV, values)) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  return values;
}

function parsed(name: string, schema: TSchema, raw: string, problems: string[]): unknown {
  const refuse = (rule: string): undefined => {
    problems.push(`${name} must ${rule}`);
    return undefined;
  };
  if (Type.IsInteger(schema)) {
    const minimum = Number(keyword(schema, 'minimum') ?? 0);
    const maximum = Number(keyword(schema, 'maximum') ?? Number.MAX_SAFE_INTEGER);
    const value = Number(raw);
    return /^\d+$/.test(raw) && value >= minimum && value <= maximum ? value : refuse(`be an integer from ${minimum} to ${maximum}`);
  }
  if (Type.IsNumber(schema)) {
    const minimum = Number(keyword(schema, 'minimum') ?? 0);
    const maximum = Number(keyword(schema, 'maximum') ?? Number.MAX_SAFE_INTEGER);
    const value = Number(raw);
    return /^\d+(\.\d+)?$/.test(raw) && value >= minimum && value <= maximum ? value : refuse(`be a number from ${minimum} to ${maximum}`);
  }
  if (Type.IsBoolean(schema)) {
    const word = raw.toLowerCase();
    if (['true', '1', 'yes'].includes(word)) return true;
    if (['false', '0', 'no'].includes(word)) return false;
    return refuse('be true or false');
  }
  if (Type.IsUnion(schema)) {
    const allowed = schema.anyOf.flatMap((option) => (Type.IsLiteral(option) ? [String(option.const)] : []));
    return allowed.includes(raw) ? raw : refuse(`be one of ${allowed.join(', ')}`);
  }
  const pattern = keyword(schema, 'pattern');
  if (typeof pattern === 'string' && !new RegExp(pattern).test(raw)) return refuse(String(keyword(schema, 'x-error')));
  return raw;
}

/** A keyword of a schema (`default`, `minimum`, `x-error`), which TypeBox's types do not carry. */
export function keyword(schema: TSchema, name: string): unknown {
  return Object.getOwnPropertyDescriptor(schema, name)?.value;
}

function readJwtSecrets(v: EnvVariables, problems: string[]): string[] {
  const current = v.JWT_SECRET;
  // Previous keys stay valid for verification so that a rotation logs nobody out.
  const previous = (v.JWT_PREVIOUS_SECRETS ?? '').split(/\s+/).filter((s) => s.length > 0);
  if (current === undefined) {
    if (v.NODE_ENV === 'production') problems.push('JWT_SECRET is required when NODE_ENV=production');
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
 * ADMIN_TOKEN, the JWT keys (the current one, generated or not, and the previous ones), the
 * upstream's API key and the passwords of DATABASE_URL and REDIS_URL.
 */
export function configuredSecrets(config: Config): string[] {
  const secrets = [...config.jwtSecrets];
  if (config.adminToken !== undefined) secrets.push(config.adminToken);
  if (config.upstream?.apiKey !== undefined) secrets.push(config.upstream.apiKey);
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
  return PROXY_NAMES.has(entry) || isCidr(entry);
}

/** An IPv4 or IPv6 address, with or without a prefix length. */
function isCidr(entry: string): boolean {
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

const ENCRYPTION_KEY_BYTES = 32;

/** 32 bytes, written as 64 hex digits or in base64 (either alphabet). */
export function parseEncryptionKey(raw: string): Buffer | undefined {
  const bytes = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw) ? Buffer.from(raw, 'base64url') : undefined;
  return bytes?.length === ENCRYPTION_KEY_BYTES ? bytes : undefined;
}

/**
 * ENCRYPTION_KEY, or CHECK_ENDPOINT_KEY, the name it had while it sealed only the check endpoints'
 * tokens: a deployment that set the older name keeps its key. Both set to different keys is a
 * mistake, since which one sealed the stored values cannot be told.
 */
function readEncryptionKey(v: EnvVariables, problems: string[]): Buffer | undefined {
  const named = (['ENCRYPTION_KEY', 'CHECK_ENDPOINT_KEY'] as const).flatMap((name) => (v[name] === undefined ? [] : [{ name, raw: v[name] }]));
  const [first] = named;
  if (first === undefined) {
    if (v.NODE_ENV === 'production') problems.push('ENCRYPTION_KEY is required when NODE_ENV=production (CHECK_ENDPOINT_KEY, its older name, is read too)');
    return undefined;
  }
  const keys = named.map(({ name, raw }) => {
    const key = parseEncryptionKey(raw);
    if (key === undefined) problems.push(`${name} must be 32 bytes, as 64 hex digits or in base64 (openssl rand -base64 32)`);
    return key;
  });
  const [key, other] = keys;
  if (key !== undefined && other !== undefined && !key.equals(other)) {
    problems.push('ENCRYPTION_KEY and CHECK_ENDPOINT_KEY (its older name) are both set, to different keys: set one, or both to the same key');
  }
  return key;
}

/** A comma-separated list of addresses and CIDRs (IPv4 or IPv6); empty when unset. */
function readCidrs(name: string, raw: string | undefined, problems: string[]): readonly string[] {
  if (raw === undefined) return Object.freeze([]);
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  if (entries.some((entry) => !isCidr(entry))) {
    problems.push(`${name} must be a comma-separated list of addresses or CIDRs, such as 127.0.0.0/8,::1/128`);
    return Object.freeze([]);
  }
  return Object.freeze(entries);
}

/**
 * UPSTREAM_*: an absolute http(s) URL without user info, query or fragment (the key goes in its own
 * variable, which is redacted; a key in the URL would not be), and the sports to follow.
 */
function readUpstream(v: EnvVariables, problems: string[]): UpstreamSettings | undefined {
  if (v.UPSTREAM_URL === undefined) {
    if (v.UPSTREAM_SPORTS !== undefined || v.UPSTREAM_API_KEY !== undefined) problems.push('UPSTREAM_SPORTS and UPSTREAM_API_KEY need UPSTREAM_URL');
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(v.UPSTREAM_URL);
  } catch {
    url = undefined;
  }
  if (url === undefined || !['http:', 'https:'].includes(url.protocol) || url.username !== '' || url.password !== '' || v.UPSTREAM_URL.includes('?') || v.UPSTREAM_URL.includes('#')) {
    problems.push('UPSTREAM_URL must be an absolute http(s) URL such as https://api.the-odds-api.com, without user info, query or fragment (the key goes in UPSTREAM_API_KEY)');
  }
  const sports = (v.UPSTREAM_SPORTS ?? '').split(',').map((sport) => sport.trim()).filter((sport) => sport.length > 0);
  if (sports.length === 0 || sports.some((sport) => !/^[a-z0-9_]+$/.test(sport))) {
    problems.push('UPSTREAM_SPORTS must list the sport keys to follow, comma-separated, such as soccer_epl,basketball_nba');
  }
  return Object.freeze({
    url: v.UPSTREAM_URL.replace(/\/+$/, ''),
    apiKey: v.UPSTREAM_API_KEY,
    sports: Object.freeze(sports),
    regions: v.UPSTREAM_REGIONS,
    markets: v.UPSTREAM_MARKETS,
    intervalMs: v.UPSTREAM_INTERVAL_S * SECOND_MS,
    timeoutMs: v.UPSTREAM_TIMEOUT_MS,
  });
}

function defaultDataDir(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    if (path !== ':memory:' && path !== '') return dirname(path);
  }
  return './data';
}



/**
 * An absolute http(s) origin, returned without a trailing slash. RFC 8414 §3.1 places the metadata
 * between the host and the issuer's path: an issuer with a path would need another well-known
 * URL than the one served, so a path (other than "/"), a query, a fragment or user info is refused.
 */
function origin(name: string, raw: string | undefined, problems: string[]): string | undefined {
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
