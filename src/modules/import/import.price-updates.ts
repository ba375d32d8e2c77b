import { numberOrNull } from '../../platform/db/column-values.js';
import { Problems } from './import.checks.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

type OddsItem = NonNullable<Dataset['odds']>[number];
type PriceUpdate = NonNullable<Dataset['price_updates']>[number];
type StoredRow = Record<(typeof STORED_COLUMNS)[number] | 'id', number | string | null>;

/** The columns of an odds row a price update leaves as stored. */
const STORED_COLUMNS = [
  'event_id', 'operator_id', 'betting_market_id', 'position', 'line', 'status', 'player_id', 'event_period_id', 'is_main', 'is_live', 'operator_selection_id',
] as const;

/**
 * The dataset's price updates (decision 0298) as the whole odds rows they make: each stored row
 * with the price, status and time its update names, everything else as stored. They then go
 * through the odds' own write and history (import.write.ts), as the last rows of the dataset's
 * odds, so a price update is a row re-imported as it is but for its price: one history entry when
 * the price or status changes, none when it does not. Read in the import's transaction; an update
 * that names no stored row, names one another item already gives, or names a selection the
 * operator prices twice is refused (422, nothing written). A replace keeps no stored row to update.
 */
export async function priceUpdatedRows(dataset: Dataset, repo: ImportRepository, options: { replace: boolean }): Promise<OddsItem[]> {
  const updates = dataset.price_updates ?? [];
  if (updates.length === 0) return [];
  const problems = new Problems();
  const { byId, bySelection } = options.replace ? { byId: new Map<number, StoredRow>(), bySelection: new Map<string, StoredRow[]>() } : await storedRows(updates, repo);
  const given = new Map<number, string>((dataset.odds ?? []).map((o, i) => [o.id, `odds[${i}]`]));
  const rows: OddsItem[] = [];
  updates.forEach((update, i) => {
    const field = `price_updates[${i}]`;
    const row = rowOf(update, field, byId, bySelection, problems);
    if (row === undefined) return;
    const id = Number(row.id);
    const earlier = given.get(id);
    if (earlier !== undefined) {
      problems.add(field, 'unique', `names odds row ${id}, which ${earlier} also gives: one change per row and import`);
      return;
    }
    given.set(id, field);
    rows.push(updatedRow(row, update));
  });
  problems.throwIfAny();
  return rows;
}

/** The stored rows the updates name: by odds id, and by selection and operator (`selection:operator`). */
async function storedRows(updates: readonly PriceUpdate[], repo: ImportRepository): Promise<{ byId: Map<number, StoredRow>; bySelection: Map<string, StoredRow[]> }> {
  const ids = new Set(updates.flatMap((u) => (u.odds_id === undefined ? [] : [u.odds_id])));
  const selections = new Set(updates.flatMap((u) => (u.odds_id === undefined && u.event_betting_market_position_id !== undefined ? [u.event_betting_market_position_id] : [])));
  const byId = new Map((await repo.existing('odds', ids, STORED_COLUMNS)).map((row) => [Number(row.id), row]));
  const bySelection = new Map<string, StoredRow[]>();
  for (const row of await repo.oddsOnSelections(selections, STORED_COLUMNS)) {
    const key = `${Number(row.selection_id)}:${Number(row.operator_id)}`;
    bySelection.set(key, [...(bySelection.get(key) ?? []), row]);
  }
  return { byId, bySelection };
}

/** The stored row an update names, or undefined with the problem added. */
function rowOf(update: PriceUpdate, field: string, byId: Map<number, StoredRow>, bySelection: Map<string, StoredRow[]>, problems: Problems): StoredRow | undefined {
  const { odds_id: oddsId, event_betting_market_position_id: selectionId, operator_id: operatorId } = update;
  if (oddsId !== undefined) {
    if (selectionId !== undefined || operatorId !== undefined) problems.add(field, 'oneOf', 'names its row by odds_id, or by event_betting_market_position_id and operator_id, not both');
    else if (!byId.has(oddsId)) problems.add(`${field}.odds_id`, 'reference', `names no odds row (id ${oddsId}) in the database`);
    return byId.get(oddsId);
  }
  if (selectionId === undefined || operatorId === undefined) {
    problems.add(field, 'required', 'names its row by odds_id, or by event_betting_market_position_id and operator_id');
    return undefined;
  }
  const found = bySelection.get(`${selectionId}:${operatorId}`) ?? [];
  if (found.length === 0) problems.add(`${field}.event_betting_market_position_id`, 'reference', `names no odds row of operator ${operatorId} on selection ${selectionId} in the database`);
  if (found.length > 1) problems.add(`${field}.event_betting_market_position_id`, 'unique', `names ${found.length} odds rows of operator ${operatorId} on selection ${selectionId}: name one by odds_id`);
  return found.length === 1 ? found[0] : undefined;
}

/** The stored row as an odds item, with what the update names. */
function updatedRow(row: StoredRow, update: PriceUpdate): OddsItem {
  return {
    id: Number(row.id),
    event_id: Number(row.event_id),
    operator_id: Number(row.operator_id),
    betting_market_id: Number(row.betting_market_id),
    position: String(row.position),
    line: numberOrNull(row.line),
    price_decimal: update.price_decimal,
    status: update.status ?? String(row.status),
    // Absent, the import's time, as for an odds row: when the price was last given.
    updated_at: update.updated_at ?? null,
    player_id: numberOrNull(row.player_id),
    event_period_id: numberOrNull(row.event_period_id),
    is_main: Number(row.is_main) === 1,
    is_live: Number(row.is_live) === 1,
    operator_selection_id: row.operator_selection_id === null ? null : String(row.operator_selection_id),
  };
}
