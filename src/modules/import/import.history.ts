import { chunksOf } from '../../platform/chunks.js';
import { CHANGE_COLUMNS, RECENT_CHANGES_HELD, type StreamRow, streamRowOf, type WrittenChange } from '../history/index.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';
import { ODDS_CHUNK, type StoredOdds, type StoredOddsRow } from './import.stored-odds.js';
import { numberOrNull } from '../../platform/db/column-values.js';

type OddsItem = NonNullable<Dataset['odds']>[number];

/** An odds row as the history compares it: what a client bets on. */
interface Quote {
  price: number;
  line: number | null;
  status: string;
}

/** A stored row: its quote, and whether the item leaves what its grade depends on as it is. */
interface Stored {
  quote: Quote;
  sameGrading: (item: OddsItem) => boolean;
}

/**
 * What the dataset's odds change for grading. A grade depends on the row's event, market, position,
 * line, player, period and status, and on its price only through the closing price (the last one
 * before the event's start): a price moved at or after the start changes no grade.
 */
export interface OddsTouched {
  /** Events with a row that is new or changes what it is graded on. */
  settled: Set<number>;
  /** Events whose rows only moved price, each with the earliest instant one moved at. */
  moved: Map<number, number>;
}

/** The changes an import wrote, as the streams read them: every change with an id above `after`, in id order. */
export interface WrittenChanges {
  after: number;
  rows: StreamRow[];
}

/** Every event of the odds is to be graded: a first load, a replace. */
export function everyEventTouched(odds: readonly OddsItem[]): OddsTouched {
  return { settled: new Set(odds.map((o) => o.event_id)), moved: new Map() };
}

export const DEFAULT_ODDS_STATUS = 'open';

/** A change as written: its columns, and when it was recorded (the retention counts from then, decision 0299). */
const RECORDED_COLUMNS = [...CHANGE_COLUMNS, 'recorded_at'] as const;

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
 * and the answer is undefined: recordOpenings after the upsert does the same in one statement. Whether
 * the table is empty is asked only when none of the first chunk's rows is stored (a first load):
 * a feed's batch of stored rows answers it by itself.
 *
 * The changes of an import of one chunk, up to the number held (a feed's batch), come back in
 * `written` with their ids and leagues, for the work that follows the commit on this node
 * (decision 0294); `leagueOf` gives the league each event has once the import commits.
 */
export async function recordPriceChanges(
  repo: ImportRepository,
  storedOdds: StoredOdds,
  odds: readonly OddsItem[],
  now: number,
  leagueOf: (eventId: number) => number | null,
): Promise<{ touched: OddsTouched; written: WrittenChanges | undefined } | undefined> {
  const touched: OddsTouched = { settled: new Set(), moved: new Map() };
  let written: WrittenChanges | undefined;
  let first = true;
  for (const chunk of chunksOf(odds, ODDS_CHUNK)) {
    const stored = storedQuotes(await storedOdds(chunk));
    if (first && stored.size === 0 && (await repo.isEmptyTable('odds'))) return undefined;
    const rows: WrittenChange[] = [];
    for (const item of chunk) {
      const next: Quote = { price: item.price_decimal, line: item.line ?? null, status: item.status ?? DEFAULT_ODDS_STATUS };
      const row = stored.get(item.id);
      const before = row?.quote;
      noteForGrading(touched, item, row, next, now);
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
        recorded_at: now,
      });
    }
    if (first && odds.length === chunk.length && rows.length > 0 && rows.length <= RECENT_CHANGES_HELD) written = await insertWritten(repo, rows, leagueOf);
    else await repo.insert('odds_history', RECORDED_COLUMNS, rows);
    first = false;
  }
  return { touched, written };
}

/** Inserts the changes and gives them back as the streams read them, with the newest id before them. */
async function insertWritten(repo: ImportRepository, rows: readonly WrittenChange[], leagueOf: (eventId: number) => number | null): Promise<WrittenChanges | undefined> {
  // Read under the data-write lock the import holds: no change can commit between it and the rows.
  const after = await repo.lastChangeId();
  const ids = await repo.insertChanges(RECORDED_COLUMNS, rows);
  const written: StreamRow[] = [];
  for (const row of rows) {
    const id = ids.get(row.odds_id);
    // Every row comes back with its id; were one missing, the streams read them all from the table.
    if (id === undefined) return undefined;
    written.push(streamRowOf(id, row, leagueOf(row.event_id)));
  }
  return { after, rows: written.sort((a, b) => a.item.id - b.item.id) };
}

/** A new row, or one whose graded columns, line or status change, settles its event anew; a price move alone may not. */
function noteForGrading(touched: OddsTouched, item: OddsItem, stored: Stored | undefined, next: Quote, now: number): void {
  if (stored === undefined || !stored.sameGrading(item) || stored.quote.line !== next.line || stored.quote.status !== next.status) {
    touched.settled.add(item.event_id);
    return;
  }
  if (stored.quote.price === next.price) return;
  const at = changedAtOf(item, now);
  const earliest = touched.moved.get(item.event_id);
  if (earliest === undefined || at < earliest) touched.moved.set(item.event_id, at);
}

function storedQuotes(rows: ReadonlyMap<number, StoredOddsRow>): Map<number, Stored> {
  return new Map(
    [...rows.values()].map((row) => [
      Number(row.id),
      {
        quote: { price: Number(row.price_decimal), line: numberOrNull(row.line), status: String(row.status) },
        sameGrading: (item: OddsItem) =>
          Number(row.event_id) === item.event_id &&
          Number(row.betting_market_id) === item.betting_market_id &&
          String(row.position) === item.position &&
          numberOrNull(row.player_id) === (item.player_id ?? null) &&
          numberOrNull(row.event_period_id) === (item.event_period_id ?? null),
      },
    ]),
  );
}

function sameQuote(a: Quote, b: Quote): boolean {
  return a.price === b.price && a.line === b.line && a.status === b.status;
}
