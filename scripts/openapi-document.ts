import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `npx tsx scripts/openapi-document.ts [ROOT]`: writes to stdout, byte for byte, the body that
 * `GET /openapi.json` answers for the server source under ROOT (default: this checkout), built in
 * this process on an in-memory SQLite database. `scripts/same-openapi.sh` runs it on two commits
 * and compares the bytes, so that a change meant to keep the API as it is can show it did.
 */
const root = resolve(process.argv[2] ?? '.');
const load = (path: string) => import(pathToFileURL(resolve(root, 'src', path)).href);
const [{ buildApp }, { loadConfig }, { createContext }, { openDatabase }, { migrateToLatest }] = await Promise.all([
  load('app.ts'),
  load('config.ts'),
  load('context.ts'),
  load('platform/db/database.ts'),
  load('platform/db/migrations.ts'),
]);
const url = 'sqlite::memory:';
const config = loadConfig({ DATABASE_URL: url, DATA_DIR: '/nonexistent-openapi-data-dir', JWT_SECRET: 'print-the-openapi-document-of-this-source', LOG_LEVEL: 'silent' });
const database = openDatabase(url);
try {
  await migrateToLatest(database.db);
  const app = await buildApp(createContext({ config, database }));
  try {
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
    process.stdout.write(res.rawPayload);
  } finally {
    await app.close();
  }
} finally {
  await database.close();
}
