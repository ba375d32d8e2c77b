import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createContext } from './context.js';
import { openDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrations.js';
import { ensureDemoClient } from './modules/demo/demo-client.js';
import { ensureDemoData } from './modules/demo/demo-data.js';

/** Process entry: loadConfig → migrate → (demo data) → buildApp → listen; graceful shutdown. */
export async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const ctx = createContext({ config, database });
  const app = await buildApp(ctx);

  if (config.demoData) {
    const credentialsFile = await ensureDemoClient(ctx);
    if (credentialsFile) app.log.info({ file: credentialsFile }, 'created the demo client; its credentials are in this file');
    const seeded = await ensureDemoData(ctx);
    if (seeded) app.log.info({ upserted: seeded }, 'generated the demo dataset');
  }

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
}

await main();
