import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { DEFAULT_DEVIG_METHOD } from '../../shared/pricing/devig.js';
import { type BoardRow, createBoardRepository } from './board.repository.js';
import { boardItemOf, marketKeyOf, selectionKeyOf, selectionsOf, shownBoardItem } from './board.selections.js';

/** The board's changes that some price changes make: the selections whose best, consensus or fair price they changed, as they are now. */
export type BoardChanges = (changes: readonly PriceChange[]) => Promise<BoardChange[]>;

/** One recorded price change, as the price history keeps it (only what the board needs). */
export interface PriceChange {
  odds_id: number;
  event_id: number;
  betting_market_id: number;
  price_decimal: { from: number | null; to: number };
  line: { from: number | null; to: number | null };
  status: { from: string | null; to: string };
}

/** What a board event says: a selection whose best, consensus or fair price changed, as it is now. */
export interface BoardChange {
  event_id: number;
  betting_market_id: number;
  event_period_id: number | null;
  player_id: number | null;
  position: string;
  is_main: boolean;
  /** An alternate line's; null on a main-line selection (each book at its own line). */
  line: number | null;
  event_betting_market_position_id: number | null;
  /** Null when no book prices the selection any more. */
  best: { price_decimal: number; operator_ids: number[] } | null;
  consensus: { price_decimal: number; line: number | null } | null;
  /** The consensus fair price by the default method; null when there is none. */
  fair: { probability: number; price: number } | null;
  /** Which of best, consensus and fair changed. */
  changed: Array<'best' | 'consensus' | 'fair'>;
}

type Summary = Pick<BoardChange, 'best' | 'consensus' | 'fair'> & { item: Omit<BoardChange, 'best' | 'consensus' | 'fair' | 'changed'> };

/**
 * The board's changes that some price changes make (docs/api.md#live-odds-stream): the selections
 * of the changed rows' markets, each summarised (best, consensus, fair) as the board shows it to a request
 * of every book in decimal prices, before and after the changes; those whose summary differs.
 * "Before" is the stored rows with the changed ones put back to their first recorded state, so
 * one read of the rows serves both sides, and every node computes the same from the same history.
 */
export function createBoardChanges(db: Kysely<Schema>): BoardChanges {
  const repository = createBoardRepository(db);
  return async function boardChanges(changes: readonly PriceChange[]): Promise<BoardChange[]> {
    if (changes.length === 0) return [];
    const first = new Map<number, PriceChange>();
    for (const change of changes) if (!first.has(change.odds_id)) first.set(change.odds_id, change);
    const rows = await repository.rowsOf(unique(changes.map((c) => c.event_id)), unique(changes.map((c) => c.betting_market_id)), true);
    const after = rows.filter((r) => r.open);
    const before: BoardRow[] = [];
    for (const row of rows) {
      const change = first.get(row.id);
      if (change === undefined) {
        if (row.open) before.push(row);
        continue;
      }
      // A row the change opened (no earlier price) was on no board before.
      if (change.price_decimal.from === null || change.status.from !== 'open') continue;
      before.push({ ...row, price: change.price_decimal.from, line: change.line.from });
    }
    // A price moved changes the fair prices of every selection of its market, not only its own.
    const markets = new Set([...rows, ...before].filter((r) => first.has(r.id)).map(marketKeyOf));
    const keys = new Set([...before, ...after].filter((r) => markets.has(marketKeyOf(r))).map(selectionKeyOf));
    const was = summaries(before, keys);
    const now = summaries(after, keys);
    const out: BoardChange[] = [];
    for (const key of keys) {
      const a = was.get(key);
      const b = now.get(key);
      const item = b?.item ?? a?.item;
      if (item === undefined) continue;
      const changed = (['best', 'consensus', 'fair'] as const).filter((part) => JSON.stringify(a?.[part] ?? null) !== JSON.stringify(b?.[part] ?? null));
      if (changed.length === 0) continue;
      out.push({ ...item, best: b?.best ?? null, consensus: b?.consensus ?? null, fair: b?.fair ?? null, changed });
    }
    return out;
  };
}

/** The summaries of the selections `keys` names, as one state of the rows makes them. */
function summaries(rows: readonly BoardRow[], keys: ReadonlySet<string>): Map<string, Summary> {
  const representatives = new Map<string, BoardRow>();
  for (const row of rows) {
    const key = selectionKeyOf(row);
    const seen = representatives.get(key);
    if (keys.has(key) && (seen === undefined || row.id < seen.id)) representatives.set(key, row);
  }
  const selections = selectionsOf([...representatives.values()], rows);
  const out = new Map<string, Summary>();
  for (const [key, row] of representatives) {
    const selection = selections.get(row.id);
    if (selection === undefined) continue;
    // As the board writes them (figures to 6 decimals): an event says that what the board shows changed.
    const item = shownBoardItem(boardItemOf(selection, { operatorIds: null, format: 'decimal', method: DEFAULT_DEVIG_METHOD, deeplinks: false }), 'decimal');
    const { probability, price } = item.fair.consensus;
    out.set(key, {
      item: {
        event_id: item.event_id,
        betting_market_id: item.betting_market.id,
        event_period_id: item.event_period_id,
        player_id: item.player_id,
        position: item.position,
        is_main: item.is_main,
        line: item.line,
        event_betting_market_position_id: item.event_betting_market_position_id,
      },
      best: { price_decimal: item.best.price_decimal, operator_ids: item.best.operators.map((o) => o.id) },
      consensus: { price_decimal: item.consensus.price_decimal, line: item.consensus.line },
      fair: probability === null || price === null ? null : { probability, price },
    });
  }
  return out;
}

const unique = (values: readonly number[]) => [...new Set(values)];
