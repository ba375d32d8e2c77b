import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

/**
 * What a football-data file should become, worked out from the CSV text alone, without the
 * service's reader: the column legend of notes.txt, the grading rules of docs/data.md and the
 * closing-line value of docs/api.md#results, each written out here on their own.
 */

/** A sample file of examples/football-data, as text. */
export const sample = (file: string) => readFileSync(new URL(`../../examples/football-data/${file}`, import.meta.url), 'utf8');

/** The bookmaker prefixes of the sample files and the operator keys docs/sources/football-data.md gives them. */
const BOOKS: Readonly<Record<string, string>> = {
  '1XB': 'onexbet',
  B365: 'bet365',
  BF: 'betfair_sb_uk',
  BFE: 'betfair_ex_uk',
  BS: 'bluesquare',
  BW: 'bwin',
  GB: 'gamebookers',
  IW: 'interwetten',
  LB: 'ladbrokes_uk',
  P: 'pinnacle',
  PS: 'pinnacle',
  SB: 'sportingbet',
  SJ: 'stanjames',
  VC: 'betvictor',
  WH: 'williamhill',
};

export type Market = 'match-result' | 'total' | 'spread';

export interface Quote {
  book: string;
  market: Market;
  position: string;
  line: number | null;
  price: number;
  closing: boolean;
}

export interface Match {
  home: string;
  away: string;
  /** The UK day, YYYY-MM-DD. */
  day: string;
  fullTime: [number, number];
  halfTime?: [number, number];
  quotes: Quote[];
}

const cellNumber = (text: string | undefined): number | undefined => (text === undefined || text.trim() === '' ? undefined : Number(text));

/** Every match of a file with its prices, from the CSV text. */
export function matchesOf(text: string): Match[] {
  const records = parse(text, { bom: true, columns: true, skip_empty_lines: true, trim: true }) as Array<Record<string, string>>;
  return records.map((r) => {
    const [day, month, year] = (r.Date ?? '').split('/');
    const fullYear = year?.length === 4 ? year : Number(year) >= 90 ? `19${year}` : `20${year}`;
    const quotes: Quote[] = [];
    for (const [prefix, book] of Object.entries(BOOKS)) {
      for (const closing of [false, true]) {
        const c = closing ? 'C' : '';
        const add = (column: string, market: Market, position: string, line: number | null) => {
          const price = cellNumber(r[`${prefix}${c}${column}`]);
          if (price !== undefined && line !== undefined) quotes.push({ book, market, position, line, price, closing });
        };
        add('H', 'match-result', 'home', null);
        add('D', 'match-result', 'draw', null);
        add('A', 'match-result', 'away', null);
        add('>2.5', 'total', 'over', 2.5);
        add('<2.5', 'total', 'under', 2.5);
        // The home side's handicap: the book's own column, else the market's (closing AHCh), else BetBrain's.
        const handicap = closing ? (cellNumber(r[`${prefix}CAH`]) ?? cellNumber(r.AHCh)) : (cellNumber(r[`${prefix}AH`]) ?? cellNumber(r.AHh) ?? cellNumber(r.BbAHh));
        if (handicap !== undefined) {
          add('AHH', 'spread', 'home', handicap);
          add('AHA', 'spread', 'away', -handicap || 0);
        }
      }
    }
    const pair = (h: string, a: string): [number, number] | undefined => (r[h] && r[a] ? [Number(r[h]), Number(r[a])] : undefined);
    const halfTime = pair('HTHG', 'HTAG');
    return { home: r.HomeTeam ?? '', away: r.AwayTeam ?? '', day: `${fullYear}-${month}-${day}`, fullTime: pair('FTHG', 'FTAG') ?? [NaN, NaN], quotes, ...(halfTime && { halfTime }) };
  });
}

const settle = (margin: number) => (margin > 0 ? 'won' : margin < 0 ? 'lost' : 'push');

/** The outcome of a quote on a full-time score (docs/data.md#how-selections-are-graded). */
export function outcomeOf(q: Pick<Quote, 'market' | 'position' | 'line'>, [home, away]: [number, number]): string {
  if (q.market === 'match-result') {
    const winner = home > away ? 'home' : home < away ? 'away' : 'draw';
    return winner === q.position ? 'won' : 'lost';
  }
  const line = q.line ?? NaN;
  const margin = q.market === 'total' ? (q.position === 'over' ? home + away - line : line - home - away) : (q.position === 'home' ? home - away : away - home) + line;
  // A quarter line is two half stakes, a quarter either side.
  if (Number.isInteger(line * 2)) return settle(margin);
  const halves = new Set([settle(margin - 0.25), settle(margin + 0.25)]);
  if (halves.size === 1) return [...halves][0] ?? '';
  return halves.has('won') ? 'half_won' : 'half_lost';
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};

/** The outcomes of a quote's market at its line's size. */
const sameMarket = (a: Pick<Quote, 'market' | 'line'>, b: Pick<Quote, 'market' | 'line'>) => a.market === b.market && Math.abs(a.line ?? 0) === Math.abs(b.line ?? 0);

/** Each odds row's last price before the start: the closing (`C`) one when the file has it, else the pre-closing one (decision 0300). */
export function lastPrices(match: Match): Map<string, Quote> {
  const last = new Map<string, Quote>();
  for (const q of [...match.quotes].sort((a, b) => Number(a.closing) - Number(b.closing))) last.set(`${q.book}/${q.market}/${q.position}/${q.line ?? ''}`, q);
  return last;
}

/**
 * The no-vig consensus closing price of a selection (docs/api.md#results): of its market at its
 * line, each outcome's median across the books of their last prices before the start (the `C`
 * columns, and a book the file gives no closing price keeps its pre-closing one), de-vigged
 * multiplicatively; undefined when an outcome has no price.
 */
export function fairClosingPrice(match: Match, selection: Pick<Quote, 'market' | 'position' | 'line'>): number | undefined {
  const positions = selection.market === 'match-result' ? ['home', 'draw', 'away'] : selection.market === 'total' ? ['over', 'under'] : ['home', 'away'];
  const closing = [...lastPrices(match).values()];
  const medians = positions.map((position) => median(closing.filter((q) => q.position === position && sameMarket(q, selection)).map((q) => q.price)));
  if (medians.some((m) => Number.isNaN(m))) return undefined;
  const implied = medians.map((m) => 1 / m);
  const sum = implied.reduce((a, b) => a + b, 0);
  return sum / (implied[positions.indexOf(selection.position)] ?? NaN);
}
