import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type AppContext, createContext } from './context.js';
import { withJwtSecret } from './jwt-secret.js';
import { openDatabase } from './platform/db/database.js';
import { retryWhileBusy } from './platform/db/busy-retry.js';
import { migrateToLatest } from './platform/db/migrations.js';
import { installGracefulShutdown } from './platform/lifecycle/shutdown.js';
import type { App } from './platform/http/types.js';
import { ensureDemoClient, ensureDemoData } from './modules/demo/index.js';

export interface RunningServer {
  app: App;
  ctx: AppContext;
  /** Stops listening, then the background jobs, then closes the database. */
  close(): Promise<void>;
}

/**
 * JWT secret (outside production, when unset) → migrate → context → app → background jobs →
 * (demo client and data) → listen, with graceful shutdown on SIGINT and SIGTERM
 * (platform/lifecycle/shutdown.ts: drain, close, deadline). Used by `npm start` (src/server.ts)
 * and by `sportsdata serve`, through cluster.ts, which pass their config. Without a config it
 * reads the environment and, on bad configuration, exits with the message on stderr — start-up
 * must refuse, not limp on.
 */
export async function startServer(given: Config = configOrExit()): Promise<RunningServer> {
  const config = withJwtSecret(given);
  const database = openDatabase(config.databaseUrl);
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
    // Several nodes may start at once on one SQLite file: a step that met another's lock runs again.
    await retryWhileBusy(() => migrateToLatest(database.db));
    ctx = createContext({ config, database });
    app = await buildApp(ctx);
    await ctx.background.start(app.log);
    await prepareFirstStart(app, ctx);
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
    throw error;
  }
}

/** On an empty database: the demo client (credentials in a 0600 file, never in the log) and dataset. */
async function prepareFirstStart(app: App, ctx: AppContext): Promise<void> {
  if (!ctx.config.demoData) return;
  const credentialsFile = await retryWhileBusy(() => ensureDemoClient({ clients: ctx.clients, dataDir: ctx.config.dataDir }));
  if (credentialsFile) app.log.info({ file: credentialsFile }, 'created the demo client; its credentials are in this file');
  const seeded = await retryWhileBusy(() => ensureDemoData(ctx));
  if (seeded) app.log.info({ upserted: seeded }, 'generated the demo dataset');
}

/** The environment's config; on bad configuration the message goes to stderr and the process exits 1. */
export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
