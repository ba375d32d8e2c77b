import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { createBoardRepository, type PriceRow } from './board.repository.js';
import type { PriceChange } from './board.changes.js';
import { type DetectedMove, isShortening, type MoveChange, movesOf, moveSelectionKeyOf, type MoveThresholds, type SelectionHistory, steamFiguresOf } from './moves.detect.js';
import { type BoundaryQuery, byInstant, movesRepository, type NewMove } from './moves.repository.js';

/** The history processor's cursor for the moves (feed_cursors.name; made by migration 0037). */
export const ODDS_MOVES_CURSOR = 'odds moves';

/** A recorded price change as the history processor hands it: what the board reads, with its id and instant. */
export interface MovedPrice extends PriceChange {
  id: number;
  changed_at: string;
}

/**
 * Steam moves and drops as a history processor's work (decision 0319): found once from the price
 * changes after each import, by whichever node gets to it, stored (odds_moves) in the transaction
 * that moves the cursor, so a move is neither lost when a node dies after its import nor found twice.
 * Only the shortening changes are looked at, and only their selections' history over the window is
 * read: the work follows what the import changed.
 */
export interface MovesWork {
  readonly name: string;
  compute(db: Kysely<Schema>, rows: ReadonlyArray<{ item: MovedPrice; leagueId: number | null }>): Promise<NewMove[]>;
  /** Stores them (when there are any) in the transaction that moves the cursor, and moves the 'moves' counter. */
  store(trx: Kysely<Schema>, made: readonly NewMove[], lastId: number): Promise<void>;
  /** After the commit: the nodes' streams and the webhooks' former are told. */
  committed(made: readonly NewMove[]): Promise<void>;
}

export function createMovesWork(deps: { clock: Clock; changes: ChangeFeed; thresholds: MoveThresholds }): MovesWork {
  const { clock, changes, thresholds } = deps;
  return {
    name: ODDS_MOVES_CURSOR,
    async compute(db, rows) {
      const shortening = rows.flatMap(({ item, leagueId }) => {
        const change = moveChangeOf(item);
        return isShortening(change) ? [{ item, change, leagueId }] : [];
      });
      if (shortening.length === 0) return [];
      const pairs = new Map(shortening.map(({ item }) => [`${item.event_id}|${item.betting_market_id}`, [item.event_id, item.betting_market_id] as const]));
      const marketRows = await createBoardRepository(db).priceRowsOf([...pairs.values()]);
      const byId = new Map(marketRows.map((row) => [row.id, row]));
      const keyOf = new Map(marketRows.map((row) => [row, moveSelectionKeyOf(row)]));
      const windowMs = thresholds.windowSeconds * 1_000;
      // Each touched selection with the instants its shortening changes take states at: the start of their window and their own.
      const touched = new Map<string, Set<number>>();
      for (const { item, change } of shortening) {
        const row = byId.get(item.odds_id);
        if (row === undefined) continue;
        const key = keyOf.get(row) ?? '';
        const instants = touched.get(key) ?? new Set<number>();
        instants.add(change.changed_at - windowMs).add(change.changed_at);
        touched.set(key, instants);
      }
      const bySelection = new Map<string, PriceRow[]>();
      for (const row of marketRows) {
        const key = keyOf.get(row) ?? '';
        if (!touched.has(key)) continue;
        const list = bySelection.get(key);
        if (list === undefined) bySelection.set(key, [row]);
        else list.push(row);
      }
      const since = Math.min(...shortening.map(({ change }) => change.changed_at)) - windowMs;
      const reads = [...bySelection].map(([key, selectionRows]) => ({ rows: selectionRows, instants: [...(touched.get(key) ?? [])] }));
      const history = await historyOf(db, reads, rows.map(({ item }) => moveChangeOf(item)), since);
      const now = clock.now();
      const made: NewMove[] = [];
      for (const { item, change, leagueId } of shortening) {
        const own = byId.get(item.odds_id);
        if (own === undefined) continue;
        const selection: SelectionHistory = { rows: bySelection.get(keyOf.get(own) ?? '') ?? [], changes: history };
        for (const move of movesOf(change, own, selection, thresholds)) made.push(storedOf(move, leagueId, thresholds.windowSeconds, now));
      }
      return made;
    },
    async store(trx, made) {
      if (made.length === 0) return;
      await movesRepository.insert(trx, made);
      await changes.bump(trx, 'moves');
    },
    async committed(made) {
      if (made.length > 0) await changes.changed('moves');
    },
  };
}

/**
 * The changes of the selections' rows the detection reads, by row: the batch's own (it holds them),
 * with the history's before it around the instants each selection's changes take states at
 * (movesRepository.boundaryChanges), one read per set of instants: a row is looked up at its own
 * selection's instants only, however many imports the batch spans.
 */
async function historyOf(db: Kysely<Schema>, reads: ReadonlyArray<{ rows: readonly PriceRow[]; instants: readonly number[] }>, batch: readonly MoveChange[], since: number): Promise<Map<number, MoveChange[]>> {
  const first = batch[0];
  if (first === undefined) return new Map();
  const byInstants = new Map<string, { ids: number[]; instants: number[] }>();
  for (const { rows, instants } of reads) {
    const sorted = [...instants].sort((a, b) => a - b);
    const key = sorted.join(',');
    const group = byInstants.get(key) ?? { ids: [], instants: sorted };
    group.ids.push(...rows.map((r) => r.id));
    byInstants.set(key, group);
  }
  const history = new Map<number, MoveChange[]>();
  for (const { ids, instants } of byInstants.values()) {
    for (const [id, changes] of await movesRepository.boundaryChanges(db, ids, { since, instants, firstId: first.id })) history.set(id, changes);
  }
  const ids = new Set(reads.flatMap(({ rows }) => rows.map((r) => r.id)));
  const added = new Set<MoveChange[]>();
  for (const change of batch) {
    if (!ids.has(change.odds_id) || change.changed_at < since) continue;
    const list = history.get(change.odds_id);
    if (list === undefined) history.set(change.odds_id, [change]);
    else list.push(change);
    added.add(history.get(change.odds_id) as MoveChange[]);
  }
  for (const list of added) list.sort(byInstant);
  return history;
}

function moveChangeOf(item: MovedPrice): MoveChange {
  const { price_decimal: price, line, status } = item;
  return {
    id: item.id,
    odds_id: item.odds_id,
    changed_at: Date.parse(item.changed_at),
    from: price.from === null || status.from === null ? null : { price: price.from, line: line.from, open: status.from === 'open' },
    to: { price: price.to, line: line.to, open: status.to === 'open' },
  };
}

/** A move as stored: a drop's prices and size are its book's; a steam move's its books' (steamFiguresOf). */
function storedOf(move: DetectedMove, leagueId: number | null, windowSeconds: number, now: number): NewMove {
  const { selection: row, books } = move;
  const [first] = books;
  const figures =
    move.kind === 'steam'
      ? steamFiguresOf(books)
      : { operator_ids: books.map((b) => b.operator_id), from_price: first?.from_price ?? 0, to_price: first?.to_price ?? 0, size: first?.percent ?? 0, started_at: first?.since ?? move.changed_at };
  return {
    kind: move.kind,
    history_id: move.history_id,
    event_id: row.event_id,
    league_id: leagueId,
    betting_market_id: row.betting_market_id,
    event_period_id: row.event_period_id,
    player_id: row.player_id,
    position: row.position,
    is_main: row.is_main,
    line: row.is_main ? null : row.line,
    selection_key: moveSelectionKeyOf(row),
    operator_id: move.kind === 'steam' ? null : (first?.operator_id ?? null),
    odds_id: move.odds_id,
    books,
    window_seconds: windowSeconds,
    changed_at: move.changed_at,
    detected_at: now,
    ...figures,
  };
}
