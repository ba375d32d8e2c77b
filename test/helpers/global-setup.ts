import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { dropDatabasesStartingWith, migratedTemplate } from './throwaway-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** The migrated database a test app's PostgreSQL database is a copy of (migratedTemplate). */
    postgresTemplate: string;
    /** Where the run keeps its demo databases (SQLite files) and the marks of those made (test/helpers/demo-database.ts). */
    demoDirectory: string;
    /** The start of the names of the run's PostgreSQL demo databases, all dropped at its end. */
    demoPrefix: string;
  }
}

/**
 * Every run tests PostgreSQL as well as SQLite. TEST_DATABASE_URL points at a server to use
 * (each test app creates its own database there); without it a throwaway server is started
 * from the embedded-postgres package's binaries and removed afterwards. A database migrated to
 * the latest schema is made there once, and the test apps' databases are copies of it. The demo
 * databases the suites share (test/helpers/demo-database.ts) are made during the run, in a
 * directory and under a name of its own, and removed at its end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The portal's and the console's pages are served from their bundles, which `npm run build` makes:
  // made here too, so that a test run straight from the sources serves the pages as they are now.
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'inherit' });
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    const template = await provideServer(project, given);
    return () => template.drop();
  }
  const server = await startEmbeddedPostgres();
  const template = await provideServer(project, server.url);
  return async () => {
    try {
      await template.drop();
    } finally {
      await server.remove();
    }
  };
}

async function provideServer(project: TestProject, url: string): Promise<{ drop: () => Promise<void> }> {
  const template = await migratedTemplate(url);
  project.provide('postgresUrl', url);
  project.provide('postgresTemplate', template.name);
  const demoDirectory = await mkdtemp(join(tmpdir(), 'demo-databases-'));
  const demoPrefix = `demo_${randomBytes(6).toString('hex')}`;
  project.provide('demoDirectory', demoDirectory);
  project.provide('demoPrefix', demoPrefix);
  return {
    async drop() {
      await dropDatabasesStartingWith(url, demoPrefix);
      await rm(demoDirectory, { recursive: true, force: true });
      await template.drop();
    },
  };
}
