import { createHistoryWork } from '../src/history-work.js';
import { loadConfig } from '../src/config.js';
import { withEncryptionKey } from '../src/encryption-key.js';
import { withJwtSecret } from '../src/jwt-secret.js';
import { createRecentChanges } from '../src/modules/history/index.js';
import { createImportService } from '../src/modules/import/index.js';
import { releaseAliased } from '../src/modules/sources/index.js';
import { createBackground } from '../src/platform/background.js';
import { createNodeChangeFeed } from '../src/platform/cache/node-change-feed.js';
import { systemClock } from '../src/platform/clock.js';
import { connectDatabase } from '../src/platform/db/connect.js';
import { putForegroundFirst } from '../src/platform/db/loop-slices.js';
import { createLogger } from '../src/platform/logging.js';
import { BATCH } from './feed/feeder.js';
import { STORED_ODDS_ITEM_COLUMNS, storedOddsItem } from './feed/stored-odds-item.js';
import { localDemo } from './local-demo.js';

/**
 * `npx tsx bench/import-beside-work.ts [--rounds 3] [--imports 120] [--every-ms 100]`: how long an
 * import of 500 price changes takes on the import thread while the work after the imports (board
 * events, moves, the signals' detector, the webhooks' former) runs beside it, with the thread's
 * imports put first (decision 0335) and without, in turn.
 *
 * As the import thread does (src/import-thread.ts), in one thread of this process: a demo database
 * (SQLite, scale 1, a copy made by the CLI), the import service and the history work with their
 * background jobs started, and an import every `--every-ms` (100: 5,000 changes a second) moving
 * the open main-line rows of the next 60 scheduled events. Each phase is `--imports` imports
 * ("first" and "beside" in turn, `--rounds` times each, after one unmeasured phase); it prints the
 * import's time from its call to its answer (p50 / p90 / p99) and the thread's CPU per 1,000
 * changes. The feed bench (bench/feed.ts) measures the same from outside, through HTTP and a
 * second thread; on a 2-core machine its import times move with everything else there is.
 */
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1] ?? fallback) : fallback;
};
const rounds = option('rounds', 3);
const imports = option('imports', 120);
const everyMs = option('every-ms', 100);

const demo = localDemo('import-beside-work');
Object.assign(process.env, demo.env);
const config = withEncryptionKey(withJwtSecret(loadConfig()));
const database = await connectDatabase(config.databaseUrl);
const background = createBackground();
const changes = createNodeChangeFeed({ db: database.db, pollMs: config.changePollMs, redis: undefined, background });
const recent = createRecentChanges();
createHistoryWork({ config, db: database.db, clock: systemClock, changes, background, recent });
const importer = createImportService({ database, clock: systemClock, changes, releaseAliased, recent });
await background.start(createLogger('warn'));

try {
  const rows = await slateRows();
  let batches = 0;
  const nextBatch = () => {
    batches += 1;
    const odds = Array.from({ length: BATCH }, (_, i) => rows[(batches * BATCH + i) % rows.length]).flatMap((r) =>
      r === undefined ? [] : [{ ...r, price_decimal: Math.round((r.price_decimal + 0.01 * (1 + (batches % 2))) * 100) / 100 }],
    );
    return { odds };
  };
  const phase = async (first: boolean) => {
    putForegroundFirst(first);
    const times: number[] = [];
    const running: Array<Promise<unknown>> = [];
    const cpu = process.threadCpuUsage();
    for (let i = 0; i < imports; i += 1) {
      const start = performance.now();
      running.push(importer.importChecked(nextBatch()).then(() => times.push(performance.now() - start)));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await Promise.all(running);
    const used = process.threadCpuUsage(cpu);
    return { times, cpuPer1000: (used.user + used.system) / 1000 / ((imports * BATCH) / 1000) };
  };
  await phase(false);
  console.log(`${rows.length} rows moved, ${BATCH} changes an import, one every ${everyMs} ms, ${imports} imports a phase`);
  console.log('| round | imports | import p50 / p90 / p99 ms | thread CPU-ms per 1,000 changes |');
  console.log('|---:|---|---:|---:|');
  for (let round = 1; round <= rounds; round += 1) {
    for (const first of [false, true]) {
      const { times, cpuPer1000 } = await phase(first);
      const q = (p: number) => quantile(times, p).toFixed(1);
      console.log(`| ${round} | ${first ? 'first' : 'beside the work'} | ${q(0.5)} / ${q(0.9)} / ${q(0.99)} | ${cpuPer1000.toFixed(1)} |`);
    }
  }
} finally {
  putForegroundFirst(false);
  await background.stop();
  await database.close();
  demo.remove();
}

/** The open main-line rows of the next 60 scheduled events, as an import takes them. */
async function slateRows() {
  const events = await database.db.selectFrom('events').select('id').where('status', '=', 'scheduled').where('start_time', '>', Date.now()).orderBy('start_time').limit(60).execute();
  const rows = await database.db
    .selectFrom('odds')
    .select([...STORED_ODDS_ITEM_COLUMNS])
    .where('status', '=', 'open')
    .where('is_main', '=', 1)
    .where('event_id', 'in', events.map((e) => e.id))
    .execute();
  return rows.map(storedOddsItem);
}

function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(p * (sorted.length - 1))] ?? Number.NaN;
}
