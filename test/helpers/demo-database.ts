import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { loadDemoData } from '../../src/modules/demo/index.js';
import { manualClock } from '../../src/platform/clock.js';
import type { Database, DialectName } from '../../src/platform/db/database.js';
import type { MadeDatabase } from './app.js';
import { type Harness, type HarnessOptions, harness } from './harness.js';
import { throwawayPostgres } from './throwaway-database.js';

/** The demo a suite reads: what loadDemoData(t.ctx, { scale, competitions }) makes on an app whose clock stands at `now`. */
export interface DemoOptions {
  now: number;
  scale: number;
  competitions?: boolean;
}

/** What a made demo is: where its database is (an SQLite file's path, a PostgreSQL database's name), and what its load reported. */
interface MadeDemo {
  source: string;
  /** What loadDemoData returned when it made the demo (the upserted counts). */
  upserted: Record<string, number>;
}

/** A harness on a copy of the demo, with what loading it reported. */
export interface DemoHarness extends Harness {
  /** What loadDemoData returned when it made the demo, into a new database as the copy's source. */
  readonly upserted: Record<string, number>;
}

/**
 * A harness on the demo dataset, its clock at the moment the demo was made: the same data as
 * `harness({ dialect, clock: manualClock(now) })` then `loadDemoData(t.ctx, { scale, competitions })`
 * make, without making it again. The demo of each dialect and options is made once per run, by
 * the first suite that asks for it, as that pair of calls makes it; each app then gets a copy of
 * its own (a PostgreSQL database made from it as a template, or its rows in a new in-memory SQLite
 * database), which the suite may change as it likes. Loading the demo took a large part of the
 * time of the suites that read it, and most of them made one another suite made too.
 */
export async function demoHarness(options: Omit<HarnessOptions, 'clock' | 'database' | 'databaseUrl' | 'beforeMigrating'> & DemoOptions): Promise<DemoHarness> {
  const { now, scale, competitions, ...rest } = options;
  const demo = { now, scale, competitions: competitions ?? false };
  const made = await madeOnce(options.dialect, demo);
  const t = await harness({ ...rest, clock: manualClock(now), database: await copyOf(options.dialect, made.source) });
  return Object.assign(t, { upserted: made.upserted });
}

async function copyOf(dialect: DialectName, source: string): Promise<MadeDatabase> {
  if (dialect === 'postgres') return throwawayPostgres(inject('postgresUrl'), 'test', source);
  return { url: 'sqlite::memory:', drop: async () => {}, fill: (database) => copyRows(database, source) };
}

/** How long a suite waits for another suite's worker to make the demo it needs. */
const WAIT_FOR_MAKER_MS = 240_000;
const POLL_MS = 100;

/**
 * The run's demo database for these options, with what its load reported. The test workers are
 * separate processes: the first to need it takes the lock (a file created exclusively) and makes
 * it; the others wait for its mark. A maker that fails gives the lock back, and the next suite
 * that needs the demo tries again.
 */
async function madeOnce(dialect: DialectName, demo: Required<DemoOptions>): Promise<MadeDemo> {
  const key = createHash('sha256').update(JSON.stringify({ dialect, ...demo })).digest('hex').slice(0, 16);
  const directory = inject('demoDirectory');
  const mark = join(directory, `${key}.made`);
  const lock = join(directory, `${key}.lock`);
  const deadline = Date.now() + WAIT_FOR_MAKER_MS;
  for (;;) {
    const written = await readIfThere(mark);
    if (written !== undefined) return JSON.parse(written) as MadeDemo;
    if (await takeLock(lock)) {
      try {
        const made = dialect === 'postgres' ? await makePostgres(demo) : await makeSqlite(demo, join(directory, `${key}.sqlite`));
        await writeFile(`${mark}.part`, JSON.stringify(made));
        await rename(`${mark}.part`, mark);
        return made;
      } catch (error) {
        await rm(lock, { force: true });
        throw error;
      }
    }
    if (Date.now() > deadline) throw new Error(`the demo ${JSON.stringify({ dialect, ...demo })} was not made within ${WAIT_FOR_MAKER_MS} ms by the suite that took ${lock}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function takeLock(path: string): Promise<boolean> {
  try {
    await writeFile(path, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The demo loaded into a new test app as the suites loaded it, and what the load reported; `keep` then sees it before the app closes. */
async function loadedAndClosed(
  dialect: DialectName,
  database: MadeDatabase | undefined,
  demo: Required<DemoOptions>,
  keep?: (t: Harness) => Promise<void>,
): Promise<Record<string, number>> {
  const t = await harness({ dialect, clock: manualClock(demo.now), ...(database && { database }) });
  try {
    const upserted = await loadDemoData(t.ctx, { scale: demo.scale, competitions: demo.competitions });
    await keep?.(t);
    return upserted;
  } finally {
    await t.close();
  }
}

/** A PostgreSQL database holding the demo, for the copies to be made from: nothing stays connected to it. */
async function makePostgres(demo: Required<DemoOptions>): Promise<MadeDemo> {
  const made = await throwawayPostgres(inject('postgresUrl'), inject('demoPrefix'), inject('postgresTemplate'));
  try {
    const upserted = await loadedAndClosed('postgres', { url: made.url, drop: async () => {} }, demo);
    return { source: new URL(made.url).pathname.slice(1), upserted };
  } catch (error) {
    await made.drop();
    throw error;
  }
}

/**
 * An SQLite file holding the demo, made in memory as the suites make it, then written whole to
 * the file (`vacuum into`, one statement: a consistent copy, rowids and AUTOINCREMENT counters
 * as they are).
 */
async function makeSqlite(demo: Required<DemoOptions>, path: string): Promise<MadeDemo> {
  const part = `${path}.part`;
  await rm(part, { force: true });
  const upserted = await loadedAndClosed('sqlite', undefined, demo, async (t) => {
    await sql`vacuum into ${part}`.execute(t.database.db);
  });
  await rename(part, path);
  return { source: path, upserted };
}

/**
 * Every row of every table of the demo's SQLite file, with its rowid, into this in-memory database,
 * migrated to the same schema; the rows the migrations left are replaced. The foreign keys are off
 * meanwhile, on the app's connection before the app exists: the tables are copied one by one, and
 * the whole is as consistent as the file.
 */
async function copyRows(database: Database, path: string): Promise<void> {
  const { db } = database;
  await sql`attach database ${path} as demo`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      const tables = await sql<{ name: string }>`select name from demo.sqlite_master where type = 'table' and name not like 'sqlite%' order by name`.execute(trx);
      for (const { name } of tables.rows) {
        const columns = await sql<{ name: string }>`select name from pragma_table_info(${name}, 'demo')`.execute(trx);
        const list = sql.join(columns.rows.map((c) => sql.id(c.name)));
        await sql`delete from ${sql.id('main', name)}`.execute(trx);
        await sql`insert into ${sql.id('main', name)} (rowid, ${list}) select rowid, ${list} from ${sql.id('demo', name)}`.execute(trx);
      }
      // The AUTOINCREMENT tables' counters: a copy hands out the ids the demo's database would have.
      await sql`delete from main.sqlite_sequence`.execute(trx);
      await sql`insert into main.sqlite_sequence select * from demo.sqlite_sequence`.execute(trx);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
    await sql`detach database demo`.execute(db);
  }
}
