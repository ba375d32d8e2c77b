import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { throwawayPostgres } from '../helpers/throwaway-database.js';

describe('PostgreSQL with a query log', () => {
  it('runs statement after statement on the pooled connections, each logged once', async () => {
    const { url, drop } = await throwawayPostgres(inject('postgresUrl'), 'querylog');
    const logged: string[] = [];
    const database = openDatabase(url, { poolSize: 2, onQuery: (sql) => void logged.push(sql) });
    try {
      // More statements than connections: each connection is acquired again and again.
      for (let i = 0; i < 20; i++) {
        const { rows } = await sql<{ n: number }>`select ${i}::int as n`.execute(database.db);
        expect(rows[0]?.n).toBe(i);
      }
      expect(logged).toHaveLength(20);
    } finally {
      await database.db.destroy();
      await drop();
    }
  });
});
