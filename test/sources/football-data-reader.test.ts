import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SourceBatch, SourceRow } from '../../src/modules/sources/source-batch.js';
import { readFootballData } from '../../src/modules/sources/football-data/football-data.reader.js';

// A pure reader (no database): this file runs once, not per dialect.

const example = (name: string) => readFileSync(new URL(`../../examples/football-data/${name}.csv`, import.meta.url), 'utf8');
const HOUR = 3_600_000;

/** A file of the given header and lines, as published: BOM, CRLF, a line of empty cells at the end. */
function file(header: string, ...lines: string[]): string {
  const width = header.split(',').length;
  return `\uFEFF${[header, ...lines, ','.repeat(width - 1)].join('\r\n')}\r\n`;
}

function only(batch: SourceBatch): SourceRow {
  expect(batch.problems).toEqual([]);
  expect(batch.rows).toHaveLength(1);
  const [row] = batch.rows;
  if (!row) throw new Error('no row');
  return row;
}

const at = (row: SourceRow, column: string) => row.prices.find((price) => price.column === column);

describe('the 2024/25 sample round (examples/football-data/E0-2024-round.csv)', () => {
  const batch = readFootballData(example('E0-2024-round'));

  it('reads the ten matches of the round, with no problem', () => {
    expect(batch.source).toBe('football-data');
    expect(batch.problems).toEqual([]);
    expect(batch.rows.map((row) => row.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(batch.rows.map((row) => `${row.home} v ${row.away}`)).toContain("Nott'm Forest v Bournemouth");
  });

  it('names the league by the Div table, keys the event by division, UK day and teams', () => {
    const [first] = batch.rows;
    expect(first?.league).toEqual({ sourceKey: 'E0', key: 'premier-league', name: 'Premier League', sport: { key: 'soccer', name: 'Soccer' }, country: { key: 'england', name: 'England' } });
    expect(first?.eventKey).toBe('E0/2024-08-16/Man United/Fulham');
    // 20:00 in August is British Summer Time.
    expect(first?.startTime).toBe('2024-08-16T19:00:00.000Z');
    expect(first?.result).toEqual({ status: 'final', home: 1, away: 0, firstHalf: { home: 0, away: 0 } });
  });

  it('maps every book of the season to its operator and reads no market maximum or average', () => {
    const books = new Map(batch.rows.flatMap((row) => row.prices.map((price) => [price.book.sourceKey, price.book.key])));
    expect(Object.fromEntries(books)).toEqual({ B365: 'bet365', BW: 'bwin', BF: 'betfair_sb_uk', PS: 'pinnacle', P: 'pinnacle', WH: 'williamhill', '1XB': 'onexbet', BFE: 'betfair_ex_uk' });
    const columns = batch.rows.flatMap((row) => row.prices.map((price) => price.column));
    expect(columns.filter((column) => /^(Max|Avg)/.test(column))).toEqual([]);
  });

  it('leaves out the blank cells of a book that did not price (Bwin before Man United v Fulham closed)', () => {
    const [first, second] = batch.rows;
    expect(first?.prices.filter((price) => price.book.sourceKey === 'BW').map((price) => price.column)).toEqual(['BWCH', 'BWCD', 'BWCA']);
    expect(second?.prices.filter((price) => price.book.sourceKey === 'BW').map((price) => price.column)).toEqual(['BWH', 'BWD', 'BWA', 'BWCH', 'BWCD', 'BWCA']);
  });

  it('records pre-closing prices 48 hours and closing prices one minute before kick-off', () => {
    for (const row of batch.rows) {
      const kickOff = Date.parse(row.startTime);
      for (const price of row.prices) {
        const closing = /^(B365|BW|BF|BFE|PS|WH|1XB|P)C/.test(price.column) || price.column.includes('CAH');
        expect(Date.parse(price.at), price.column).toBe(kickOff - (closing ? 60_000 : 48 * HOUR));
      }
    }
  });
});

describe('older files', () => {
  it('2005/06: two-digit years, no Time (15:00 UK), each book its own handicap, BetBrain figures not read', () => {
    const batch = readFootballData(example('E0-2005-round'));
    expect(batch.problems).toEqual([]);
    expect(batch.rows).toHaveLength(10);
    const [villa] = batch.rows;
    expect(villa?.eventKey).toBe('E0/2005-08-13/Aston Villa/Bolton');
    expect(villa?.startTime).toBe('2005-08-13T14:00:00.000Z');
    expect(batch.rows.flatMap((row) => row.prices).filter((price) => price.column.startsWith('Bb'))).toEqual([]);
    const books = new Set(batch.rows.flatMap((row) => row.prices.map((price) => price.book.key)));
    expect([...books].sort()).toEqual(['bet365', 'betvictor', 'bluesquare', 'bwin', 'gamebookers', 'interwetten', 'ladbrokes_uk', 'sportingbet', 'stanjames', 'williamhill']);
  });

  it('1995/96: results only, 95 is 1995', () => {
    const batch = readFootballData(example('E0-1995-round'));
    expect(batch.problems).toEqual([]);
    expect(batch.rows).toHaveLength(10);
    expect(batch.rows[0]).toMatchObject({ eventKey: 'E0/1995-08-19/Aston Villa/Man United', startTime: '1995-08-19T14:00:00.000Z', prices: [], result: { status: 'final', home: 3, away: 1, firstHalf: { home: 3, away: 0 } } });
    expect(batch.rows[9]?.eventKey).toBe('E0/1995-08-20/Arsenal/Middlesbrough');
  });
});

describe('dates and kick-off times', () => {
  const kickOff = (date: string, time?: string) => {
    const text = time === undefined ? file('Div,Date,HomeTeam,AwayTeam', `E0,${date},A,B`) : file('Div,Date,Time,HomeTeam,AwayTeam', `E0,${date},${time},A,B`);
    const row = only(readFootballData(text));
    return { startTime: row.startTime, day: row.eventKey.split('/')[1] };
  };

  it.each([
    ['01/03/99', '1999-03-01'],
    ['01/03/90', '1990-03-01'],
    ['01/03/89', '2089-03-01'],
    ['01/03/05', '2005-03-01'],
    ['01/03/2005', '2005-03-01'],
    ['1/3/2005', '2005-03-01'],
    ['29/02/2024', '2024-02-29'],
  ])('%s is %s', (written, day) => {
    expect(kickOff(written).day).toBe(day);
  });

  it.each([
    // GMT the day before summer time, BST from the last Sunday of March to the last Sunday of October.
    ['30/03/2024', '15:00', '2024-03-30T15:00:00.000Z'],
    ['31/03/2024', '15:00', '2024-03-31T14:00:00.000Z'],
    ['26/10/2024', '17:30', '2024-10-26T16:30:00.000Z'],
    ['27/10/2024', '14:00', '2024-10-27T14:00:00.000Z'],
    ['25/03/2006', '15:00', '2006-03-25T15:00:00.000Z'],
    ['26/03/2006', '15:00', '2006-03-26T14:00:00.000Z'],
    ['14/12/2024', '', '2024-12-14T15:00:00.000Z'],
    ['10/08/2024', '', '2024-08-10T14:00:00.000Z'],
  ])('%s %s (UK) is %s', (date, time, instant) => {
    expect(kickOff(date, time).startTime).toBe(instant);
  });

  it('without a Time column a match kicks off at 15:00 UK, GMT or BST', () => {
    expect(kickOff('26/10/2024').startTime).toBe('2024-10-26T14:00:00.000Z');
    expect(kickOff('27/10/2024').startTime).toBe('2024-10-27T15:00:00.000Z');
  });

  it('keys the event by its UK day, not its UTC one', () => {
    expect(kickOff('01/06/2024', '00:30')).toEqual({ startTime: '2024-05-31T23:30:00.000Z', day: '2024-06-01' });
  });
});

describe('the published format', () => {
  it('takes a byte order mark, Windows line endings, empty trailing columns and lines of empty cells', () => {
    const text = '\uFEFFDiv,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,B365H,,\r\nE0,10/08/2024,12:30,Arsenal,Wolves,2,0,1.25,,\r\n,,,,,,,,,\r\n,,,,,,,,,\r\n\r\n';
    const row = only(readFootballData(text));
    expect(row).toMatchObject({ row: 2, home: 'Arsenal', away: 'Wolves', startTime: '2024-08-10T11:30:00.000Z', result: { status: 'final', home: 2, away: 0 } });
    expect(row.prices.map((price) => [price.column, price.price])).toEqual([['B365H', 1.25]]);
    // Without half-time columns, no first half.
    expect(row.result).not.toHaveProperty('firstHalf');
  });

  it('reads a line of Unix line endings and no BOM the same way', () => {
    const row = only(readFootballData('Div,Date,HomeTeam,AwayTeam,FTHG,FTAG\nSP1,18/08/23,Almeria,Vallecano,0,2\n'));
    expect(row).toMatchObject({ eventKey: 'SP1/2023-08-18/Almeria/Vallecano', league: { key: 'la-liga', country: { key: 'spain' } } });
  });

  it('a row without full-time goals is a fixture, and a file without score columns (fixtures.csv) too', () => {
    const withScores = only(readFootballData(file('Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,HTHG,HTAG', 'E0,14/12/2024,15:00,Arsenal,Everton,,,,,')));
    expect(withScores.result).toEqual({ status: 'scheduled' });
    const fixtures = only(readFootballData(file('Div,Date,Time,HomeTeam,AwayTeam,Referee,B365H,B365D,B365A', 'SC0,08/08/2026,14:00,Hearts,Celtic,A Ref,4.20,3.60,1.80')));
    expect(fixtures).toMatchObject({ result: { status: 'scheduled' }, league: { key: 'premiership', country: { key: 'scotland' } } });
    expect(fixtures.prices).toHaveLength(3);
  });

  it('reads the spellings of the extra leagues\' files (Home, Away, HG, AG)', () => {
    const row = only(readFootballData(file('Div,Date,Time,Home,Away,HG,AG,Res', 'T1,09/08/2025,19:00,Galatasaray,Gaziantep,3,0,H')));
    expect(row).toMatchObject({ home: 'Galatasaray', away: 'Gaziantep', result: { status: 'final', home: 3, away: 0 }, league: { key: 'super-lig' } });
  });

  it('keeps a Div code the table does not know, without a key, for an alias to resolve', () => {
    expect(only(readFootballData(file('Div,Date,HomeTeam,AwayTeam', 'X9,01/01/2025,A,B'))).league).toEqual({ sourceKey: 'X9', name: 'X9', sport: { key: 'soccer', name: 'Soccer' } });
  });
});

describe('markets', () => {
  const header = 'Div,Date,Time,HomeTeam,AwayTeam,PSH,PSD,PSA,P>2.5,P<2.5,AHh,PAHH,PAHA,PSCH,PSCD,PSCA,PC>2.5,PC<2.5,AHCh,PCAHH,PCAHA,BFDH,BFD,BFCD,BFDCD,MaxH,AvgC>2.5,MaxCAHH,BbMxH,BbAvAHA';
  const row = only(readFootballData(file(header, 'E0,19/10/2024,15:00,Arsenal,Everton,1.40,5.00,8.00,1.70,2.20,-1.25,1.95,1.95,1.38,5.25,8.50,1.65,2.30,-1.5,2.02,1.88,1.41,4.90,4.80,4.75,1.45,1.70,2.10,1.50,2.00')));
  const kickOff = Date.parse('2024-10-19T14:00:00.000Z');
  const pre = new Date(kickOff - 48 * HOUR).toISOString();
  const closing = new Date(kickOff - 60_000).toISOString();
  const pinnacle = { sourceKey: 'P', key: 'pinnacle', name: 'Pinnacle' };

  it('1X2 is match-result home, draw and away', () => {
    expect(at(row, 'PSH')).toEqual({ book: { sourceKey: 'PS', key: 'pinnacle', name: 'Pinnacle' }, market: 'match-result', position: 'home', price: 1.4, at: pre, column: 'PSH' });
    expect([at(row, 'PSD')?.position, at(row, 'PSA')?.position]).toEqual(['draw', 'away']);
    expect(at(row, 'PSCA')).toMatchObject({ position: 'away', price: 8.5, at: closing });
  });

  it('goals over and under 2.5 are the total at line 2.5', () => {
    expect(at(row, 'P>2.5')).toEqual({ book: pinnacle, market: 'total', position: 'over', line: 2.5, price: 1.7, at: pre, column: 'P>2.5' });
    expect(at(row, 'PC<2.5')).toEqual({ book: pinnacle, market: 'total', position: 'under', line: 2.5, price: 2.3, at: closing, column: 'PC<2.5' });
  });

  it('the Asian handicap is the spread: home at AHh, away at its opposite; the closing prices at AHCh', () => {
    expect(at(row, 'PAHH')).toEqual({ book: pinnacle, market: 'spread', position: 'home', line: -1.25, price: 1.95, at: pre, column: 'PAHH' });
    expect(at(row, 'PAHA')).toMatchObject({ position: 'away', line: 1.25, at: pre });
    expect(at(row, 'PCAHH')).toMatchObject({ position: 'home', line: -1.5, price: 2.02, at: closing });
    expect(at(row, 'PCAHA')).toMatchObject({ position: 'away', line: 1.5, price: 1.88, at: closing });
  });

  it('tells Betfred (BFD…) from Betfair (BF…) in names that overlap', () => {
    expect([at(row, 'BFDH')?.book.key, at(row, 'BFDH')?.position]).toEqual(['betfred_uk', 'home']);
    expect([at(row, 'BFD')?.book.key, at(row, 'BFD')?.position]).toEqual(['betfair_sb_uk', 'draw']);
    expect([at(row, 'BFCD')?.book.key, at(row, 'BFCD')?.at]).toEqual(['betfair_sb_uk', closing]);
    expect([at(row, 'BFDCD')?.book.key, at(row, 'BFDCD')?.at]).toEqual(['betfred_uk', closing]);
  });

  it('reads no maximum or average, however spelled', () => {
    expect(row.prices.map((price) => price.column).filter((column) => /^(Max|Avg|Bb)/.test(column))).toEqual([]);
    // Pinnacle 3 + 2 + 2 pre-closing and as many closing, Betfred and Betfair 4.
    expect(row.prices).toHaveLength(14 + 4);
  });

  it.each([
    ['-0.25', -0.25, 0.25],
    ['-0.75', -0.75, 0.75],
    ['0.25', 0.25, -0.25],
    ['+0.5', 0.5, -0.5],
    ['0', 0, 0],
    ['-0', 0, 0],
    ['-2.75', -2.75, 2.75],
  ])('a handicap of %s: home %d, away %d', (written, home, away) => {
    const spread = only(readFootballData(file('Div,Date,HomeTeam,AwayTeam,AHh,B365AHH,B365AHA', `E0,01/12/2024,A,B,${written},1.9,2.0`)));
    expect(spread.prices.map((price) => [price.position, price.line])).toEqual([['home', home], ['away', away]]);
    // Never -0: the line is written as 0 and compared by value.
    expect(spread.prices.every((price) => !Object.is(price.line, -0))).toBe(true);
  });

  it('older files: a book\'s own handicap column first, then AHh, then BetBrain\'s BbAHh', () => {
    const older = only(readFootballData(file('Div,Date,HomeTeam,AwayTeam,BbAHh,GBAHH,GBAHA,GBAH,LBAHH,LBAHA,LBAH', 'E0,13/08/05,A,B,-0.5,1.9,1.9,-0.75,1.85,2.0,')));
    expect(older.prices.map((price) => [price.column, price.line])).toEqual([['GBAHH', -0.75], ['GBAHA', 0.75], ['LBAHH', -0.5], ['LBAHA', 0.5]]);
  });
});
