import { parse } from 'csv-parse/sync';
import type { RowProblem, SourceBatch, SourceRow } from '../source-batch.js';
import { columnKind, handicapColumns } from './columns.js';
import { type LaidPrice, type Layout, readRow } from './football-data.row.js';

/**
 * A season file of football-data.co.uk (https://www.football-data.co.uk/notes.txt), read into a
 * source batch: one row per match with its league, teams, UK kick-off, result and every
 * bookmaker's pre-closing and closing prices in the three markets the files carry (match result,
 * total goals 2.5, Asian handicap). The market maximum and average columns are not read.
 *
 * The files as published are normal input: a UTF-8 byte order mark, Windows line endings, empty
 * columns after the last, lines of empty cells at the end, blank cells where a book did not
 * price. A line with a malformed value is left out and listed as a problem (its CSV line, the
 * header being line 1, and its column); the other lines are read.
 */
export function readFootballData(text: string): SourceBatch {
  const problems: RowProblem[] = [];
  const lines = parseLines(text, problems);
  const header = lines[0];
  if (!header || header.line !== 1) {
    problems.unshift({ row: 1, column: 'Div', message: 'the file has no header line (Div,Date,HomeTeam,AwayTeam,…)' });
    return { source: 'football-data', rows: [], problems };
  }
  const layout = layoutOf(header.cells, problems);
  if (!layout) return { source: 'football-data', rows: [], problems };
  const rows: SourceRow[] = [];
  for (const { line, cells } of lines.slice(1)) {
    if (cells.every((value) => value.trim() === '')) continue;
    const read = readRow(line, cells, layout);
    if (read.row) rows.push(read.row);
    problems.push(...read.problems);
  }
  problems.sort((a, b) => a.row - b.row);
  return { source: 'football-data', rows, problems };
}

interface Line {
  /** The CSV line the record ends on (the header is line 1). */
  line: number;
  cells: string[];
}

/** The CSV records; a record the parser cannot read (an unclosed quote) is a problem, the others are kept. */
function parseLines(text: string, problems: RowProblem[]): Line[] {
  const unreadable: Array<{ endsOn: number; message: string }> = [];
  const records = parse(text, {
    bom: true,
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      unreadable.push({ endsOn: typeof error?.lines === 'number' ? error.lines : 0, message: error?.message ?? 'unreadable' });
      return undefined;
    },
    // csv-parse declares string[][] whatever the options; with `info` each record comes with where it ends.
  }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  const lines = records.map(({ record, info }) => ({ line: info.lines, cells: record }));
  // The parser says where it gave up (the end of the file, for an unclosed quote); the record began after the last one read.
  for (const { endsOn, message } of unreadable) {
    const before = lines.reduce((last, { line }) => (line < endsOn ? Math.max(last, line) : last), 0);
    problems.push({ row: before + 1, column: '(line)', message: `not a CSV line: ${message}` });
  }
  return lines;
}

/** Either spelling of the team and goal columns: the main leagues' files and the others' (`Home`, `HG`). */
const SPELLINGS = {
  home: ['HomeTeam', 'Home'],
  away: ['AwayTeam', 'Away'],
  homeGoals: ['FTHG', 'HG'],
  awayGoals: ['FTAG', 'AG'],
} as const;

/** Where each column is; undefined (with problems on line 1) when a column every match needs is missing. */
function layoutOf(names: readonly string[], problems: RowProblem[]): Layout | undefined {
  const index = new Map<string, number>();
  names.forEach((name, at) => {
    const trimmed = name.trim();
    if (trimmed !== '' && !index.has(trimmed)) index.set(trimmed, at);
  });
  const spelled = (spellings: readonly string[]) => spellings.find((name) => index.has(name)) ?? spellings[0] ?? '';
  const [home, away, homeGoals, awayGoals] = [SPELLINGS.home, SPELLINGS.away, SPELLINGS.homeGoals, SPELLINGS.awayGoals].map(spelled) as [string, string, string, string];
  const missing = ['Div', 'Date', home, away].filter((name) => !index.has(name));
  for (const name of missing) problems.push({ row: 1, column: name, message: `the header has no ${name} column` });
  if (missing.length > 0) return undefined;

  const prices: LaidPrice[] = [];
  for (const [name, at] of index) {
    const kind = columnKind(name);
    if (kind?.kind !== 'price') continue;
    const handicaps = kind.market === 'spread' ? handicapColumns(kind.prefix, kind.closing).filter((column) => index.has(column)) : [];
    prices.push({ ...kind, name, index: at, handicaps });
  }
  return { index, home, away, homeGoals, awayGoals, prices };
}
