import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/modules/demo/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { DEMO_MOMENTS, DEMO_NOW, MOMENT_SCALE } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';
import { type Harness, harness } from '../helpers/harness.js';

/** Every table's rows (SQLite's with their rowids) and every sequence's position, one digest per table. */
async function contents(t: Harness): Promise<Record<string, string>> {
  const { db } = t.database;
  const sqlite = t.database.dialect === 'sqlite';
  const tables = sqlite
    ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db)
    : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public' order by table_name`.execute(db);
  const digests: Record<string, string> = {};
  for (const { name } of tables.rows) {
    // Two tables hold the database's own time, not the app's clock's, which differs from one load to the next: when the
    // change feed's counters moved, and when the migrations ran (a copy's are its source's).
    const columns = { change_versions: sql`name, version`, kysely_migration: sql`name` }[name] ?? sql`*`;
    const rows = await sql<Record<string, unknown>>`select ${sql.raw(sqlite ? 'rowid as row_id, ' : '')}${columns} from ${sql.id(name)}`.execute(db);
    const lines = rows.rows.map((row) => JSON.stringify(row)).sort();
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
    for (const t of [loaded, copied]) await t.ctx.background.stop();
    expect(await contents(copied)).toEqual(await contents(loaded));
  });
});
