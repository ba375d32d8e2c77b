import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Json } from './codegen/schema-types.js';

/** The repository's root: the server source this package is generated from. */
const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The server's OpenAPI document, built in this process from the repository's server source: the
 * very document `GET /openapi.json` serves, without a database file, a port or a running server.
 */
export async function documentFromSource(): Promise<Json> {
  return JSON.parse((await documentBytesFromSource()).toString('utf8')) as Json;
}

/**
 * The bytes `GET /openapi.json` answers for the server source under `root` (default: this
 * repository), built on an in-memory SQLite database. The root may be another checkout of the
 * repository (scripts/same-openapi.sh compares two commits this way).
 */
export async function documentBytesFromSource(root: string = REPOSITORY): Promise<Buffer> {
  const load = (path: string) => import(pathToFileURL(resolve(root, 'src', path)).href);
  const [{ buildApp }, { loadConfig }, { createContext }, { openDatabase }, { migrateToLatest }] = await Promise.all([
    load('app.ts'),
    load('config.ts'),
    load('context.ts'),
    load('platform/db/database.ts'),
    load('platform/db/migrations.ts'),
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
      if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
      return res.rawPayload;
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
