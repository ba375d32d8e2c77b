import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type AppContext, createContext } from './context.js';
import { requireSharedEncryptionKey, withEncryptionKey } from './encryption-key.js';
import { requireSharedSecret, withJwtSecret } from './jwt-secret.js';
import { retryWhileBusy } from './platform/db/busy-retry.js';
import { connectDatabase, DatabaseMissingError } from './platform/db/connect.js';
import { migrateToLatest, SCHEMA_VERSION } from './platform/db/migrations.js';
import { installGracefulShutdown } from './platform/lifecycle/shutdown.js';
import type { App } from './platform/http/types.js';
import { ensureDemoClient, ensureDemoData } from './modules/demo/index.js';
import { computeFlows, eventsDueAtStart, EVENTS_PER_BATCH_UNSERVED, gradeEvents } from './modules/results/index.js';

export interface RunningServer {
  app: App;
  ctx: AppContext;
  /** Stops listening, then the background jobs, then closes the database. */
  close(): Promise<void>;
}

/** A start-up that cannot succeed, said in one line for the operator (no stack trace). */
export class StartupError extends Error {
  override name = 'StartupError';
}

/**
 * Database (it must exist, except a missing SQLite file, which serving creates) → JWT secret
 * (outside production, when unset) → migrate → context → app → background jobs → (demo client
 * and data) → listen, with graceful shutdown on SIGINT and SIGTERM (platform/lifecycle/shutdown.ts:
 * drain, close, deadline). Used by `npm start` (src/server.ts) and by `sportsdata serve`,
 * through cluster.ts, which pass their config. A failure is thrown as a ConfigError,
 * DatabaseMissingError or StartupError whose message is one line for the operator; the process
 * entry prints it and exits 1 (docs/decisions/0083).
 */
export async function startServer(given: Config = loadConfig()): Promise<RunningServer> {
  // The configuration is refused before anything is touched.
  requireSharedSecret(given);
  requireSharedEncryptionKey(given);
  // Serving creates a missing SQLite file, so that `npm start` works on a fresh clone; a
  // PostgreSQL database is the operator's to create (docs/decisions/0082).
  const database = await connectDatabase(given.databaseUrl, { create: given.databaseUrl.startsWith('sqlite:') }).catch((error: unknown) => {
    throw explain(error, given);
  });
  let config = given;
  let app: App | undefined;
  let ctx: AppContext | undefined;
  let uninstallShutdown = () => {};
  const close = async () => {
    await app?.close();
    await ctx?.background.stop();
    await database.close();
    // Last: while closing, a second signal (Ctrl-C, then the cluster primary's SIGTERM) must be ignored, not kill.
    uninstallShutdown();
  };
  try {
    config = withEncryptionKey(withJwtSecret(given));
    // Several nodes may start at once on one SQLite file: a step that met another's lock runs again.
    const applied = await retryWhileBusy(() => migrateToLatest(database.db));
    ctx = createContext({ config, database });
    app = await buildApp(ctx);
    // After an upgrade the operator's first question is what changed in the database, and on which node.
    if (applied.length > 0) app.log.info({ applied, schema: SCHEMA_VERSION }, 'migrated the database');
    else app.log.info({ schema: SCHEMA_VERSION }, 'the database schema is up to date');
    await ctx.background.start(app.log);
    await prepareFirstStart(app, ctx);
    // Like the first-start steps: a node that finds the demo already imported can meet the other
    // node's grading or import holding SQLite's lock; each try reads again what is still due.
    const serving = { app, ctx };
    await retryWhileBusy(() => gradeDueEvents(serving.app, serving.ctx));
    // Before listening, so that every request is counted as in flight.
    uninstallShutdown = installGracefulShutdown({
      server: app.server,
      log: app.log,
      draining: ctx.draining,
      drainMs: config.shutdownDrainMs,
      timeoutMs: config.shutdownTimeoutMs,
      close,
      exit: (code) => process.exit(code),
    });
    const url = await app.listen({ host: config.host, port: config.port });
    // Which runtime serves matters to operators: the project supports Node 22, 24 and 26 only.
    app.log.info({ url, node_version: process.version, pid: process.pid }, 'serving');
    return { app, ctx, close };
  } catch (error) {
    // A failed start (port taken, database away) must not leave a pool or a timer holding the process open.
    uninstallShutdown();
    await close().catch(() => {});
    throw explain(error, config);
  }
}

/**
 * Why the process cannot start, in one line on stderr, then exit code 1 (the process entry of
 * `npm start` and a cluster worker). Whatever failed, the operator gets a sentence, not a stack trace.
 */
export function cannotStart(error: unknown): never {
  process.stderr.write(`cannot start: ${error instanceof Error ? firstLine(error.message) : String(error)}\n`);
  process.exit(1);
}

/** A start-up failure in the operator's terms; anything unforeseen keeps its own message. */
function explain(error: unknown, config: Config): unknown {
  if (error instanceof ConfigError || error instanceof DatabaseMissingError || error instanceof StartupError) return error;
  const where = `${config.host}:${config.port}`;
  switch (errorCode(error)) {
    case 'EADDRINUSE':
      return new StartupError(`${where} is already in use: stop the process listening there, or set PORT (or HOST) to a free address`);
    case 'EACCES':
      return new StartupError(`no permission to listen on ${where}: set PORT to a port above 1023`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(`cannot listen on ${where}: HOST is not an address of this machine`);
    default:
      return error;
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** Several configuration problems are listed one per line: they are still one message, kept whole. */
function firstLine(message: string): string {
  return message.startsWith('Invalid configuration:') ? message : (message.split('\n')[0] ?? message);
}

/**
 * Events whose grading a stopped node left unfinished (an import commits before it grades), and
 * events that ended before grading existed, are graded before the node serves, with the trends
 * their grades prove: no answer is served from the grades of a score since corrected
 * (decision 0280), and an upgraded database answers the results endpoints at once.
 */
async function gradeDueEvents(app: App, ctx: AppContext): Promise<void> {
  const deps = { db: ctx.database.db, changes: ctx.changes };
  const events = await eventsDueAtStart(deps.db);
  if (events.length === 0) return;
  const { written } = await gradeEvents(deps, events, ctx.clock.now(), EVENTS_PER_BATCH_UNSERVED);
  if (written > 0) await computeFlows(deps, new Map(), events);
  app.log.info({ events: events.length, grades: written }, 'graded the events whose grading was due');
}

/** On an empty database: the demo client (credentials in a 0600 file, never in the log) and dataset. */
async function prepareFirstStart(app: App, ctx: AppContext): Promise<void> {
  if (!ctx.config.demoData) return;
  const credentialsFile = await retryWhileBusy(() => ensureDemoClient({ clients: ctx.clients, dataDir: ctx.config.dataDir, databaseUrl: ctx.config.databaseUrl }));
  if (credentialsFile) app.log.info({ file: credentialsFile }, 'created the demo client; its credentials are in this file');
  const seeded = await retryWhileBusy(() => ensureDemoData(ctx));
  if (seeded) app.log.info({ upserted: seeded }, 'generated the demo dataset');
}
