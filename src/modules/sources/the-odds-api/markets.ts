import type { SourceMarket, SourcePosition, SourcePrice } from '../source-batch.js';
import { bookOf } from './bookmakers.js';
import { type Item, type ItemProblems, isItem, list, optionalInstant, text } from './fields.js';
import { decimalPrice, type TheOddsApiFormat } from './prices.js';

/**
 * The Odds API's market keys we read. Others (`h2h_lay`, `outrights`, player props, `btts`…) are
 * left out without a problem: an answer may carry what we do not price.
 */
export const THE_ODDS_API_MARKETS = {
  /** Two outcomes: `moneyline`; three, one of them `Draw`: `match-result`. */
  h2h: 'moneyline or match-result',
  /** Each team's handicap in its outcome's `point`. */
  spreads: 'spread',
  /** `Over` and `Under` at the outcome's `point`. */
  totals: 'total',
} as const;

const DRAW = 'draw';

interface Teams {
  home: string;
  away: string;
}

/** Every price of an item's bookmakers; each problem is recorded under its field path. */
export function readPrices(bookmakers: unknown[], teams: Teams, format: TheOddsApiFormat, problems: ItemProblems): SourcePrice[] {
  const prices: SourcePrice[] = [];
  bookmakers.forEach((bookmaker, i) => {
    const path = `bookmakers[${i}]`;
    if (!isItem(bookmaker)) return problems.add(path, 'must be an object');
    const key = text(bookmaker, 'key', `${path}.key`, problems);
    const title = typeof bookmaker['title'] === 'string' ? bookmaker['title'] : undefined;
    const updated = optionalInstant(bookmaker, 'last_update', `${path}.last_update`, problems);
    const markets = list(bookmaker, 'markets', `${path}.markets`, problems);
    if (key === undefined || markets === undefined) return undefined;
    const book = bookOf(key, title);
    markets.forEach((market, j) => {
      const at = `${path}.markets[${j}]`;
      if (!isItem(market)) return problems.add(at, 'must be an object');
      prices.push(...readMarket(market, at, { book, updated, teams, format }, problems));
      return undefined;
    });
    return undefined;
  });
  return prices;
}

interface MarketContext {
  book: SourcePrice['book'];
  /** The bookmaker's last_update: the time of a market that gives none. */
  updated: string | undefined;
  teams: Teams;
  format: TheOddsApiFormat;
}

function readMarket(market: Item, path: string, context: MarketContext, problems: ItemProblems): SourcePrice[] {
  const key = text(market, 'key', `${path}.key`, problems);
  if (key === undefined || !(key in THE_ODDS_API_MARKETS)) return [];
  const at = optionalInstant(market, 'last_update', `${path}.last_update`, problems) ?? context.updated;
  const outcomes = list(market, 'outcomes', `${path}.outcomes`, problems);
  if (at === undefined) return problems.add(`${path}.last_update`, 'is missing, and so is its bookmaker’s last_update') ?? [];
  if (outcomes === undefined) return [];
  const read: SourcePrice[] = [];
  outcomes.forEach((outcome, k) => {
    const column = `${path}.outcomes[${k}]`;
    if (!isItem(outcome)) return problems.add(column, 'must be an object');
    const position = positionOf(key, outcome, column, context.teams, problems);
    const price = decimalPrice(outcome['price'], context.format);
    if (price === undefined) problems.add(`${column}.price`, context.format === 'decimal' ? 'must be a decimal price above 1' : 'must be an American price of at least +100 or at most -100');
    const line = key === 'h2h' ? undefined : pointOf(outcome, `${column}.point`, problems);
    if (position === undefined || price === undefined || (key !== 'h2h' && line === undefined)) return undefined;
    read.push({ book: context.book, market: marketOf(key), position, ...(line === undefined ? {} : { line }), price, at, column: `${column}.price` });
    return undefined;
  });
  if (key === 'h2h') return headToHead(read, outcomes.length, path, problems);
  return read;
}

/** h2h is a moneyline with two outcomes and a match result with three, the third being the draw. */
function headToHead(prices: SourcePrice[], count: number, path: string, problems: ItemProblems): SourcePrice[] {
  const hasDraw = prices.some((p) => p.position === DRAW);
  if (count === 2 && !hasDraw) return prices;
  if (count === 3 && hasDraw) return prices.map((p) => ({ ...p, market: 'match-result' }));
  if (prices.length < count) return []; // Each unreadable outcome has its problem already.
  return problems.add(`${path}.outcomes`, 'h2h must have two outcomes (the teams) or three (the teams and Draw)') ?? [];
}

function marketOf(key: string): SourceMarket {
  return key === 'spreads' ? 'spread' : key === 'totals' ? 'total' : 'moneyline';
}

function positionOf(key: string, outcome: Item, column: string, teams: Teams, problems: ItemProblems): SourcePosition | undefined {
  const name = text(outcome, 'name', `${column}.name`, problems);
  if (name === undefined) return undefined;
  if (key === 'totals') {
    const side = name.trim().toLowerCase();
    if (side === 'over' || side === 'under') return side;
    return problems.add(`${column}.name`, 'must be Over or Under');
  }
  if (name === teams.home) return 'home';
  if (name === teams.away) return 'away';
  if (key === 'h2h' && name.trim().toLowerCase() === DRAW) return DRAW;
  return problems.add(`${column}.name`, `names neither home_team nor away_team${key === 'h2h' ? ' nor Draw' : ''}`);
}

function pointOf(outcome: Item, column: string, problems: ItemProblems): number | undefined {
  const point = outcome['point'];
  if (typeof point === 'number' && Number.isFinite(point)) return point;
  return problems.add(column, point === undefined ? 'is missing' : 'must be a number');
}
