import type { ImportService } from '../../src/modules/import/index.js';
import type { Database } from '../../src/platform/db/database.js';
import { STORED_ODDS_ITEM_COLUMNS, storedOddsItem } from '../feed/stored-odds-item.js';

/**
 * `node --import tsx bench/import-instructions/child.ts <build dir> <sqlite file> <imports> [W]`,
 * run under callgrind by bench/import-instructions.ts: the build's import service (its dist/) on
 * the demo database, `imports` imports of 500 price changes, each with the same rows and prices
 * whatever the build, on a pinned clock; no background job started, no HTTP. With `W` above 0, the
 * work after the imports (board events, moves, the signals' detector, the webhooks' former) is run
 * once after every W imports, as a node's imports wake it, and once before the first (which works
 * through what the demo's load left: the bench does that natively, before counting). Nothing here
 * depends on the day or the machine's load, so the instructions it takes are the same from run to
 * run within a fraction of a per cent.
 */
const [dir, file, count, every = '0'] = process.argv.slice(2);
if (dir === undefined || file === undefined || count === undefined) throw new Error('usage: child.ts <build dir> <sqlite file> <imports> [W]');
const BATCH = 500;
const load = <T>(path: string) => import(`${dir}/dist/${path}`) as Promise<T>;

const { connectDatabase } = await load<{ connectDatabase(url: string): Promise<Database> }>('platform/db/connect.js');
const { createImportService } = await load<{ createImportService(deps: object): ImportService }>('modules/import/index.js');
const { createRecentChanges } = await load<{ createRecentChanges(): object }>('modules/history/index.js');
const { releaseAliased } = await load<{ releaseAliased: unknown }>('modules/sources/index.js');
const { createBackground } = await load<{ createBackground(): object }>('platform/background.js');
const { createNodeChangeFeed } = await load<{ createNodeChangeFeed(deps: object): object }>('platform/cache/node-change-feed.js');
const { manualClock } = await load<{ manualClock(start: number): { now(): number; advance(ms: number): void } }>('platform/clock.js');

const database = await connectDatabase(`sqlite:${file}`);
const db = database.db;
const changes = createNodeChangeFeed({ db, pollMs: 60_000, redis: undefined, background: createBackground() });
// The demo's first scheduled start, an hour before: the same instant for every build and run.
const first = await db.selectFrom('events').select('start_time').where('status', '=', 'scheduled').orderBy('start_time').executeTakeFirstOrThrow();
const clock = manualClock(Number(first.start_time) - 3_600_000);
const recent = createRecentChanges();
const importer = createImportService({ database, clock, changes, releaseAliased, recent });
const stages = Number(every) > 0 ? await historyWork() : [];
const runStages = async () => {
  for (const stage of stages) await stage.run();
};
await runStages();

// The open main-line rows of the first 60 scheduled events, as the feed bench moves them.
const events = await db.selectFrom('events').select('id').where('status', '=', 'scheduled').orderBy('start_time').orderBy('id').limit(60).execute();
const rows = await db
  .selectFrom('odds')
  .select([...STORED_ODDS_ITEM_COLUMNS])
  .where('status', '=', 'open')
  .where('is_main', '=', 1)
  .where('event_id', 'in', events.map((e) => e.id))
  .orderBy('id')
  .execute();
const items = rows.map(storedOddsItem);
for (let batch = 1; batch <= Number(count); batch += 1) {
  clock.advance(100);
  const odds = Array.from({ length: BATCH }, (_, i) => items[(batch * BATCH + i) % items.length]).flatMap((item) =>
    item === undefined ? [] : [{ ...item, price_decimal: Math.round((item.price_decimal + 0.01 * (1 + (batch % 2))) * 100) / 100 }],
  );
  await importer.importChecked({ odds });
  if (stages.length > 0 && batch % Number(every) === 0) await runStages();
}
await database.close();

/** The build's work after the imports, built as the import thread builds it, its jobs never started: run by hand. */
async function historyWork(): Promise<Array<{ run(): Promise<void> }>> {
  type Work = Record<'boardEvents' | 'oddsMoves' | 'webhookFormer', { run(): Promise<void> } | undefined> & { signals: { detector: { run(): Promise<void> } } };
  const { createHistoryWork } = await load<{ createHistoryWork(deps: object): Work }>('history-work.js');
  const { loadConfig } = await load<{ loadConfig(): object }>('config.js');
  const { withJwtSecret } = await load<{ withJwtSecret(config: object): object }>('jwt-secret.js');
  const { withEncryptionKey } = await load<{ withEncryptionKey(config: object): object }>('encryption-key.js');
  const config = withEncryptionKey(withJwtSecret(loadConfig()));
  const work = createHistoryWork({ config, db, clock, changes, background: createBackground(), recent });
  return [work.boardEvents, work.oddsMoves, work.signals.detector, work.webhookFormer].flatMap((stage) => (stage === undefined ? [] : [stage]));
}
