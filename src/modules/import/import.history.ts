import { chunksOf } from '../../platform/chunks.js';
import { CHANGE_COLUMNS, type ChangeColumn } from '../history/index.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

type OddsItem = NonNullable<Dataset['odds']>[number];

/** An odds row as the history compares it: what a client bets on. */
interface Quote {
  price: number;
  line: number | null;
  status: string;
}

/** Odds per round: one read of the stored rows and one multi-row insert of their changes. */
const CHUNK = 5_000;

export const DEFAULT_ODDS_STATUS = 'open';

/** When an odds item's price holds from: the dataset's updated_at, else the import's time. */
export function changedAtOf(item: OddsItem, now: number): number {
  return typeof item.updated_at === 'string' ? Date.parse(item.updated_at) : now;
}

/**
 * Records the price history of the dataset's odds (docs/data.md#price-history), before they are
 * upserted, in the import's transaction: an odds row not stored yet gets its opening entry (every
 * `from` null); a stored row whose price, line or status the dataset changes gets one entry from
 * the stored values to the new ones; a row the dataset leaves as it is gets none. Chunk by chunk,
 * so a million odds never exist twice in memory. Into an empty odds table nothing is recorded here
 * and the answer is false: recordOpenings after the upsert does the same in one statement. Whether
 * the table is empty is asked only when none of the first chunk's rows is stored (a first load):
 * a feed's batch of stored rows answers it by itself.
 */
export async function recordPriceChanges(repo: ImportRepository, odds: readonly OddsItem[], now: number): Promise<boolean> {
  let first = true;
  for (const chunk of chunksOf(odds, CHUNK)) {
    const stored = await storedQuotes(repo, chunk);
    if (first && stored.size === 0 && (await repo.isEmptyTable('odds'))) return false;
    first = false;
    const rows: Array<Record<ChangeColumn, unknown>> = [];
    for (const item of chunk) {
      const next: Quote = { price: item.price_decimal, line: item.line ?? null, status: item.status ?? DEFAULT_ODDS_STATUS };
      const before = stored.get(item.id);
      if (before !== undefined && sameQuote(before, next)) continue;
      rows.push({
        odds_id: item.id,
        event_id: item.event_id,
        operator_id: item.operator_id,
        betting_market_id: item.betting_market_id,
        position: item.position,
        changed_at: changedAtOf(item, now),
        price_from: before?.price ?? null,
        price_to: next.price,
        line_from: before?.line ?? null,
        line_to: next.line,
        status_from: before?.status ?? null,
        status_to: next.status,
      });
    }
    await repo.insert('odds_history', CHANGE_COLUMNS, rows);
  }
  return true;
}

async function storedQuotes(repo: ImportRepository, chunk: readonly OddsItem[]): Promise<Map<number, Quote>> {
  const rows = await repo.existing(
    'odds',
    chunk.map((o) => o.id),
    ['price_decimal', 'line', 'status'],
  );
  return new Map(
    rows.map((row) => [Number(row.id), { price: Number(row.price_decimal), line: row.line === null ? null : Number(row.line), status: String(row.status) }]),
  );
}

function sameQuote(a: Quote, b: Quote): boolean {
  return a.price === b.price && a.line === b.line && a.status === b.status;
}
