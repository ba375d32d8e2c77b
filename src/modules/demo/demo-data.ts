import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { createImportService, type ImportResult } from '../import/index.js';
import { DEFAULT_SEED, generateDemoDataset } from './generator/index.js';

/** What loading the dataset uses: the import's own dependencies. */
export interface DemoDataDeps {
  database: Database;
  clock: Clock;
  changes: ChangeFeed;
}

export interface DemoDataOptions {
  scale?: number;
  seed?: number;
  /** Replace the sports data already stored (clients stay). Without it, a filled database is refused. */
  force?: boolean;
}

/** True when the database holds no sports data: the demo dataset may be generated into it. */
export async function hasNoSportsData(deps: { database: Database }): Promise<boolean> {
  const row = await deps.database.db.selectFrom('sports').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/**
 * Generates the demo dataset (event times counted from now) and imports it through the
 * same service as POST /admin/v1/import, in one transaction.
 */
export async function loadDemoData(deps: DemoDataDeps, options: DemoDataOptions = {}): Promise<ImportResult['upserted']> {
  const dataset = generateDemoDataset({ scale: options.scale ?? 1, seed: options.seed ?? DEFAULT_SEED, now: deps.clock.now() });
  const { upserted } = await createImportService(deps).importChecked(dataset, { replace: options.force ?? false });
  return upserted;
}

/**
 * On start with DEMO_DATA: fills an empty database (no sports) with the scale-1 demo dataset.
 * Returns the counts, or undefined when the database already had data.
 */
export async function ensureDemoData(deps: DemoDataDeps): Promise<Record<string, number> | undefined> {
  if (!(await hasNoSportsData(deps))) return undefined;
  const dataset = generateDemoDataset({ scale: 1, seed: DEFAULT_SEED, now: deps.clock.now() });
  // Checked again inside the import's transaction: another node starting at once may fill it first.
  return (await createImportService(deps).importIntoEmpty(dataset))?.upserted;
}
