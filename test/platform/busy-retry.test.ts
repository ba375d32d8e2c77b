import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { retryWhileBusy } from '../../src/platform/db/busy-retry.js';

const dir = mkdtempSync(join(tmpdir(), 'sportsdata-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two connections to one SQLite file, as two processes have: one holds the write lock for 300 ms. */
function lockedDatabase(name: string) {
  const file = join(dir, name);
  const holder = new BetterSqlite3(file);
  holder.pragma('journal_mode = WAL');
  holder.exec('create table t (x integer)');
  const writer = new BetterSqlite3(file);
  writer.pragma('busy_timeout = 20');
  holder.exec('begin immediate');
  setTimeout(() => holder.exec('commit'), 300);
  const insert = async () => writer.prepare('insert into t (x) values (1)').run().changes;
  return { insert, close: () => [holder, writer].forEach((db) => db.close()) };
}

describe('retryWhileBusy', () => {
  it('runs a step again after SQLITE_BUSY until the other writer is done', async () => {
    const db = lockedDatabase('retried.db');
    try {
      expect(await retryWhileBusy(db.insert)).toBe(1);
    } finally {
      db.close();
    }
  });

  it('without it, the step fails with SQLITE_BUSY; other errors are not retried', async () => {
    const db = lockedDatabase('plain.db');
    try {
      await expect(db.insert()).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      await expect(retryWhileBusy(async () => Promise.reject(new Error('not busy')))).rejects.toThrow('not busy');
      await new Promise((resolve) => setTimeout(resolve, 400));
    } finally {
      db.close();
    }
  });
});
