import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

type OddsItem = NonNullable<Dataset['odds']>[number];

/**
 * The stored columns of an odds row that the import compares with the dataset's: its price
 * history's, its selection's, and the rest of what the write would set (a row whose only change is
 * its quote is updated in those columns alone, import.write.ts).
 */
const COLUMNS = [
  'price_decimal', 'line', 'status', 'event_id', 'betting_market_id', 'position', 'player_id', 'event_period_id', 'selection_id', 'operator_id', 'is_main', 'is_live',
  'operator_selection_id',
] as const;

/** Odds per read of their stored rows: the selections and the price history go through the dataset's odds in these chunks, so each is read once. */
export const ODDS_CHUNK = 5_000;

export type StoredOddsRow = Record<(typeof COLUMNS)[number] | 'id', number | string | null>;

/** The stored rows of a chunk of the dataset's odds, by id. */
export type StoredOdds = (chunk: readonly OddsItem[]) => Promise<Map<number, StoredOddsRow>>;

/**
 * The stored odds rows, read once per chunk for both the selections and the price history
 * (decision 0294): the selections ask first, the history asks again for the same chunk before the
 * upsert, and nothing writes odds rows between. Only the last chunk is kept, so a million odds
 * never exist twice in memory.
 */
export function storedOdds(repo: ImportRepository): StoredOdds {
  let last: { ids: readonly number[]; rows: Map<number, StoredOddsRow> } | undefined;
  return async (chunk) => {
    const ids = chunk.map((o) => o.id);
    if (last !== undefined && sameIds(last.ids, ids)) return last.rows;
    const rows = new Map((await repo.existing('odds', ids, COLUMNS)).map((row) => [Number(row.id), row]));
    last = { ids, rows };
    return rows;
  };
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
