import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { cpuTicks } from '../load.js';

/** What one `sportsdata import --format football-data FILE…` process did, as it printed it and as /proc saw it. */
export interface ImportRun {
  files: number;
  events: number;
  /** The price points the importer took (its `prices`: each SourcePrice of a row). */
  prices: number;
  results: number;
  queued: number;
  skipped: number;
  seconds: number;
  /** Seconds from the start to each file's line: where the time went, file by file. */
  fileSeconds: number[];
  /** VmHWM of the importing process, in MB: its peak resident set. */
  peakRssMb: number;
  /** User + system CPU of the importing process, in seconds (the last reading before it exited). */
  cpuSeconds: number;
}

const FILE_LINE = /: (\d+) events, (\d+) prices, (\d+) results; (\d+) rows queued; (\d+) skipped$/;
/** How often /proc is read while the import runs. */
const POLL_MS = 100;

/** VmHWM of `pid` in kB, undefined once it has exited. */
function peakKb(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
    return line === undefined ? undefined : Number(line.split(/\s+/)[1]);
  } catch {
    return undefined;
  }
}

/**
 * Runs this checkout's CLI over `files` in one process, with `env` (DATABASE_URL…), and reads its
 * peak RSS and CPU from /proc while it runs. A failing import rejects with its stderr.
 */
export async function importFiles(files: readonly string[], env: Record<string, string>): Promise<ImportRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/sportsdata.js', 'import', '--format', 'football-data', ...files], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid ?? 0;
  const run: ImportRun = { files: 0, events: 0, prices: 0, results: 0, queued: 0, skipped: 0, seconds: 0, fileSeconds: [], peakRssMb: 0, cpuSeconds: 0 };
  let [peak, ticks] = [0, 0];
  const poll = setInterval(() => {
    peak = Math.max(peak, peakKb(pid) ?? 0);
    ticks = cpuTicks(pid) ?? ticks;
  }, POLL_MS);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  for await (const line of createInterface({ input: child.stdout })) {
    const match = FILE_LINE.exec(line);
    if (!match) continue;
    const [events, prices, results, queued, skipped] = match.slice(1).map(Number) as [number, number, number, number, number];
    Object.assign(run, { files: run.files + 1, events: run.events + events, prices: run.prices + prices, results: run.results + results, queued: run.queued + queued, skipped: run.skipped + skipped });
    run.fileSeconds.push((performance.now() - started) / 1000);
  }
  const code = child.exitCode ?? (await new Promise<number | null>((resolve) => child.once('exit', resolve)));
  clearInterval(poll);
  if (code !== 0) throw new Error(`sportsdata import exited with ${code}: ${stderr.trim()}`);
  return { ...run, seconds: (performance.now() - started) / 1000, peakRssMb: peak / 1024, cpuSeconds: ticks / 100 };
}

/** The rows of the tables the import fills, read straight from the database. */
export interface TableCounts {
  events: number;
  odds: number;
  odds_history: number;
}

const TABLES = ['events', 'odds', 'odds_history'] as const;

export async function countRows(databaseUrl: string): Promise<TableCounts> {
  const counts: TableCounts = { events: 0, odds: 0, odds_history: 0 };
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Sqlite(databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      for (const table of TABLES) counts[table] = (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
    return counts;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const table of TABLES) counts[table] = Number((await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
  return counts;
}
