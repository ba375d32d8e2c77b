import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import { retryWhileBusy } from '../../platform/db/busy-retry.js';
import type { Database } from '../../platform/db/database.js';
import { refreshPlannerStatistics } from '../../platform/db/planner-statistics.js';
import { createImportService, type ImportResult, type ImportService } from '../import/index.js';
import { computeFlows, eventsDueAtStart, EVENTS_PER_BATCH_UNSERVED, gradeEvents } from '../results/index.js';
import { type DemoData, DEFAULT_SEED, generateDemo } from './generator/index.js';

/** What loading the dataset uses: the import's own dependencies. */
export interface DemoDataDeps {
  database: Database;
  clock: Clock;
  changes: ChangeFeed;
  /**
   * The signals' detector and grader: run after each import and after the grading, so that the
   * record covers the played history as it was at each move (the instants are the moves').
   */
  signals?: { run(): Promise<void> };
  /**
   * The steam moves and drops, found after each import as a serving node finds them (before the
   * signals, which record them), and the webhooks' former, run once at the end: the demo's history
   * is then worked through when it is made, not by the first server that starts on it.
   */
  oddsMoves?: { run(): Promise<void> } | undefined;
  webhookFormer?: { run(): Promise<void> };
}

/** What follows each of the demo's imports: its moves, then the signals' record of them. */
async function afterImport(deps: DemoDataDeps): Promise<void> {
  await deps.oddsMoves?.run();
  await deps.signals?.run();
}

export interface DemoDataOptions {
  scale?: number;
  seed?: number;
  /** Replace the sports data already stored (clients stay). Without it, a filled database is refused. */
  force?: boolean;
  /**
   * Add the competitions (a golf tournament and a race last week and this, a season-winner and a
   * top-scorer futures market per league), imported after the matchups in the native format.
   * The first start (ensureDemoData) and the CLI's `demo-data` add them unless told not to; this
   * function leaves them out unless asked, so the tests and the answers' recordings that load the
   * matchups through it keep the dataset they measure (decision 0331).
   */
  competitions?: boolean;
}

/** True when the database holds no sports data: the demo dataset may be generated into it. */
export function hasNoSportsData(deps: DemoDataDeps): Promise<boolean> {
  return createImportService(deps).hasNoSportsData();
}

/**
 * Generates the demo dataset (event times counted from now) and imports it through the
 * same service as POST /admin/v1/import, in one transaction.
 */
export async function loadDemoData(deps: DemoDataDeps, options: DemoDataOptions = {}): Promise<ImportResult['upserted']> {
  const demo = generateDemo({ scale: options.scale ?? 1, seed: options.seed ?? DEFAULT_SEED, now: deps.clock.now() });
  const importer = createImportService(deps);
  const { upserted } = await importer.importChecked(demo.dataset, { replace: options.force ?? false, grade: false });
  // The work after the import reads what it wrote, hundreds of thousands of rows into empty tables.
  await refreshPlannerStatistics(deps.database);
  await afterImport(deps);
  await importMoves(importer, demo, deps);
  const competitions = options.competitions === true ? await importCompetitions(importer, demo) : {};
  await gradePlayed(deps);
  return withCompetitions(upserted, competitions);
}

/** The competitions' dataset, then its moves; what it upserted (records of its own: its sports, leagues, teams, players, markets, odds, competitions and participants). */
async function importCompetitions(importer: ImportService, demo: DemoData): Promise<ImportResult['upserted']> {
  const { dataset, moves } = demo.competitions();
  const { upserted } = await importer.importChecked(dataset, { grade: false });
  await importer.importChecked(moves, { grade: false });
  return upserted;
}

/** The counts of the matchups' dataset and the competitions', added up: the competitions' records are all their own, so each sum is what the tables hold. */
function withCompetitions(matchups: ImportResult['upserted'], competitions: ImportResult['upserted']): ImportResult['upserted'] {
  const sum: ImportResult['upserted'] = { ...matchups };
  for (const [array, count] of Object.entries(competitions) as Array<[keyof ImportResult['upserted'], number]>) sum[array] = (sum[array] ?? 0) + count;
  return sum;
}

/** The price moves after the dataset, one import each: they make the demo's price history. */
async function importMoves(importer: ImportService, demo: DemoData, deps: DemoDataDeps): Promise<void> {
  for (const move of demo.moves) {
    await importer.importChecked(move, { grade: false });
    await afterImport(deps);
  }
}

/** The played events' grades, once their prices have all moved (their closing prices are final then); then the trends they prove. */
async function gradePlayed(deps: DemoDataDeps): Promise<void> {
  const { database, changes, clock } = deps;
  await gradeEvents({ db: database.db, changes }, await eventsDueAtStart(database.db), clock.now(), EVENTS_PER_BATCH_UNSERVED);
  await afterImport(deps);
  await computeFlows({ db: database.db, changes }, new Map());
  await deps.webhookFormer?.run();
}

/**
 * On start with DEMO_DATA: fills an empty database (no sports) with the scale-1 demo dataset, its
 * competitions included unless `competitions: false` (decision 0331): a new user asking for
 * `event_kinds=competition` finds some. Returns the counts, or undefined when the database already had data.
 */
export async function ensureDemoData(deps: DemoDataDeps, options: Pick<DemoDataOptions, 'competitions'> = {}): Promise<Record<string, number> | undefined> {
  const importer = createImportService(deps);
  if (!(await importer.hasNoSportsData())) return undefined;
  const demo = generateDemo({ scale: 1, seed: DEFAULT_SEED, now: deps.clock.now() });
  // Checked again inside the import's transaction: another node starting at once may fill it first.
  const seeded = await importer.importIntoEmpty(demo.dataset, { grade: false });
  if (!seeded) return undefined;
  await refreshPlannerStatistics(deps.database);
  // Every step after the seeding on its own retry: another node starting at once may hold the lock
  // a while, and the first start tried again as a whole would find the database filled and leave
  // the rest undone. Each step is idempotent: a move imported twice records nothing the second
  // time, and the detectors go on from where they stopped.
  const settled = () => retryWhileBusy(() => afterImport(deps));
  await settled();
  for (const move of demo.moves) {
    await retryWhileBusy(() => importer.importChecked(move, { grade: false }));
    await settled();
  }
  const competitions = options.competitions !== false ? await retryWhileBusy(() => importCompetitions(importer, demo)) : {};
  await retryWhileBusy(() => gradePlayed(deps));
  return withCompetitions(seeded.upserted, competitions);
}
