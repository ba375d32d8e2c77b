import type { SourceMarket, SourcePosition } from '../source-batch.js';
import { AGGREGATES, BOOKMAKERS } from './bookmakers.js';

/**
 * What a header name of a football-data.co.uk file says: which book, which selection, pre-closing
 * or closing. A price column is a bookmaker prefix, then `C` for a closing price, then the
 * selection: `H`/`D`/`A` (match result), `>2.5`/`<2.5` (total goals), `AHH`/`AHA` (Asian handicap,
 * home and away). `BFDH` is Betfred's home price but `BFD` Betfair's draw: the prefixes overlap, so
 * a name is read with every prefix and only a reading whose rest is a selection counts.
 */

export interface Selection {
  market: Exclude<SourceMarket, 'moneyline'>;
  position: SourcePosition;
  /** `total`: the goals line the name carries. */
  total?: number;
}

export interface PriceColumn extends Selection {
  kind: 'price';
  prefix: string;
  closing: boolean;
}

/** A market maximum or average (`MaxH`, `AvgC>2.5`, `BbAvAHH`): never an operator's price. */
export interface AggregateColumn extends Selection {
  kind: 'aggregate';
  prefix: string;
  closing: boolean;
}

export type ColumnKind = PriceColumn | AggregateColumn;

const SIMPLE: Readonly<Record<string, Selection>> = {
  H: { market: 'match-result', position: 'home' },
  D: { market: 'match-result', position: 'draw' },
  A: { market: 'match-result', position: 'away' },
  AHH: { market: 'spread', position: 'home' },
  AHA: { market: 'spread', position: 'away' },
};

const TOTAL = /^([<>])(\d+(?:\.\d+)?)$/;

/** The selection a column name ends with, or undefined. */
function selectionOf(rest: string): Selection | undefined {
  const simple = SIMPLE[rest];
  if (simple) return simple;
  const total = TOTAL.exec(rest);
  if (!total) return undefined;
  return { market: 'total', position: total[1] === '>' ? 'over' : 'under', total: Number(total[2]) };
}

const PREFIXES = [...Object.keys(BOOKMAKERS), ...AGGREGATES];
const aggregates = new Set<string>(AGGREGATES);

/** A price column or an aggregate; undefined for every other column (statistics, scores, lines). */
export function columnKind(name: string): ColumnKind | undefined {
  let found: { prefix: string; closing: boolean; selection: Selection } | undefined;
  for (const prefix of PREFIXES) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const open = selectionOf(rest);
    const closing = rest.startsWith('C') ? selectionOf(rest.slice(1)) : undefined;
    const selection = open ?? closing;
    // The longest prefix wins should two readings ever both make sense (test/sources checks none do).
    if (selection && (!found || prefix.length > found.prefix.length)) found = { prefix, closing: !open, selection };
  }
  if (!found) return undefined;
  const kind = aggregates.has(found.prefix) ? 'aggregate' : 'price';
  return { kind, prefix: found.prefix, closing: found.closing, ...found.selection };
}

/**
 * The columns that may hold the handicap of a book's Asian handicap prices, most particular
 * first: the book's own (`B365AH`, `GBAH`, `LBAH` in files before 2019/20), the market's (`AHh`,
 * closing `AHCh`), then BetBrain's (`BbAHh`, pre-closing, before 2019/20).
 */
export function handicapColumns(prefix: string, closing: boolean): string[] {
  return closing ? [`${prefix}CAH`, 'AHCh'] : [`${prefix}AH`, 'AHh', 'BbAHh'];
}
