import type { Kysely } from 'kysely';
import type { VersionedCache } from '../../platform/cache/versioned-cache.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { offsetOf, type Page, pageOf } from '../../platform/pagination.js';
import { figure } from '../../shared/figures.js';
import { type OddsFormat, priceIn } from '../../shared/odds-format.js';
import { iso } from '../../shared/wire.js';
import { createBoardRepository, type SelectionKeyRow } from './board.repository.js';
import type { BoardService } from './board.service.js';
import { selectionKeyOf } from './board.keys.js';
import { onePerBook, selectionIdOf } from './board.selections.js';
import { keyRowsAt } from './as-of.js';
import { type BookState, consensusSeriesOf, type Movement, movementOf } from './movement.figures.js';
import { type BookRow, createMovementRepository, type HistoryPoint } from './movement.repository.js';
import type { MovementBody, MovementItem } from './movement.schemas.js';

/** Line movement: how each book's price and the consensus moved, over the selections of a board. */
export interface MovementService {
  /** A page of a board's selections with their movement, now or as of an instant (POST /v1/odds/movement). */
  movement(body: MovementBody): Promise<Page<MovementItem>>;
}

/**
 * Reading the history as of an instant: its bounds, and the check that refuses an instant outside
 * them (the history module's, handed in by the composition root: that module imports this one).
 */
export interface AsOfReading {
  bounds(): Promise<{ oldest: Date | null }>;
  check(asOf: Date, bounds: { oldest: Date | null }, now: Date): void;
}

/**
 * The movement of a board's selections (docs/data.md#line-movement), a page at a time: the board's
 * ids (kept per data version; as of an instant, the selections open then), then three reads for
 * the page whatever its size (the selections' keys, their books' rows, as of an instant with each
 * row's state then, the history of those rows up to the instant read), computed in memory.
 */
export function createMovementService(deps: {
  db: Kysely<Schema>;
  clock: Clock;
  board: BoardService['board'];
  /** The read cache's id lists: a scope's ordered selections are kept for a data version, as the board's are. */
  idLists: VersionedCache<Float64Array>;
  asOf: AsOfReading;
}): MovementService {
  const { clock, board, idLists, asOf } = deps;
  const keys = createBoardRepository(deps.db);
  const repository = createMovementRepository(deps.db);

  /** The instant read: `as_of` once within the history's bounds, else now. */
  async function instantOf(body: MovementBody, now: number): Promise<{ at: number; past: boolean }> {
    if (body.as_of === undefined) return { at: now, past: false };
    const at = new Date(body.as_of);
    asOf.check(at, await asOf.bounds(), new Date(now));
    return { at: at.getTime(), past: true };
  }

  return {
    async movement(body) {
      const { at, past } = await instantOf(body, clock.now());
      const filters = board.filters(body);
      const ids = await idLists.get(`odds-movement|${JSON.stringify(filters)}`, async () => Float64Array.from(await board.ids(filters)));
      const paging = { page: body.page, page_size: body.page_size };
      const start = Math.min(offsetOf(paging), ids.length);
      const pageIds = Array.from(ids.subarray(start, start + paging.page_size));
      if (pageIds.length === 0) return pageOf([], ids.length, paging);

      const todayKeys = await keys.keyRowsById(pageIds);
      const eventIds = [...new Set(todayKeys.map((k) => k.event_id))];
      const marketIds = [...new Set(todayKeys.map((k) => k.betting_market_id))];
      // As of an instant, the rows the history knew then, at their line then: the selections and books of then, not today's.
      const bookRows = await repository.bookRowsOf(eventIds, marketIds, past ? at : null);
      const pageKeys = past ? keyRowsAt(todayKeys, bookRows) : todayKeys;
      const booksOf = booksBySelection(bookRows, filters.o);
      const rowIds = pageKeys.flatMap((k) => (booksOf.get(selectionKeyOf(k)) ?? []).map((r) => r.id));
      // Now, every change counts, a feed's clock a little ahead included: current is the board's price.
      const history = byOddsRow(await repository.historyOf(eventIds, rowIds, past ? at : Number.MAX_SAFE_INTEGER));

      const byId = new Map(pageKeys.map((k) => [k.id, k]));
      const items = pageIds.flatMap((id) => {
        const key = byId.get(id);
        if (key === undefined) return [];
        const books = (booksOf.get(selectionKeyOf(key)) ?? []).map((row) => ({ row, states: statesOf(row, history.get(row.id), past) }));
        return [itemOf(key, books, at, filters.f)];
      });
      return pageOf(items, ids.length, paging);
    },
  };
}

/** The books of each selection (by selection key), one row per book, of the books asked. */
function booksBySelection(rows: readonly BookRow[], operatorIds: readonly number[] | null): Map<string, BookRow[]> {
  const asked = operatorIds === null ? rows : rows.filter((r) => operatorIds.includes(r.operator.id));
  const bySelection = new Map<string, BookRow[]>();
  for (const row of onePerBook(asked)) {
    const key = selectionKeyOf(row);
    const list = bySelection.get(key);
    if (list === undefined) bySelection.set(key, [row]);
    else list.push(row);
  }
  return bySelection;
}

function byOddsRow(points: readonly HistoryPoint[]): Map<number, HistoryPoint[]> {
  const rows = new Map<number, HistoryPoint[]>();
  for (const point of points) {
    const list = rows.get(point.odds_id);
    if (list === undefined) rows.set(point.odds_id, [point]);
    else list.push(point);
  }
  return rows;
}

/**
 * A book's states up to the instant read. A row whose history the purge has taken whole has, now,
 * its stored price as its only state (its opening is the oldest it still knows); as of a past
 * instant it has none: what it was then is no longer known.
 */
function statesOf(row: BookRow, history: readonly HistoryPoint[] | undefined, past: boolean): BookState[] {
  if (history !== undefined && history.length > 0) return history.map(({ at, price, open }) => ({ at, price, open }));
  return past ? [] : [{ at: row.updated_at, price: row.price, open: row.open }];
}

function itemOf(key: SelectionKeyRow, books: ReadonlyArray<{ row: BookRow; states: BookState[] }>, at: number, format: OddsFormat): MovementItem {
  // Listed: the books open at the instant read, as the board lists only prices that can be bet.
  const open = books.filter((b) => b.states.at(-1)?.open === true);
  const [first] = books;
  return {
    event_betting_market_position_id: selectionIdOf(open.map((b) => b.row)),
    event_id: key.event_id,
    betting_market: first?.row.market ?? { id: key.betting_market_id, key: '', name: '' },
    event_period_id: key.event_period_id,
    player_id: key.player_id,
    position: key.position,
    is_main: key.is_main,
    line: key.is_main ? null : key.line,
    books: open.flatMap(({ row, states }) => {
      const movement = movementOf(states, at);
      return movement === null ? [] : [{ operator: row.operator, movement: shownMovement(movement, format) }];
    }),
    consensus: shownOrNull(open.length === 0 ? null : movementOf(consensusSeriesOf(books.map((b) => b.states)), at), format),
  };
}

const shownOrNull = (movement: Movement | null, format: OddsFormat) => (movement === null ? null : shownMovement(movement, format));

/** A movement as answers write it: instants in ISO 8601, computed figures to 6 decimals, prices also in the format asked. */
function shownMovement(m: Movement, format: OddsFormat): MovementItem['books'][number]['movement'] {
  const price = (decimal: number) => {
    const shown = figure(decimal);
    return { price: priceIn(format, shown), price_decimal: shown };
  };
  const change = (c: Movement['changes']['5m']) => ({ price_decimal: figure(c.price), probability_points: figure(c.probability_points) });
  return {
    opening: { ...price(m.opening.price), at: iso(m.opening.at) },
    current: { ...price(m.current.price), at: iso(m.current.at) },
    high: price(m.high),
    low: price(m.low),
    moves: m.moves,
    first_move_at: m.first_move_at === null ? null : iso(m.first_move_at),
    last_move_at: m.last_move_at === null ? null : iso(m.last_move_at),
    changes: { '5m': change(m.changes['5m']), '1h': change(m.changes['1h']), '24h': change(m.changes['24h']) },
  };
}
