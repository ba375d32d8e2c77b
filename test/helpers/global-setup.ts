import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './embedded-postgres.js';

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
  // The portal's and the console's pages are served from their bundles, which `npm run build` makes:
  // made here too, so that a test run straight from the sources serves the pages as they are now.
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'inherit' });
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return async () => {};
  }
  const server = await startEmbeddedPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.remove();
}
