import { sql } from 'kysely';
import type { Database } from './database.js';

/**
 * After a bulk load into an empty database, PostgreSQL's planner still sees the tables as empty
 * until autovacuum analyzes them, which it does on its own schedule: until then it plans the
 * reads that follow (the history processors' batches, the rows of the markets they touch) as for
 * empty tables, with sequential scans of what are now hundreds of thousands of rows. Analyzing
 * right after the load gives those reads their indexes. SQLite's planner needs no statistics for
 * these reads, so there it does nothing.
 */
export async function refreshPlannerStatistics(database: Database): Promise<void> {
  if (database.dialect === 'postgres') await sql`analyze`.execute(database.db);
}
