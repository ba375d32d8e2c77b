import { HOUR_MS, MINUTE_MS } from '../../../platform/time.js';
import { MAX_PRICE_DECIMAL } from '../../../shared/odds-format.js';
import type { RowProblem, SourcePrice, SourceResult, SourceRow } from '../source-batch.js';
import { bookOf } from './bookmakers.js';
import type { PriceColumn } from './columns.js';
import { leagueOf } from './divisions.js';
import { isoDate, parseDate, parseTime, ukInstant } from './uk-time.js';

/** Where each thing sits in a file's header, found once per file (football-data.reader.ts). */
export interface Layout {
  /** Header name → cell index (the first column of that name). */
  index: ReadonlyMap<string, number>;
  /** The team and score columns by the names this file uses (`HomeTeam` or `Home`, `FTHG` or `HG`). */
  home: string;
  away: string;
  homeGoals: string;
  awayGoals: string;
  prices: readonly LaidPrice[];
}

export interface LaidPrice extends PriceColumn {
  name: string;
  index: number;
  /** `spread`: the columns of this file that may hold the handicap, most particular first. */
  handicaps: readonly string[];
}

/**
 * The instants a price is recorded at (decision 0300). football-data.co.uk gives two prices per
 * selection without their times: pre-closing ones (collected on the Friday before a weekend and
 * the Tuesday before midweek games) and closing ones (the last before kick-off).
 */
export const PRE_CLOSING_BEFORE_KICK_OFF_MS = 48 * HOUR_MS;
export const CLOSING_BEFORE_KICK_OFF_MS = MINUTE_MS;
/** A file without a `Time` column (before 2019/20) or a blank cell: the traditional Saturday kick-off. */
const DEFAULT_KICK_OFF = { hour: 15, minute: 0 };

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(?:\.\d+)?$/;
const SIGNED = /^[+-]?\d+(?:\.\d+)?$/;

type Problem = (column: string, message: string) => void;
type Cell = (name: string) => string;

/** One line of a file: its row, or the problems that leave it out. */
export function readRow(line: number, cells: readonly string[], layout: Layout): { row?: SourceRow; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const problem: Problem = (column, message) => problems.push({ row: line, column, message });
  const cell: Cell = (name) => {
    const at = layout.index.get(name);
    return at === undefined ? '' : (cells[at] ?? '').trim();
  };
  const [div, home, away] = ['Div', layout.home, layout.away].map((name) => {
    const value = cell(name);
    if (value === '') problem(name, `${name} is blank`);
    return value;
  }) as [string, string, string];
  const date = parseDate(cell('Date'));
  if (!date) problem('Date', `Date must be a date, dd/mm/yy or dd/mm/yyyy (got "${cell('Date')}")`);
  const time = cell('Time') === '' ? DEFAULT_KICK_OFF : parseTime(cell('Time'));
  if (!time) problem('Time', `Time must be a UK time of day, hh:mm (got "${cell('Time')}")`);
  const result = readResult(cell, layout, problem);
  const prices = readPrices(cells, cell, layout, problem);
  if (problems.length > 0 || !date || !time) return { problems: distinct(problems) };

  const kickOff = ukInstant(date, time.hour, time.minute);
  const preClosingAt = new Date(kickOff - PRE_CLOSING_BEFORE_KICK_OFF_MS).toISOString();
  const closingAt = new Date(kickOff - CLOSING_BEFORE_KICK_OFF_MS).toISOString();
  return {
    problems,
    row: {
      row: line,
      eventKey: `${div}/${isoDate(date)}/${home}/${away}`,
      league: leagueOf(div),
      home,
      away,
      startTime: new Date(kickOff).toISOString(),
      result,
      prices: prices.map(({ closing, ...price }) => ({ ...price, at: closing ? closingAt : preClosingAt })),
    },
  };
}

/** A handicap cell both sides of the market read is one problem, not two. */
function distinct(problems: RowProblem[]): RowProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(`${p.column}\n${p.message}`) && Boolean(seen.add(`${p.column}\n${p.message}`)));
}

/** A pair of goal cells: both blank (undefined), both whole numbers, or problems. */
function readScore(cell: Cell, problem: Problem, homeName: string, awayName: string): { home: number; away: number } | undefined {
  const [home, away] = [cell(homeName), cell(awayName)];
  if (home === '' && away === '') return undefined;
  let valid = true;
  for (const [name, value, other] of [[homeName, home, awayName], [awayName, away, homeName]] as const) {
    if (value === '') problem(name, `${name} is blank while ${other} is given`);
    else if (!WHOLE.test(value)) problem(name, `${name} must be a whole number of goals (got "${value}")`);
    else continue;
    valid = false;
  }
  return valid ? { home: Number(home), away: Number(away) } : undefined;
}

/** Full-time goals make the match final (with its first half when given); without them it is a fixture. */
function readResult(cell: Cell, layout: Layout, problem: Problem): SourceResult {
  const fullTime = readScore(cell, problem, layout.homeGoals, layout.awayGoals);
  const firstHalf = readScore(cell, problem, 'HTHG', 'HTAG');
  if (!fullTime) return { status: 'scheduled' };
  return firstHalf ? { status: 'final', ...fullTime, firstHalf } : { status: 'final', ...fullTime };
}

type ReadPrice = Omit<SourcePrice, 'at'> & { closing: boolean };

/** The row's prices, blank cells (a book that did not price) left out. */
function readPrices(cells: readonly string[], cell: Cell, layout: Layout, problem: Problem): ReadPrice[] {
  const prices: ReadPrice[] = [];
  for (const column of layout.prices) {
    const text = (cells[column.index] ?? '').trim();
    if (text === '') continue;
    const price = Number(text);
    if (!DECIMAL.test(text) || !(price > 1) || price > MAX_PRICE_DECIMAL) {
      problem(column.name, `${column.name} must be a decimal price above 1, at most ${MAX_PRICE_DECIMAL} (got "${text}")`);
      continue;
    }
    const line = lineOf(column, cell, problem);
    if (line === null) continue;
    const read: ReadPrice = { book: bookOf(column.prefix), market: column.market, position: column.position, price, column: column.name, closing: column.closing };
    if (line !== undefined) read.line = line;
    prices.push(read);
  }
  return prices;
}

/** The line of a price: the total its name carries, the handicap of its side, undefined for match odds; null after a problem. */
function lineOf(column: LaidPrice, cell: Cell, problem: Problem): number | undefined | null {
  if (column.market === 'total') return column.total;
  if (column.market !== 'spread') return undefined;
  const source = column.handicaps.find((name) => cell(name) !== '');
  if (source === undefined) {
    const where = column.handicaps.length > 0 ? column.handicaps.join(', ') : `the file has no ${column.closing ? 'AHCh' : 'AHh'} column`;
    problem(column.name, `${column.name} has a price but no handicap (${where})`);
    return null;
  }
  const text = cell(source);
  const handicap = Number(text);
  if (!SIGNED.test(text) || !Number.isInteger(handicap * 4)) {
    problem(source, `${source} must be a handicap in quarter goals, e.g. -0.75 (got "${text}")`);
    return null;
  }
  // The handicap is the home side's; the away side's is its opposite (and never -0).
  return (column.position === 'home' ? handicap : -handicap) || 0;
}
