import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { migratedTemplate } from './throwaway-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** The migrated database a test app's PostgreSQL database is a copy of (migratedTemplate). */
    postgresTemplate: string;
  }
}

/**
 * Every run tests PostgreSQL as well as SQLite. TEST_DATABASE_URL points at a server to use
 * (each test app creates its own database there); without it a throwaway server is started
 * from the embedded-postgres package's binaries and removed afterwards. A database migrated to
 * the latest schema is made there once, and the test apps' databases are copies of it.
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
  await provideServer(project, server.url);
  return () => server.remove();
}

async function provideServer(project: TestProject, url: string): Promise<{ drop: () => Promise<void> }> {
  const template = await migratedTemplate(url);
  project.provide('postgresUrl', url);
  project.provide('postgresTemplate', template.name);
  return template;
}
