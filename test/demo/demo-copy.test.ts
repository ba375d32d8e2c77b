import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/modules/demo/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { DEMO_MOMENTS, DEMO_NOW, MOMENT_SCALE } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';
import { type Harness, harness } from '../helpers/harness.js';

/**
 * What differs from one load of the demo to the next on either database, left out of the
 * comparison: the database's own time, not the app's clock's (when the change feed's counters
 * moved, when the migrations ran); the order the signals are recorded in, which depends on which
 * of the detector's runs (the import's own, or the background's woken by it) finds each first, and
 * so their ids; the board events, which the app's background processor cuts into batches by when it
 * runs (how far they reach is compared: the newest change they hold), and their counter.
 */
const LEFT_OUT: Record<string, string[]> = {
  change_versions: ['changed_at'],
  kysely_migration: ['timestamp'],
  signals: ['id', 'row_id'],
};

function compared(table: string, row: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(row).filter(([column]) => !LEFT_OUT[table]?.includes(column)));
  if (table === 'change_versions' && row.name === 'board') delete kept.version;
  return kept;
}

/** Every table's rows (SQLite's with their rowids) and every sequence's position, one digest per table. */
async function contents(t: Harness): Promise<Record<string, string>> {
  const { db } = t.database;
  const sqlite = t.database.dialect === 'sqlite';
  const tables = sqlite
    ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db)
    : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public' order by table_name`.execute(db);
  const digests: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const rows =
      name === 'board_changes'
        ? await sql<Record<string, unknown>>`select max(history_id) as reached from board_changes`.execute(db)
        : await sql<Record<string, unknown>>`select ${sql.raw(sqlite ? 'rowid as row_id, ' : '')}* from ${sql.id(name)}`.execute(db);
    const lines = rows.rows.map((row) => JSON.stringify(compared(name, row))).sort();
    digests[name] = `${lines.length} ${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
  }
  if (!sqlite) {
    const sequences = await sql<{ name: string; last: string | null }>`select sequencename as name, last_value as last from pg_sequences where schemaname = 'public' order by sequencename`.execute(db);
    for (const { name, last } of sequences.rows) digests[`sequence ${name}`] = String(last);
  }
  return digests;
}

const CASES = [
  { dialect: 'sqlite' as const, now: Date.parse(DEMO_MOMENTS[0]?.at ?? ''), scale: MOMENT_SCALE },
  { dialect: 'postgres' as const, now: DEMO_NOW, scale: 0.05 },
];

describe.each(CASES)('a copy of the run\'s demo database ($dialect)', ({ dialect, now, scale }) => {
  let loaded: Harness;
  let copied: Harness;
  beforeAll(async () => {
    loaded = await harness({ dialect, clock: manualClock(now) });
    await loadDemoData(loaded.ctx, { scale });
    copied = await demoHarness({ dialect, now, scale });
  }, 120_000);
  afterAll(async () => {
    await loaded?.close();
    await copied?.close();
  });

  it('holds what loading the demo into a new app holds, row for row', async () => {
    // The board events of the whole history and the webhooks' work from them, then nothing running: both apps at rest.
    for (const t of [loaded, copied]) {
      await t.ctx.boardEvents.run();
      await t.ctx.webhookFormer.run();
      await t.ctx.background.stop();
    }
    expect(await contents(copied)).toEqual(await contents(loaded));
  });
});
