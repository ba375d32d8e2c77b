import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { figure, figureOrNull } from '../../shared/figures.js';
import { bestPriceOf, consensusDevig, consensusOf } from '../../shared/pricing/consensus.js';
import { DEFAULT_DEVIG_METHOD, type Devig } from '../../shared/pricing/devig.js';
import { createBoardRepository, type PriceRow } from './board.repository.js';
import { rowKeysOf } from './board.keys.js';
import { quoteOf, quotesByOutcomeOf } from './board.market.js';
import { fairOf, onePerBook, selectionIdOf } from './board.selections.js';

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

/** A selection's figures in one state of the rows, as board events write them, with the row that stands for it. */
interface Summary {
  row: PriceRow;
  selectionId: number | null;
  best: NonNullable<BoardChange['best']>;
  consensus: NonNullable<BoardChange['consensus']>;
  fair: BoardChange['fair'];
}

/**
 * The board's changes that some price changes make (docs/api.md#live-odds-stream): the selections
 * of the changed rows' markets, each summarised (best, consensus, fair) as the board shows it to a request
 * of every book in decimal prices, before and after the changes; those whose summary differs.
 * "Before" is the stored rows with the changed ones put back to their first recorded state, so
 * one read of the rows serves both sides. Only the changed (event, market) pairs are read, and
 * only the figures compared are computed: the work follows the changes, not the board.
 */
export function createBoardChanges(db: Kysely<Schema>): BoardChanges {
  const repository = createBoardRepository(db);
  return async function boardChanges(changes: readonly PriceChange[]): Promise<BoardChange[]> {
    if (changes.length === 0) return [];
    const first = new Map<number, PriceChange>();
    const pairs = new Map<string, readonly [number, number]>();
    for (const change of changes) {
      if (!first.has(change.odds_id)) first.set(change.odds_id, change);
      pairs.set(`${change.event_id}|${change.betting_market_id}`, [change.event_id, change.betting_market_id]);
    }
    const rows = await repository.priceRowsOf([...pairs.values()]);
    const key = keysOnce();
    const after = rows.filter((r) => r.open);
    const before: PriceRow[] = [];
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
    const markets = new Set([...rows, ...before].filter((r) => first.has(r.id)).map((r) => key(r).market));
    const keys = new Set([...before, ...after].filter((r) => markets.has(key(r).market)).map((r) => key(r).selection));
    const was = summaries(before, keys, key);
    const now = summaries(after, keys, key);
    const out: BoardChange[] = [];
    for (const key of keys) {
      const a = was.get(key);
      const b = now.get(key);
      const shown = b ?? a;
      if (shown === undefined) continue;
      const changed = changedParts(a, b);
      if (changed.length === 0) continue;
      out.push({ ...itemOf(shown), best: b?.best ?? null, consensus: b?.consensus ?? null, fair: b?.fair ?? null, changed });
    }
    return out;
  };
}

/**
 * The summaries of the selections `keys` names, as one state of the rows makes them: each market
 * grouped once (its rows one per book, by selection and by outcome) and de-vigged once for all its
 * selections, so the work grows with the rows, however many selections a market has.
 */
function summaries(rows: readonly PriceRow[], keys: ReadonlySet<string>, keyOf: RowKeys): Map<string, Summary> {
  const representatives = new Map<string, PriceRow>();
  const byMarket = new Map<string, PriceRow[]>();
  for (const row of rows) {
    const { selection: key, market } = keyOf(row);
    const seen = representatives.get(key);
    if (keys.has(key) && (seen === undefined || row.id < seen.id)) representatives.set(key, row);
    pushTo(byMarket, market, row);
  }
  const markets = new Map<string, MarketFigures>();
  const out = new Map<string, Summary>();
  for (const [key, row] of representatives) {
    const marketKey = keyOf(row).market;
    let market = markets.get(marketKey);
    if (market === undefined) {
      market = marketFiguresOf(byMarket.get(marketKey) ?? [], keyOf);
      markets.set(marketKey, market);
    }
    const own = market.bySelection.get(key) ?? [];
    const quotes = own.map(quoteOf);
    const best = bestPriceOf(quotes) ?? { price: row.id, books: [] };
    const consensus = consensusOf(quotes) ?? { price: row.id, line: null };
    const { probability, price } = fairOf(market.devig, market.outcomes.get(row.position) ?? -1);
    // As the board writes them (figures to 6 decimals): an event says that what the board shows changed.
    const fair = { probability: figureOrNull(probability), price: figureOrNull(price) };
    out.set(key, {
      row,
      selectionId: selectionIdOf(own),
      best: { price_decimal: best.price, operator_ids: best.books.map((r) => r.operator.id) },
      consensus: { price_decimal: figure(consensus.price), line: figureOrNull(consensus.line) },
      fair: fair.probability === null || fair.price === null ? null : { probability: fair.probability, price: fair.price },
    });
  }
  return out;
}

/** A market's rows, one per book, by selection; its outcomes' places; its consensus de-vig. */
interface MarketFigures {
  bySelection: Map<string, PriceRow[]>;
  outcomes: Map<string, number>;
  devig: Devig;
}

function marketFiguresOf(rows: readonly PriceRow[], keyOf: RowKeys): MarketFigures {
  const selectionOf = (row: PriceRow) => keyOf(row).selection;
  const marketRows = onePerBook(rows, selectionOf);
  const bySelection = new Map<string, PriceRow[]>();
  for (const row of marketRows) pushTo(bySelection, selectionOf(row), row);
  const outcomes = [...new Set(marketRows.map((r) => r.position))].sort();
  return { bySelection, outcomes: new Map(outcomes.map((position, index) => [position, index])), devig: consensusDevig(quotesByOutcomeOf(outcomes, marketRows), DEFAULT_DEVIG_METHOD) };
}

/** A row's market and selection keys (board.selections.ts). */
type RowKeys = (row: PriceRow) => { market: string; selection: string };

/**
 * The keys of each row object, made once: the rows are grouped by them several times over (the
 * markets, the selections, one per book), and making a key reads the row's position each time.
 * A row put back to its earlier price is another object, with its own keys (its line may differ).
 */
function keysOnce(): RowKeys {
  const made = new Map<PriceRow, { market: string; selection: string }>();
  return (row) => {
    let keys = made.get(row);
    if (keys === undefined) {
      keys = rowKeysOf(row);
      made.set(row, keys);
    }
    return keys;
  };
}

function pushTo<T>(groups: Map<string, T[]>, key: string, value: T): void {
  const list = groups.get(key);
  if (list === undefined) groups.set(key, [value]);
  else list.push(value);
}

/** Which of best, consensus and fair differ between two summaries of a selection (none where there is none), field by field. */
function changedParts(a: Summary | undefined, b: Summary | undefined): BoardChange['changed'] {
  const changed: BoardChange['changed'] = [];
  const sameBooks = (x: readonly number[], y: readonly number[]) => x.length === y.length && x.every((id, i) => id === y[i]);
  if (!same(a?.best, b?.best, (x, y) => x.price_decimal === y.price_decimal && sameBooks(x.operator_ids, y.operator_ids))) changed.push('best');
  if (!same(a?.consensus, b?.consensus, (x, y) => x.price_decimal === y.price_decimal && x.line === y.line)) changed.push('consensus');
  if (!same(a?.fair, b?.fair, (x, y) => x.probability === y.probability && x.price === y.price)) changed.push('fair');
  return changed;
}

/** Two parts the same: both absent, or both there and `equal`. */
function same<T>(a: T | null | undefined, b: T | null | undefined, equal: (x: T, y: T) => boolean): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  return equal(a, b);
}

/** What a board event says of the selection itself. */
function itemOf({ row, selectionId }: Summary): Omit<BoardChange, 'best' | 'consensus' | 'fair' | 'changed'> {
  return {
    event_id: row.event_id,
    betting_market_id: row.betting_market_id,
    event_period_id: row.event_period_id,
    player_id: row.player_id,
    position: row.position,
    is_main: row.is_main,
    line: row.is_main ? null : row.line,
    event_betting_market_position_id: selectionId,
  };
}
