import { type OddsFormat, priceIn } from '../../shared/odds-format.js';
import type { Static } from 'typebox';
import { CHANGE_COLUMNS, type ChangeColumn } from './history.repository.js';
import type { HistoryFileChange, HistoryItem } from './history.schemas.js';

/**
 * The price history as files: CSV (RFC 4180), a JSON document, NDJSON. Each renderer turns a
 * chunk of changes into one string, so a file is written chunk by chunk as the rows are read and
 * never exists whole in memory (history.service.ts streams them).
 */

export type FileFormat = 'csv' | 'json';

/** A change as the files show it: with its odds row's current grade and closing price, the last columns. */
export type HistoryFileItem = Static<typeof HistoryFileChange>;

/** A stored column's name in the files where it differs: the decimal prices, named as the history list names them. */
const FILE_NAMES: Partial<Record<ChangeColumn, string>> = { price_from: 'price_decimal_from', price_to: 'price_decimal_to' };

/** The columns of a file: the change's id and stored columns, then its odds row's grade and closing price. */
export const CSV_COLUMNS: readonly string[] = ['id', ...CHANGE_COLUMNS.map((column) => FILE_NAMES[column] ?? column), 'outcome', 'closing_price'];

/** RFC 4180 §2: records end in CRLF. */
const CRLF = '\r\n';
/**
 * A UTF-8 byte-order mark before the header: without it Excel reads the file in the machine's
 * legacy code page, and a name such as "Müller over" arrives garbled. CSV parsers skip it (csv-parse: `bom: true`).
 */
const BOM = '\uFEFF';

/** The columns a file with an `odds_format` adds after price_decimal_to: the price in that format. */
export const CSV_PRICE_COLUMNS = ['price_from', 'price_to'] as const;

const csvHeader = (columns: readonly string[]) => `${BOM}${columns.join(',')}${CRLF}`;
const CSV_HEADER = csvHeader(CSV_COLUMNS);
const CSV_PRICED_HEADER = csvHeader(CSV_COLUMNS.flatMap((column) => (column === 'price_decimal_to' ? [column, ...CSV_PRICE_COLUMNS] : [column])));

/**
 * A change with `price: {from, to}` in `format`, placed beside `price_decimal` (the history list
 * and the files with an odds_format; decision 0111).
 */
export function withPrice(item: HistoryItem, format: OddsFormat): HistoryItem {
  const { price_decimal: decimal, line, status, ...head } = item;
  const from = decimal.from === null ? null : priceIn(format, decimal.from);
  return { ...head, price: { from, to: priceIn(format, decimal.to) }, price_decimal: decimal, line, status };
}

/** The CSV records of a chunk of changes; with `priced`, the price columns of CSV_PRICE_COLUMNS too. */
function csvRecords(items: readonly HistoryFileItem[], priced: boolean): string {
  let text = '';
  for (const item of items) {
    const price = priced ? [csvPrice(item.price?.from ?? null), csvPrice(item.price?.to ?? null)] : [];
    const fields = [
      item.id,
      item.odds_id,
      item.event_id,
      item.operator_id,
      item.betting_market_id,
      csvText(item.position),
      item.changed_at,
      csvNumber(item.price_decimal.from),
      csvNumber(item.price_decimal.to),
      ...price,
      csvNumber(item.line.from),
      csvNumber(item.line.to),
      item.status.from === null ? '' : csvText(item.status.from),
      csvText(item.status.to),
      item.outcome === null ? '' : csvText(item.outcome),
      csvNumber(item.closing_price),
    ];
    text += fields.join(',') + CRLF;
  }
  return text;
}

/** A number as JSON writes it; an empty field for null (no value, as on the opening entry). */
function csvNumber(value: number | null): string {
  return value === null ? '' : String(value);
}

/** A price in a format: a number bare, a fraction ("5/4") as quoted text; empty for null. */
function csvPrice(value: number | string | null): string {
  return typeof value === 'string' ? csvText(value) : csvNumber(value);
}

/**
 * What a spreadsheet may run as a formula (OWASP, CSV injection): a cell that begins with a tab, CR
 * or LF, or with =, +, - or @ once its leading blanks and line breaks are trimmed, as spreadsheets
 * trim them, in the ASCII or the full-width form (＝＋－＠), which spreadsheets read as well.
 */
const FORMULA_START = /^(?:[\t\r\n]|\s*[=+\-@＝＋－＠])/u;

/**
 * Text, always quoted (RFC 4180 §2.5–2.7: a comma, quote or line break inside stays in the field,
 * a quote doubled). Text that a spreadsheet could run as a formula gets a leading apostrophe, the
 * OWASP remedy for CSV injection: the feed's text reaches the spreadsheets of every client
 * (decisions 0125, 0169).
 */
function csvText(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** A CSV file: the header row, then one record per change; with an odds format, the price columns too (the changes carry `price`). */
export async function* csvFile(changes: AsyncIterable<readonly HistoryFileItem[]>, oddsFormat?: OddsFormat): AsyncGenerator<string> {
  const priced = oddsFormat !== undefined;
  yield priced ? CSV_PRICED_HEADER : CSV_HEADER;
  for await (const items of changes) yield csvRecords(items, priced);
}

/** NDJSON: one change per line, each line a JSON document. */
export async function* ndjsonFile(changes: AsyncIterable<readonly HistoryItem[]>): AsyncGenerator<string> {
  for await (const items of changes) {
    let text = '';
    for (const item of items) text += `${JSON.stringify(item)}\n`;
    yield text;
  }
}

/** One event's history as a JSON document: `{"event": {…}, "changes": [… one change per line …]}`. */
export async function* eventJsonFile(event: unknown, changes: AsyncIterable<readonly HistoryItem[]>): AsyncGenerator<string> {
  yield `{"event":${JSON.stringify(event)},"changes":[`;
  let separator = '';
  for await (const items of changes) {
    let text = '';
    for (const item of items) {
      text += `${separator}\n${JSON.stringify(item)}`;
      separator = ',';
    }
    yield text;
  }
  yield '\n]}\n';
}
