import { chunksOf } from '../../platform/chunks.js';
import { CHANGE_COLUMNS } from '../history/index.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';
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

/** Every event of the odds is to be graded: a first load, a replace. */
export function everyEventTouched(odds: readonly OddsItem[]): OddsTouched {
  return { settled: new Set(odds.map((o) => o.event_id)), moved: new Map() };
}

/** The stored columns of an odds row that its grade depends on, besides its quote. */
const GRADED_COLUMNS = ['event_id', 'betting_market_id', 'position', 'player_id', 'event_period_id'] as const;

/** Odds per round: one read of the stored rows and one multi-row insert of their changes. */
const CHUNK = 5_000;

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
 */
export async function recordPriceChanges(repo: ImportRepository, odds: readonly OddsItem[], now: number): Promise<OddsTouched | undefined> {
  const touched: OddsTouched = { settled: new Set(), moved: new Map() };
  let first = true;
  for (const chunk of chunksOf(odds, CHUNK)) {
    const stored = await storedQuotes(repo, chunk);
    if (first && stored.size === 0 && (await repo.isEmptyTable('odds'))) return undefined;
    first = false;
    const rows: Array<Record<(typeof RECORDED_COLUMNS)[number], unknown>> = [];
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
    await repo.insert('odds_history', RECORDED_COLUMNS, rows);
  }
  return touched;
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

async function storedQuotes(repo: ImportRepository, chunk: readonly OddsItem[]): Promise<Map<number, Stored>> {
  const rows = await repo.existing(
    'odds',
    chunk.map((o) => o.id),
    ['price_decimal', 'line', 'status', ...GRADED_COLUMNS],
  );
  return new Map(
    rows.map((row) => [
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
