import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readFootballData } from '../../src/modules/sources/football-data/football-data.reader.js';

// A pure reader (no database): this file runs once, not per dialect.

const errors = readFileSync(new URL('../fixtures/football-data/errors.csv', import.meta.url), 'utf8');

describe('a file with malformed values (test/fixtures/football-data/errors.csv)', () => {
  const batch = readFootballData(errors);

  it('lists every problem with its CSV line (the header is line 1) and column', () => {
    expect(batch.problems.map(({ row, column }) => [row, column])).toEqual([
      [3, 'Date'], // 31/02/2024: no such day
      [4, 'Date'], // 2024-03-01: not dd/mm/yy(yy)
      [5, 'Time'], // 25:00
      [6, 'FTHG'], // 1.5 goals
      [7, 'FTAG'], // blank beside FTHG
      [8, 'B365H'], // 1.00: not above 1
      [8, 'B365D'], // abc
      [9, 'AHh'], // -0.3: not a quarter; once, though both sides read it
      [10, 'B365AHH'], // a handicap price without a handicap
      [11, 'HomeTeam'], // blank
      [13, 'Div'], // blank
      [16, 'HTHG'], // x
      [17, '(line)'], // an unclosed quote
    ]);
  });

  it('says what is wrong in words that name the column and the value', () => {
    const messages = Object.fromEntries(batch.problems.map((problem) => [`${problem.row}:${problem.column}`, problem.message]));
    expect(messages).toMatchObject({
      '3:Date': 'Date must be a date, dd/mm/yy or dd/mm/yyyy (got "31/02/2024")',
      '5:Time': 'Time must be a UK time of day, hh:mm (got "25:00")',
      '6:FTHG': 'FTHG must be a whole number of goals (got "1.5")',
      '7:FTAG': 'FTAG is blank while FTHG is given',
      '8:B365H': 'B365H must be a decimal price above 1, at most 1000001 (got "1.00")',
      '9:AHh': 'AHh must be a handicap in quarter goals, e.g. -0.75 (got "-0.3")',
      '10:B365AHH': 'B365AHH has a price but no handicap (AHh)',
      '11:HomeTeam': 'HomeTeam is blank',
    });
    expect(messages['17:(line)']).toMatch(/^not a CSV line: Quote Not Closed/);
  });

  it('leaves the problem rows out and reads the others, malformed aggregates and blank lines included', () => {
    expect(batch.rows.map((row) => [row.row, row.eventKey])).toEqual([
      [2, 'E0/2024-08-10/Arsenal/Wolves'],
      // MaxH "n/a" and AvgH "??" are aggregates, which are not read.
      [12, "E0/2024-08-14/Nott'm Forest/Brentford"],
      // A fixture without Time: 15:00 UK; line 14 is all empty cells.
      [15, 'E0/2024-08-16/Liverpool/Everton'],
    ]);
    expect(batch.rows[1]?.prices.map((price) => price.column)).toEqual(['B365H', 'B365D', 'B365A']);
    expect(batch.rows[2]).toMatchObject({ startTime: '2024-08-16T14:00:00.000Z', result: { status: 'scheduled' } });
  });

  it('reads every market of the good row, closing line included', () => {
    const [arsenal] = batch.rows;
    expect(arsenal?.prices.map((price) => `${price.column} ${price.market} ${price.position} ${price.line ?? ''}`.trim())).toEqual([
      'B365H match-result home',
      'B365D match-result draw',
      'B365A match-result away',
      'B365>2.5 total over 2.5',
      'B365<2.5 total under 2.5',
      'B365AHH spread home -1.75',
      'B365AHA spread away 1.75',
      'B365CH match-result home',
      'B365CD match-result draw',
      'B365CA match-result away',
      'PCAHH spread home -2',
      'PCAHA spread away 2',
    ]);
  });
});

describe('files that cannot be read', () => {
  it('an empty file: one problem on line 1', () => {
    expect(readFootballData('')).toEqual({ source: 'football-data', rows: [], problems: [{ row: 1, column: 'Div', message: 'the file has no header line (Div,Date,HomeTeam,AwayTeam,…)' }] });
    expect(readFootballData('\uFEFF\r\n').problems).toHaveLength(1);
  });

  it('a header without the columns every match needs: each missing one on line 1, no rows', () => {
    const batch = readFootballData('Div,Time,HomeTeam,FTHG\r\nE0,15:00,Arsenal,1\r\n');
    expect(batch.rows).toEqual([]);
    expect(batch.problems).toEqual([
      { row: 1, column: 'Date', message: 'the header has no Date column' },
      { row: 1, column: 'AwayTeam', message: 'the header has no AwayTeam column' },
    ]);
  });

  it('a price above the largest the service takes (decision 0278) is a problem, the largest is not', () => {
    const batch = readFootballData('Div,Date,HomeTeam,AwayTeam,BFEH,BFEA\nE0,01/12/2024,A,B,1000002,1000001\n');
    expect(batch.problems).toEqual([{ row: 2, column: 'BFEH', message: 'BFEH must be a decimal price above 1, at most 1000001 (got "1000002")' }]);
  });

  it('a price column without any handicap column: each priced side is a problem', () => {
    const batch = readFootballData('Div,Date,HomeTeam,AwayTeam,PAHH,PAHA\nE0,01/12/2024,A,B,1.9,2.0\n');
    expect(batch.problems).toEqual([
      { row: 2, column: 'PAHH', message: 'PAHH has a price but no handicap (the file has no AHh column)' },
      { row: 2, column: 'PAHA', message: 'PAHA has a price but no handicap (the file has no AHh column)' },
    ]);
  });
});
