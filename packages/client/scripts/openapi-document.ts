import type { Json } from './codegen/schema-types.js';

/**
 * The server's OpenAPI document, built in this process from the repository's server source: the
 * very document `GET /openapi.json` serves, without a database file, a port or a running server.
 */
export async function documentFromSource(): Promise<Json> {
  const [{ buildApp }, { loadConfig }, { createContext }, { openDatabase }, { migrateToLatest }] = await Promise.all([
    import('../../../src/app.js'),
    import('../../../src/config.js'),
    import('../../../src/context.js'),
    import('../../../src/platform/db/database.js'),
    import('../../../src/platform/db/migrations.js'),
  ]);
  const url = 'sqlite::memory:';
  const config = loadConfig({ DATABASE_URL: url, DATA_DIR: '/nonexistent-openapi-data-dir', JWT_SECRET: 'generate-the-client-types-from-the-document', LOG_LEVEL: 'silent' });
  const database = openDatabase(url);
  try {
    await migrateToLatest(database.db);
    const app = await buildApp(createContext({ config, database }));
    try {
      await app.ready();
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      return res.json<Json>();
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

/** The document a running server serves at `<origin>/openapi.json`. */
export async function documentFromServer(origin: string): Promise<Json> {
  const res = await fetch(new URL('/openapi.json', origin));
  if (!res.ok) throw new Error(`GET ${origin}/openapi.json answered ${res.status}`);
  return (await res.json()) as Json;
}
