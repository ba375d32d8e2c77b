import { connectDatabase } from '../../platform/db/connect.js';
import { migrateToLatest } from '../../platform/db/migrations.js';
import type { RegisterCommands } from '../runtime.js';

/** `sportsdata migrate`: brings the schema of DATABASE_URL up to date (serve does this too). */
export const registerMigrate: RegisterCommands = (program, cli) => {
  program
    .command('migrate')
    .description('bring the database schema up to date')
    .option('--create', 'create the database first when it does not exist (an SQLite file, or a PostgreSQL database on the server)')
    .option('--json', 'print machine-readable JSON')
    .action(async (options: { create?: boolean; json?: boolean }) => {
      const database = await connectDatabase(cli.config().databaseUrl, { create: options.create ?? false });
      let applied: string[];
      try {
        applied = await migrateToLatest(database.db);
      } finally {
        await database.close();
      }
      if (options.json) return cli.printJson({ applied });
      cli.print(applied.length === 0 ? 'The database is up to date.' : `Applied ${applied.length} migration(s): ${applied.join(', ')}`);
    });
};
