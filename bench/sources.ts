import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, type BenchDatabase, throwawayDatabase } from './databases.js';
import { guarded } from './feed/cleanup.js';
import { benchEnv } from './local-demo.js';
import { countRows, importFiles, type ImportRun, type TableCounts } from './sources/import-run.js';
import { writeFootballDataSet } from './sources/football-data-set.js';

/**
 * `npx tsx bench/sources.ts [--database sqlite|postgres|both] [--seasons 20] [--leagues 10]
 * [--seed N] [--pg URL] [--out FILE]`: how fast real data loads.
 *
 * Generates the football-data.co.uk set of bench/sources/football-data-set.ts (by default 20
 * seasons of 10 leagues, about 67,000 matches) into a scratch directory; then on each database
 * (PostgreSQL: a throwaway database on --pg, default TEST_DATABASE_URL) a fresh database made by
 * the CLI (`migrate --create`, no demo data) and `sportsdata import --format football-data` over
 * every file, in one process: matches/s, price points/s (the importer's `prices`), history rows
 * written (odds_history counted before and after), wall and CPU time, and the importing process's
 * peak RSS (VmHWM, read from /proc while it runs). Then the same files again in a second process:
 * it must write no history row. Everything made is removed at the end, also after Ctrl-C.
 */
const args = process.argv.slice(2);
const { flag, databases: databasesOf } = benchArgs(args);
const databases = databasesOf('both');
const set = { seasons: Number(flag('seasons') ?? 20), leagues: Number(flag('leagues') ?? 10), seed: flag('seed') === undefined ? undefined : Number(flag('seed')) };
const pgServer = flag('pg') ?? process.env.TEST_DATABASE_URL;

interface Measured {
  database: BenchDatabase;
  first: ImportRun;
  again: ImportRun;
  /** The tables after `migrate --create`, after the import, and after the second one. */
  counts: [TableCounts, TableCounts, TableCounts];
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** One database: made by the CLI, the set imported, imported again. */
async function measureOn(database: BenchDatabase, work: string, files: string[]): Promise<Measured> {
  const dir = join(work, database);
  mkdirSync(dir, { recursive: true });
  const store = await throwawayDatabase(database, dir, pgServer);
  return guarded(store.drop, async () => {
    const env = { ...benchEnv(dir), DATABASE_URL: store.url };
    execFileSync(process.execPath, ['bin/sportsdata.js', 'migrate', '--create'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    const empty = await countRows(store.url);
    log(`${database}: importing ${files.length} files…`);
    const first = await importFiles(files, env);
    const loaded = await countRows(store.url);
    log(`${database}: ${describe(first)}; importing them again…`);
    const again = await importFiles(files, env);
    const reloaded = await countRows(store.url);
    log(`${database}, again: ${describe(again)}`);
    return { database, first, again, counts: [empty, loaded, reloaded] };
  });
}

const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
const describe = (run: ImportRun) => `${thousands(run.events)} matches, ${thousands(run.prices)} prices in ${run.seconds.toFixed(1)} s`;

/** Seconds the first and the last tenth of the files took: whether a file costs more as the database grows. */
function tenths(run: ImportRun): string {
  const tenth = Math.max(1, Math.floor(run.fileSeconds.length / 10));
  const span = (from: number, to: number) => (run.fileSeconds[to - 1] ?? 0) - (from === 0 ? 0 : (run.fileSeconds[from - 1] ?? 0));
  const last = run.fileSeconds.length;
  return `${span(0, tenth).toFixed(1)} / ${span(last - tenth, last).toFixed(1)}`;
}

function table(rows: Measured[]): string {
  const header =
    `football-data set: ${set.seasons} seasons × ${set.leagues} leagues (${rows[0]?.first.files ?? 0} files), one CLI process per import, each on a fresh database ` +
    '(`migrate --create`, no demo data). Prices: the price points the importer took; history rows: odds_history rows added.';
  const lines = rows.flatMap(({ database, first, again, counts: [empty, loaded, reloaded] }) => {
    const history = loaded.odds_history - empty.odds_history;
    return [
      `| ${database} | first | ${thousands(first.events)} | ${thousands(first.prices)} | ${thousands(history)} | ${thousands(loaded.odds)} | ${first.seconds.toFixed(1)} | ${first.cpuSeconds.toFixed(1)} | ` +
        `${thousands(first.events / first.seconds)} | ${thousands(first.prices / first.seconds)} | ${thousands(history / first.seconds)} | ${thousands(first.peakRssMb)} | ${tenths(first)} |`,
      `| ${database} | again | ${thousands(again.events)} | ${thousands(again.prices)} | ${thousands(reloaded.odds_history - loaded.odds_history)} | ${thousands(reloaded.odds - loaded.odds)} | ${again.seconds.toFixed(1)} | ${again.cpuSeconds.toFixed(1)} | ` +
        `${thousands(again.events / again.seconds)} | ${thousands(again.prices / again.seconds)} | — | ${thousands(again.peakRssMb)} | ${tenths(again)} |`,
    ];
  });
  return [
    header,
    '',
    '| database | import | matches | prices | history rows written | odds rows added | wall s | CPU s | matches/s | prices/s | history rows/s | peak RSS MB | first / last tenth of files, s |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...lines,
  ].join('\n');
}

execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
const work = mkdtempSync(join(tmpdir(), 'sportsdata-sources-'));
await guarded(
  () => rmSync(work, { recursive: true, force: true }),
  async () => {
    const files = writeFootballDataSet(join(work, 'set'), set).sort();
    const rows: Measured[] = [];
    for (const database of databases) rows.push(await measureOn(database, work, files));
    const text = table(rows);
    process.stdout.write(`\n${text}\n`);
    const out = flag('out');
    if (out !== undefined) writeFileSync(out, `${text}\n`);
  },
);
