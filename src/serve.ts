import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type AppContext, createContext } from './context.js';
import { openDatabase } from './platform/db/database.js';
import { retryWhileBusy } from './platform/db/busy-retry.js';
import { migrateToLatest } from './platform/db/migrations.js';
import { installGracefulShutdown } from './platform/lifecycle/shutdown.js';
import type { App } from './platform/http/types.js';
import { ensureDemoClient } from './modules/demo/demo-client.js';
import { ensureDemoData } from './modules/demo/demo-data.js';
import { schedulePurge } from './modules/tokens/tokens.purge.js';

export interface RunningServer {
  app: App;
  ctx: AppContext;
  /** Stops listening, then closes the database. */
  close(): Promise<void>;
}

/**
 * Migrate → (demo client and data) → buildApp → listen, with graceful shutdown on SIGINT and
 * SIGTERM (platform/lifecycle/shutdown.ts: drain, close, deadline). Used by `npm start`
 * (src/server.ts) and by `sportsdata serve`, through cluster.ts, which pass their config.
 * Without a config it reads the environment and, on bad configuration, exits with the message
 * on stderr — start-up must refuse, not limp on.
 */
export async function startServer(config: Config = configOrExit()): Promise<RunningServer> {
  const database = openDatabase(config.databaseUrl);
  let app: App | undefined;
  let stopPurge: (() => void) | undefined;
  let uninstallShutdown = () => {};
  const close = async () => {
    stopPurge?.();
    await app?.close();
    await database.close();
  };
  try {
    // Several nodes may start at once on one SQLite file: a step that met another's lock runs again.
    await retryWhileBusy(() => migrateToLatest(database.db));
    const ctx = createContext({ config, database });
    app = await buildApp(ctx);
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
    stopPurge = schedulePurge(database.db, ctx.clock, (error) => app?.log.warn({ err: error }, 'refresh-token purge failed'));
    return { app, ctx, close };
  } catch (error) {
    // A failed start (port taken, database away) must not leave a pool holding the process open.
    uninstallShutdown();
    await close().catch(() => {});
    throw error;
  }
}

/** On an empty database: the demo client (credentials in a 0600 file, never in the log) and dataset. */
async function prepareFirstStart(app: App, ctx: AppContext): Promise<void> {
  if (!ctx.config.demoData) return;
  const credentialsFile = await retryWhileBusy(() => ensureDemoClient(ctx));
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
