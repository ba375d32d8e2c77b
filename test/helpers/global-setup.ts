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
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return async () => {};
  }
  const server = await startEmbeddedPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.remove();
}
