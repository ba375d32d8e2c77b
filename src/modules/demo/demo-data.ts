import type { AppContext } from '../../context.js';
import type { ImportResult } from '../import/import.schemas.js';
import { createImportService } from '../import/import.service.js';
import { DEFAULT_SEED, generateDemoDataset } from './generator/index.js';

export interface DemoDataOptions {
  scale?: number;
  seed?: number;
  /** Replace the sports data already stored (clients stay). Without it, a filled database is refused. */
  force?: boolean;
}

/** True when the database holds no sports data: the demo dataset may be generated into it. */
export async function hasNoSportsData(ctx: Pick<AppContext, 'database'>): Promise<boolean> {
  const row = await ctx.database.db.selectFrom('sports').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/**
 * Generates the demo dataset (event times counted from now) and imports it through the
 * same service as POST /admin/v1/import, in one transaction.
 */
export async function loadDemoData(ctx: AppContext, options: DemoDataOptions = {}): Promise<ImportResult['upserted']> {
  const dataset = generateDemoDataset({ scale: options.scale ?? 1, seed: options.seed ?? DEFAULT_SEED, now: ctx.clock.now() });
  const { upserted } = await createImportService(ctx).importChecked(dataset, { replace: options.force ?? false });
  return upserted;
}

/**
 * On start with DEMO_DATA: fills an empty database (no sports) with the scale-1 demo dataset.
 * Returns the counts, or undefined when the database already had data.
 */
export async function ensureDemoData(ctx: AppContext): Promise<Record<string, number> | undefined> {
  if (!(await hasNoSportsData(ctx))) return undefined;
  const dataset = generateDemoDataset({ scale: 1, seed: DEFAULT_SEED, now: ctx.clock.now() });
  // Checked again inside the import's transaction: another node starting at once may fill it first.
  return (await createImportService(ctx).importIntoEmpty(dataset))?.upserted;
}
