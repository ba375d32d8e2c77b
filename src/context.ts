import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.js';
import { createHistoryWork } from './history-work.js';
import { type Background, type BackgroundJobs, createBackground } from './platform/background.js';
import type { ChangeFeed } from './platform/cache/change-feed.js';
import { createNodeChangeFeed } from './platform/cache/node-change-feed.js';
import { createReadCache, type ReadCache } from './platform/cache/read-cache.js';
import { type Clock, systemClock } from './platform/clock.js';
import { createDraining, type Draining } from './platform/lifecycle/draining.js';
import { createRedisLink, type RedisLink } from './platform/redis/redis-link.js';
import type { CounterStore } from './platform/counters/counter-store.js';
import { createLimitCounters } from './platform/counters/limit-counters.js';
import type { Database } from './platform/db/database.js';
import { createLeasesRepository } from './platform/db/leases.repository.js';
import { createMetrics, type Metrics } from './platform/metrics/metrics.js';
import { type AddressRules, createAddressRules } from './platform/outbound/address-rules.js';
import { createSecretCipher, type SecretCipher } from './platform/secret-cipher.js';
import {
  type Authenticator,
  createAuthenticator,
  createCredentialFailures,
  createKeyring,
  type CredentialFailures,
  type Keyring,
  UNAUTHORIZED_REASONS,
} from './modules/auth/index.js';
import {
  type ClientDirectory,
  type ClientsService,
  createClientDirectory,
  createClientsService,
  createCredentialsService,
  createCredentialUsage,
  type CredentialsService,
} from './modules/clients/index.js';
import { createLimitPolicy, createRateLimiter, type LimitPolicy, type RateLimiter } from './modules/limits/index.js';
import { createAuditPurgeJob, createAuditRepository } from './modules/audit/index.js';
import { type CheckEndpoints, createCheckEndpoints } from './modules/quotes/index.js';
import { createHistoryPurgeJob, createRecentChanges, type HistoryProcessor, type RecentChanges } from './modules/history/index.js';
import type { Signals } from './modules/signals/index.js';
import { createDemoTicker, createTickerRepository, type DemoTicker } from './modules/demo/index.js';
import { createImportService, createImportThread, type ImportThread } from './modules/import/index.js';
import { createSourcesService, createUpstreamFeed, type UpstreamFeed, type UpstreamSettings } from './modules/sources/index.js';
import { createKeyResolver, type KeyResolver } from './modules/references/index.js';
import { createPurgeJob } from './modules/tokens/index.js';
import { createWebhookDispatcher, createWebhookDispatchRepository, createWebhookSender, type WebhookDispatcher, type WebhookFormer, type WebhookSender } from './modules/webhooks/index.js';
import { createDaySeeds, createUsageMeter, createUsagePurgeJob, createUsageRepository, createUsageService, type UsageMeter, type UsageService } from './modules/usage/index.js';

/**
 * The composition root's services, shared by the HTTP app (app.ts) and the CLI. Only the
 * composition root knows the whole context: each service and each feature's routes are
 * given exactly the dependencies they use.
 */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly clock: Clock;
  readonly changes: ChangeFeed;
  readonly keyring: Keyring;
  readonly clients: ClientsService;
  /** The API keys and client secrets of each client (self-service, admin API, CLI). */
  readonly credentials: CredentialsService;
  /** Client accounts by id and API-key digest, cached and current ('clients' counter). */
  readonly directory: ClientDirectory;
  readonly authenticator: Authenticator;
  /** Sports-data reads, cached per data version (every import bumps it). */
  readonly readCache: ReadCache;
  readonly keys: KeyResolver;
  /** This app's series, scraped at GET /metrics. */
  readonly metrics: Metrics;
  /**
   * Where limits are counted: Redis with REDIS_URL (every node and worker), else this
   * process's memory. Its `state()` is 'degraded' while Redis is away (for /readyz).
   */
  readonly counters: CounterStore;
  /** The limits of an account: its overrides, else its tier's (TIER_LIMITS). */
  readonly limits: LimitPolicy;
  /** Charges every client call against its limits (a step of the route policies); rejections are counted in the metrics. */
  readonly limiter: RateLimiter;
  /** Failed credentials per source address (brute force); `onThrottle` for the metrics. */
  readonly failures: CredentialFailures;
  /** Charged requests by usage group (a step of the route policies), counted in memory and written in batches. */
  readonly meter: UsageMeter;
  readonly usage: UsageService;
  /** Where outbound calls to clients' URLs may go (OUTBOUND_ALLOW_CIDRS over the denied ranges). */
  readonly outboundRules: AddressRules;
  /** Seals and opens the check endpoints' tokens and the webhooks' signing secrets under ENCRYPTION_KEY. */
  readonly cipher: SecretCipher;
  /** The clients' check endpoints, their tokens sealed with `cipher`. */
  readonly checkEndpoints: CheckEndpoints;
  /**
   * The process's background jobs (process metrics and their sharing with a cluster primary,
   * change-feed polling, refresh-token purge, credentials' last-use writes, the limit store's
   * connection, usage flushes and purge, price-history and audit-log purges), each registered by
   * the factory that builds it. Started and stopped by whoever owns the context and serves with
   * it; building an app starts nothing.
   */
  readonly background: Background;
  /** The history processor that computes the board events after the imports (a background job; its `run` for the CLI and tests). */
  readonly boardEvents: HistoryProcessor;
  /** The history processor that finds the steam moves and drops after the imports; undefined with MOVES_DETECT=false. */
  readonly oddsMoves: HistoryProcessor | undefined;
  /** This node's newest import's price changes, held for the board events and the streams that follow it here. */
  readonly recentChanges: RecentChanges;
  /**
   * The webhooks' former (background jobs; `run` for the CLI and tests): deliveries made from the
   * price history, the board changes and the outbox. The dispatcher wakes on the 'webhooks' counter.
   */
  readonly webhookFormer: WebhookFormer;
  /** The signals' detector and grader (background jobs; `run` for the demo, the CLI and tests). */
  readonly signals: Signals;
  /** The pub/sub connection when REDIS_URL is set (readiness reports its state). */
  readonly redis: RedisLink | undefined;
  /** Set on SIGTERM: /readyz answers 503 while the node drains. */
  readonly draining: Draining;
  /**
   * The upstream feed (UPSTREAM_URL), a background job polling it one node at a time and importing
   * what changed through the sources' importer; /readyz shows its state.
   */
  readonly upstream?: UpstreamFeed;
  /**
   * The demo ticker (DEMO_DATA with DEMO_TICKER_PER_SECOND above 0), a background job moving the
   * demo's prices near now through the import, one node at a time, by a lease; its `tick` for tests.
   */
  readonly demoTicker?: DemoTicker;
  /** Sends the webhook deliveries (a background job on every node; its `run` for tests and the routes' replays). */
  readonly webhooks: WebhookDispatcher;
  /** Signs and posts one webhook message: the dispatcher's and the endpoints' `/test`. */
  readonly webhookSender: WebhookSender;
  /**
   * The thread making the import route's imports and the history work after them (IMPORT_THREAD,
   * decision 0333); undefined when they are made in this thread (IMPORT_THREAD=false, an in-memory SQLite database).
   */
  readonly importThread?: ImportThread;
}

/** The import thread's program, beside this file: its build, or its source when run from the sources. */
const IMPORT_THREAD_ENTRY = new URL(`./import-thread${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** Whether a thread can open the database too: an in-memory SQLite database is one connection's own. */
const sharable = (databaseUrl: string) => databaseUrl !== 'sqlite::memory:' && databaseUrl !== 'sqlite:';
/** Whether this node's imports and the work after them run on an import thread. */
const importThreadOn = (config: Config) => config.importThread && sharable(config.databaseUrl);

/** How often every node looks for webhook retries that came due (new deliveries wake it through the change feed). */
const WEBHOOK_DISPATCH_EVERY_MS = 1_000;
/**
 * Webhook endpoints one node sends to at once (one attempt in flight per endpoint): a lane for each
 * of a busy feed's fifty endpoints and more. Each endpoint's deliveries go one after the other, so
 * with fewer lanes than endpoints the deliveries a second were lanes ÷ one attempt's time, under
 * the 400 a second of 50 endpoints at 4,000 changes/s (decision 0336).
 */
const WEBHOOK_CONCURRENCY = 64;

export function createContext(deps: { config: Config; database: Database; clock?: Clock }): AppContext {
  const { config, database } = deps;
  const { db } = database;
  const clock = deps.clock ?? systemClock;
  // Each factory of background work registers it here as it builds it: started in that order,
  // stopped in reverse. The usage meter and the credentials' last-use writer are built after the
  // change feed, so their last counts are written before it stops.
  const background = createBackground();
  // With REDIS_URL, changes reach the other nodes through pub/sub; the poll stays as the fallback.
  const redis = config.redisUrl === undefined ? undefined : createRedisLink(config.redisUrl);
  const changes = createNodeChangeFeed({ db, pollMs: config.changePollMs, redis, background });
  const keyring = createKeyring({
    secrets: config.jwtSecrets,
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    ttlSeconds: config.accessTokenTtl,
    clock,
  });
  const clients = createClientsService({ db, clock, changes });
  const credentialUsage = createCredentialUsage({ db, clock, background });
  const credentials = createCredentialsService({ db, clock, changes, usage: credentialUsage });
  const directory = createClientDirectory({ db, changes });
  const authenticator = createAuthenticator({ keyring, accounts: directory, clock, used: credentialUsage.used });
  const readCache = createReadCache(changes);
  const keys = createKeyResolver({ db, cache: readCache });
  const metrics = createMetrics({ caches: () => ({ ...readCache.usage(), clients: directory.usage() }), authFailureReasons: UNAUTHORIZED_REASONS, background });
  database.observeConnectionWaits(metrics.connectionWait);
  changes.onLag(metrics.changeLag);
  const { counters, limits, limiter, failures, meter, usage } = createLimitsAndUsage({ config, db, clock, directory, metrics, changes, background });
  const outboundRules = createAddressRules(config.outboundAllowCidrs);
  // A serving process always has a key (withEncryptionKey); a context built otherwise (tests,
  // the CLI, benchmarks) gets one for its own life: what it seals dies with it, and it opens nothing older.
  const cipher = createSecretCipher(config.encryptionKey ?? randomBytes(32));
  const checkEndpoints = createCheckEndpoints({ db, clock, cipher, rules: outboundRules });
  createPurgeJob({ db, clock, background });
  createHistoryPurgeJob({ db, clock, changes, retentionDays: config.historyRetentionDays, background });
  const recentChanges = createRecentChanges();
  // Beside an import thread, which runs the work after the imports on its timers, this thread runs it after its own imports only.
  const onTimer = !importThreadOn(config);
  const { boardEvents, oddsMoves, webhookFormer, signals } = createHistoryWork({ config, db, clock, changes, background, recent: recentChanges, onTimer });
  createAuditPurgeJob({ repository: createAuditRepository(db), clock, retentionDays: config.auditRetentionDays, background });
  const webhookSender = createWebhookSender({ clock, rules: outboundRules, timeoutMs: config.webhookTimeoutMs });
  const webhooks = createWebhooks({ config, db, clock, cipher, sender: webhookSender, changes, metrics, meter, background });
  const draining = createDraining();
  const importers = createImporters({ config, database, clock, changes, metrics, recentChanges, background });
  return {
    config,
    database,
    clock,
    changes,
    keyring,
    clients,
    credentials,
    directory,
    authenticator,
    readCache,
    keys,
    metrics,
    counters,
    limits,
    limiter,
    failures,
    meter,
    usage,
    outboundRules,
    cipher,
    checkEndpoints,
    boardEvents,
    oddsMoves,
    recentChanges,
    webhookFormer,
    signals,
    background,
    redis,
    draining,
    webhooks,
    webhookSender,
    ...importers,
  };
}

/** The webhook dispatcher of this node: every node sends, one attempt per delivery by leases (decision 0310). */
function createWebhooks(deps: {
  config: Config;
  db: Database['db'];
  clock: Clock;
  cipher: { open(sealed: string): string };
  sender: WebhookSender;
  changes: ChangeFeed;
  metrics: Metrics;
  meter: UsageMeter;
  background: BackgroundJobs;
}): WebhookDispatcher {
  const { config, clock, meter } = deps;
  return createWebhookDispatcher({
    repository: createWebhookDispatchRepository(deps.db),
    sender: deps.sender,
    cipher: deps.cipher,
    clock,
    changes: deps.changes,
    metrics: deps.metrics.webhooks,
    background: deps.background,
    delivered: (clientId, now) => meter.delivered(clientId, now),
    timeoutMs: config.webhookTimeoutMs,
    concurrency: WEBHOOK_CONCURRENCY,
    everyMs: WEBHOOK_DISPATCH_EVERY_MS,
  });
}

/** The importers that run beside the serving: the upstream feed, the demo ticker, and the import thread, each when configured. */
function createImporters(deps: {
  config: Config;
  database: Database;
  clock: Clock;
  changes: ChangeFeed;
  metrics: Metrics;
  recentChanges: RecentChanges;
  background: BackgroundJobs;
}): Pick<AppContext, 'upstream' | 'demoTicker' | 'importThread'> {
  const { config, database, clock, changes, recentChanges, background } = deps;
  const upstream = config.upstream && createUpstream(config.upstream, { database, clock, changes, metrics: deps.metrics, background });
  // Before the ticker, which imports through it: started before it and stopped after it, so that no tick starts a thread again while the node stops.
  const importThread = importThreadOn(config) ? createImportThread({ entry: IMPORT_THREAD_ENTRY, workerData: { config }, clock, changes, recent: recentChanges, background }) : undefined;
  const demoTicker = config.demoData && config.demoTickerPerSecond > 0 ? createTicker(config.demoTickerPerSecond, { database, clock, changes, recentChanges, background, importThread }) : undefined;
  return { ...(upstream ? { upstream } : {}), ...(demoTicker ? { demoTicker } : {}), ...(importThread ? { importThread } : {}) };
}

/** The upstream feed a configured node follows, importing through the source importer (one node at a time, by a lease). */
function createUpstream(settings: UpstreamSettings, deps: { database: Database; clock: Clock; changes: ChangeFeed; metrics: Metrics; background: BackgroundJobs }): UpstreamFeed {
  const { database, clock, changes, metrics, background } = deps;
  const importer = createSourcesService({ database, importer: createImportService({ database, clock, changes }) });
  return createUpstreamFeed({ settings, importer, leases: createLeasesRepository(database.db), clock, metrics: metrics.upstream, background });
}

/**
 * The demo ticker, importing as the import route does: through the import thread where the node has
 * one, so that the work after its imports (board events, moves, signals) runs there and not on the
 * thread that serves the reads; else through the import route's service. Either way its changes
 * reach this node's streams as an import's do.
 */
function createTicker(perSecond: number, deps: { database: Database; clock: Clock; changes: ChangeFeed; recentChanges: RecentChanges; background: BackgroundJobs; importThread: ImportThread | undefined }): DemoTicker {
  const { database, clock, changes, recentChanges, background } = deps;
  const importer = deps.importThread ?? createImportService({ database, clock, changes, recent: recentChanges });
  return createDemoTicker({ importer, repository: createTickerRepository(database.db), leases: createLeasesRepository(database.db), clock, perSecond, background });
}

/**
 * Where limits are counted and what each client used: the counters (seeded from the recorded
 * usage), the limiter over them, the login-failure limits, the usage meter and its purge.
 */
function createLimitsAndUsage(deps: {
  config: Config;
  db: Database['db'];
  clock: Clock;
  directory: ClientDirectory;
  metrics: Metrics;
  changes: ChangeFeed;
  background: BackgroundJobs;
}): Pick<AppContext, 'counters' | 'limits' | 'limiter' | 'failures' | 'meter' | 'usage'> {
  const { config, db, clock, metrics, background } = deps;
  const usageRepository = createUsageRepository(db);
  const meter = createUsageMeter({ repository: usageRepository, flushMs: config.usageFlushMs, background });
  // Each client's day starts from its recorded usage: a restart gives no client its day back.
  const seeds = createDaySeeds({ repository: usageRepository, meter, clock });
  const counters = createLimitCounters({ redisUrl: config.redisUrl, seeds, background });
  const limits = createLimitPolicy(config.tierLimits);
  const limiter = createRateLimiter({ store: counters, policy: limits, clock, accounts: deps.directory });
  limiter.onReject((tier, window, clientId) => {
    metrics.rateLimitRejections(tier, window).inc();
    // What the portal shows a client of its 429s: when, and which window.
    meter.refused(clientId, window, clock.now());
  });
  // A change to any client may be a change of limits: what a node holds under the old ones goes back.
  deps.changes.onChange('clients', () => void limiter.revise());
  const failures = createCredentialFailures({
    store: counters,
    clock,
    limits: { perAddress: config.loginFailuresPerMinute, perClientAddress: config.loginFailuresPerClientPerMinute },
  });
  const usage = createUsageService({ repository: usageRepository, meter, limiter, clock });
  createUsagePurgeJob({ repository: usageRepository, clock, retentionDays: config.usageRetentionDays, hourlyRetentionDays: config.usageHourlyRetentionDays, background });
  return { counters, limits, limiter, failures, meter, usage };
}
