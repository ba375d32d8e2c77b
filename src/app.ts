import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import { configuredSecrets } from './config.js';
import type { AppContext } from './context.js';
import { registerCompression } from './platform/http/compression.js';
import { registerErrorHandling } from './platform/http/errors.plugin.js';
import { registerResponseHeaders } from './platform/http/headers.js';
import { clientErrorHandler, frameworkErrors, registerClosingAnswer } from './platform/http/framework-errors.js';
import { registerJsonBodies } from './platform/http/json-bodies.js';
import { registerMetrics } from './platform/http/metrics.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { registerStrictInput } from './platform/http/strict-input.js';
import type { App } from './platform/http/types.js';
import { validatorCompiler } from './platform/http/validation.js';
import { createPagedLists } from './platform/lists/paged-lists.js';
import { createLogger, requestIds, requestLogger, urlRedactor } from './platform/logging.js';
import { accountRoutes } from './modules/account/index.js';
import { adminRoutes } from './modules/admin/index.js';
import { createSourcesService, releaseAliased, sourcesRoutes } from './modules/sources/index.js';
import { auditRoutes, createAuditRepository } from './modules/audit/index.js';
import { isSecretText, UNAUTHORIZED_REASONS } from './modules/auth/index.js';
import { docsRoutes } from './modules/docs/index.js';
import { createEventsService, EventOrCompetition, eventsRoutes } from './modules/events/index.js';
import { competitionsRoutes, createCompetitionsService } from './modules/competitions/index.js';
import { healthRoutes } from './modules/health/index.js';
import { asOfBounds, checkAsOf as checkAsOfBounds, createChangeCursor, createHistoryRepository, createHistoryService, historyRoutes } from './modules/history/index.js';
import { createImportService, importRoutes } from './modules/import/index.js';
import { metricsRoutes } from './modules/metrics/index.js';
import { listenOrigin, oauthRoutes } from './modules/oauth/index.js';
import {
  type AsOfCheck,
  createBoardEventsRepository,
  createBoardService,
  createEdgesService,
  createMovementService,
  createMovesService,
  createOddsService,
  createMoveEvents,
  type MovementService,
  movementRoutes,
  movesRoutes,
  oddsRoutes,
} from './modules/odds/index.js';
import { createResultsService, type ResultsService, resultsRoutes } from './modules/results/index.js';
import { createSignalsService, signalsRoutes } from './modules/signals/index.js';
import { registerRoutePolicies } from './modules/policy/index.js';
import { consoleRoutes, createWebSessions, portalRoutes, registerPageHeaders, type WebSessions } from './modules/portal/index.js';
import { createHydrator, createQuoteService, MAX_ANSWER_BYTES, quotesRoutes } from './modules/quotes/index.js';
import { createReferencesService, referencesRoutes } from './modules/references/index.js';
import { changesRoutes, createStreamSlots, streamRoutes } from './modules/stream/index.js';
import { createTokenService, tokensRoutes } from './modules/tokens/index.js';
import { createTrendsService, trendsRoutes } from './modules/trends/index.js';
import { usageRoutes } from './modules/usage/index.js';
import { createWebhookDeliveriesService, webhookDeliveriesRoutes } from './modules/webhooks/index.js';
import { createWebhookEndpoints, createWebhookTester, webhookOperations, webhookRoutes } from './modules/webhooks/index.js';

/**
 * How often Node looks for requests past HEADERS_TIMEOUT or REQUEST_TIMEOUT. Its default, 30 s,
 * let a 60 s header timeout answer after 90 s; a look is one pass over the open connections.
 */
const TIMEOUT_CHECK_MS = 1000;

export interface BuildAppOptions {
  /** Where the JSON log lines go (default stdout). Tests pass a buffer. */
  logStream?: DestinationStream;
}

/**
 * Builds the HTTP app over a context. No I/O happens at import time, and building starts no
 * background work (the context's owner does: serve.ts); the caller listens.
 */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<App> {
  // A client may put anything in a URL, this process's own secrets included: neither the log nor an answer repeats them.
  const secrets = configuredSecrets(ctx.config);
  const redactUrl = urlRedactor(secrets);
  const logger: FastifyBaseLogger = createLogger(ctx.config.logLevel, options.logStream, redactUrl);
  const app: App = Fastify({
    loggerInstance: logger,
    // A request id that is a secret (a credential, a JWT, one of this process's own) is neither logged nor echoed.
    genReqId: requestIds((value) => isSecretText(value) || secrets.includes(value)),
    childLoggerFactory: requestLogger,
    // The name the error bodies use, so that one id reads the same in an answer and in the log.
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // Answers Fastify and Node would give in their own shape are given in ours (docs/api.md#errors).
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(logger),
    return503OnClosing: false,
    // A client that stops part-way through its request would otherwise hold its connection for as
    // long as it likes (Fastify turns Node's request timeout off): 408 once its time is up.
    requestTimeout: ctx.config.requestTimeoutMs,
    http: { headersTimeout: ctx.config.headersTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_MS },
    // The source address the login-failure limits count: the peer, unless TRUST_PROXY names
    // the load balancers whose X-Forwarded-For is believed (decision 0163).
    trustProxy: trustProxyOption(ctx.config.trustProxy),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerJsonBodies(app);
  registerStrictInput(app);
  // Without ADMIN_TOKEN the admin API does not exist (decision 0009): no 405 may reveal it.
  const adminAbsent = ctx.config.adminToken === undefined;
  registerErrorHandling(app, { hidden: (path) => adminAbsent && path.startsWith('/admin/'), authFailures: ctx.metrics.authFailures, redactUrl });
  registerClosingAnswer(app);
  registerResponseHeaders(app);
  // The pages' security headers, on their 404s too.
  registerPageHeaders(app);
  registerMetrics(app, ctx.metrics.http);
  // Before any route, each hooked to every route as it is added: the route's policy (who may call
  // it, its tier, limit, usage group and cache headers: decisions 0180, 0181), then compression,
  // which must see the answer last (decisions 0074, 0151).
  // The portal's and the console's sessions: a step of their session routes' policy, and what their routes keep tokens in.
  const sessions = createWebSessions({ clock: ctx.clock, capacity: ctx.config.webSessionsPerNode });
  registerRoutePolicies(app, {
    sessions,
    authenticator: ctx.authenticator,
    failures: ctx.failures,
    adminToken: ctx.config.adminToken,
    limiter: ctx.limiter,
    meter: ctx.meter,
    clock: ctx.clock,
  });
  registerCompression(app);
  await registerOpenApi(app, { admin: !adminAbsent, unauthorizedReasons: UNAUTHORIZED_REASONS, webhooks: webhookOperations() });
  for (const routes of featureRoutes(ctx, sessions)) {
    await app.register(async (scope) => routes(scope.withTypeProvider<TypeBoxTypeProvider>()));
  }
  return app;
}

/**
 * Fastify's trustProxy from the config: off, the trusted addresses, or a hop count (as the
 * function Fastify makes of a number: the nearest `hops` proxies are trusted).
 */
function trustProxyOption(trust: AppContext['config']['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return typeof trust === 'object' ? [...trust] : trust;
}

/** The line movement: over the board's selections, reading the history as of an instant (the history module imports odds, so it is handed in). */
function movementService({ database: { db }, clock, keys, readCache }: AppContext): MovementService {
  const asOf = { bounds: () => asOfBounds(db), check: checkAsOfBounds };
  return createMovementService({ db, clock, board: createBoardService({ db, clock, keys, checkAsOf: asOfCheckOf(db, clock) }).board, idLists: readCache.idLists, asOf });
}

/** as_of is checked against the price history's bounds: the history module answers them (decision 0317). */
function asOfCheckOf(db: AppContext['database']['db'], clock: AppContext['clock']): AsOfCheck {
  return async (at) => checkAsOfBounds(new Date(at), await asOfBounds(db), new Date(clock.now()));
}

/** What the odds stream reads: the price history, the board's events, the grades, and the steam moves and drops where they are found. */
function streamDeps(ctx: AppContext, settled: ResultsService['settled']): Parameters<typeof streamRoutes>[1] {
  const { database, config, changes, directory, keys, clock } = ctx;
  return {
    history: createHistoryRepository(database),
    recent: ctx.recentChanges,
    board: createBoardEventsRepository(database.db),
    settled,
    ...(ctx.oddsMoves === undefined ? {} : { moves: createMoveEvents(database.db) }),
    slots: createStreamSlots({ redis: ctx.redis, heartbeatMs: config.streamHeartbeatMs, clock }),
    changes,
    accounts: directory,
    keys,
    clock,
    heartbeatMs: config.streamHeartbeatMs,
  };
}

/**
 * Every feature's routes, each given exactly the services it uses (built here, from the
 * context), in the order the document lists them.
 */
function featureRoutes(ctx: AppContext, sessions: WebSessions): Array<(app: App) => Promise<void>> {
  const { config, database, clock, changes, keyring, clients, credentials, directory, authenticator, readCache, keys, metrics, failures, limits, usage, counters, checkEndpoints, outboundRules } = ctx;
  const { db } = database;
  const lists = createPagedLists(readCache);
  // One token service behind the contract's JSON endpoints and the standard OAuth ones: one set of rules.
  const tokens = createTokenService({ db, clock, keyring, accounts: directory, lifetimes: config });
  const competitions = createCompetitionsService({ db, keys });
  const events = createEventsService({ db, clock, keys, competitions });
  const results = createResultsService({ db, clock, keys });
  const quotes = createQuoteService({
    endpoints: checkEndpoints,
    hydrate: createHydrator(db),
    counters,
    clock,
    outbound: { rules: outboundRules, timeoutMs: config.outboundTimeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES },
    callsPerMinute: config.outboundCallsPerMinute,
    metrics,
  });
  return [
    (app) => healthRoutes(app, { database, draining: ctx.draining, redis: redisProbe(ctx), upstream: ctx.upstream }),
    (app) => tokensRoutes(app, { authenticator, failures, tokens }),
    (app) => oauthRoutes(app, { tokens, authenticator, failures, publicUrl: config.publicUrl, listenOrigin: listenOrigin(config.host, config.port) }),
    (app) => accountRoutes(app, { credentials, clock }),
    (app) => usageRoutes(app, { usage, clock, accountOf: clients.get }),
    (app) => auditRoutes(app, { audit: createAuditRepository(db) }),
    (app) => referencesRoutes(app, { lists, references: createReferencesService({ db, keys, cache: readCache, clock }) }),
    (app) => eventsRoutes(app, { lists, events }),
    (app) => competitionsRoutes(app, { lists, competitions }),
    (app) => {
      const checkAsOf = asOfCheckOf(db, clock);
      const board = createBoardService({ db, clock, keys, checkAsOf });
      return oddsRoutes(app, { lists, odds: createOddsService({ db, keys, checkAsOf }), board, edges: createEdgesService({ board: board.board, keys }) });
    },
    (app) => movementRoutes(app, { movement: movementService(ctx) }),
    (app) => movesRoutes(app, { moves: createMovesService({ db, keys, thresholds: config.moves.thresholds }) }),
    (app) => resultsRoutes(app, { lists, results }),
    (app) => signalsRoutes(app, { signals: createSignalsService({ db, clock, keys }) }),
    (app) => historyRoutes(app, { lists, history: createHistoryService({ database, clock, keys, eventItem: events.item }), eventItem: EventOrCompetition }),
    (app) => streamRoutes(app, streamDeps(ctx, results.settled)),
    (app) => {
      const history = createHistoryRepository(database);
      return changesRoutes(app, { cursor: createChangeCursor({ db, history }), history, keys });
    },
    (app) => trendsRoutes(app, { lists, trends: createTrendsService({ database, keys, clock }) }),
    (app) => quotesRoutes(app, { endpoints: checkEndpoints, quotes, publicUrl: config.publicUrl }),
    (app) =>
      webhookDeliveriesRoutes(app, {
        deliveries: createWebhookDeliveriesService({ db, clock, dispatcher: ctx.webhooks, retentionDays: config.webhookRetentionDays }),
      }),
    (app) => {
      const endpoints = createWebhookEndpoints({ db, clock, cipher: ctx.cipher, urls: { rules: outboundRules, production: config.nodeEnv === 'production' } });
      const test = createWebhookTester({ db, endpoints, sender: ctx.webhookSender });
      return webhookRoutes(app, { endpoints, test, capOf: (tier) => config.tierLimits[tier].webhookEndpoints, clock });
    },
    (app) => adminRoutes(app, { clients, credentials, clock, limits }),
    (app) => importRoutes(app, { importer: ctx.importThread ?? createImportService({ database, clock, changes, releaseAliased, recent: ctx.recentChanges }) }),
    (app) => sourcesRoutes(app, { sources: createSourcesService({ database, importer: createImportService({ database, clock, changes }) }) }),
    (app) => docsRoutes(app),
    (app) =>
      portalRoutes(app, {
        sessions: sessions.portal,
        clock,
        authenticator,
        publicUrl: config.publicUrl,
        revoke: async (clientId, refreshToken) => void (await tokens.revoke(await clients.get(clientId), refreshToken)),
      }),
    // Like the admin API, the console exists only with ADMIN_TOKEN: without it /console is 404.
    ...(config.adminToken === undefined ? [] : [(app: App) => consoleRoutes(app, { sessions: sessions.console, publicUrl: config.publicUrl })]),
    (app) => metricsRoutes(app, { registry: metrics.registry }),
  ];
}

/**
 * Redis as /readyz reports it: degraded while either of its uses is cut off (the change feed's
 * pub/sub link, the limit counters). Never a reason for 503: nodes serve on without it.
 */
function redisProbe(ctx: AppContext): { state(): 'ok' | 'degraded' } | undefined {
  const { redis, counters } = ctx;
  if (redis === undefined) return undefined;
  return { state: () => (redis.state() === 'ok' && counters.state() === 'ok' ? 'ok' : 'degraded') };
}

