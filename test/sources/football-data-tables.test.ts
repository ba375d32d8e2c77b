import { describe, expect, it } from 'vitest';
import { AGGREGATES, BOOKMAKERS } from '../../src/modules/sources/football-data/bookmakers.js';
import { columnKind } from '../../src/modules/sources/football-data/columns.js';
import { DIVISIONS } from '../../src/modules/sources/football-data/divisions.js';

// The shipped tables (no database): this file runs once, not per dialect.

const SELECTIONS = ['H', 'D', 'A', '>2.5', '<2.5', 'AHH', 'AHA'];

describe('the column names', () => {
  it('read back to their own prefix for every book and aggregate, pre-closing and closing, whatever the overlaps', () => {
    for (const prefix of [...Object.keys(BOOKMAKERS), ...AGGREGATES]) {
      for (const selection of SELECTIONS) {
        for (const closing of [false, true]) {
          const name = `${prefix}${closing ? 'C' : ''}${selection}`;
          expect(columnKind(name), name).toMatchObject({ prefix, closing, kind: AGGREGATES.some((a) => a === prefix) ? 'aggregate' : 'price' });
        }
      }
    }
  });

  it('are not mistaken for anything else', () => {
    const others = ['Div', 'Date', 'Time', 'HomeTeam', 'AwayTeam', 'FTHG', 'FTAG', 'FTR', 'HTHG', 'HTAG', 'HTR', 'Referee', 'Attendance', 'HS', 'AS', 'HST', 'AST', 'HHW', 'AHW', 'HC', 'AC', 'HF', 'AF', 'HFKC', 'AFKC', 'HO', 'AO', 'HY', 'AY', 'HR', 'AR', 'HBP', 'ABP', 'AHh', 'AHCh', 'BbAHh', 'B365AH', 'GBAH', 'LBAH', 'Bb1X2', 'BbOU', 'BbAH', 'Res', 'HG', 'AG'];
    for (const name of others) expect(columnKind(name), name).toBeUndefined();
  });
});

describe('the bookmaker table', () => {
  it('has every prefix notes.txt lists, with The Odds API\'s key where it carries the book', () => {
    expect(Object.fromEntries(Object.entries(BOOKMAKERS).map(([prefix, book]) => [prefix, book.key]))).toEqual({
      '1XB': 'onexbet',
      B365: 'bet365',
      BF: 'betfair_sb_uk',
      BFD: 'betfred_uk',
      BFE: 'betfair_ex_uk',
      BMGM: 'betmgm',
      BS: 'bluesquare',
      BV: 'betvictor',
      BW: 'bwin',
      CL: 'coral',
      GB: 'gamebookers',
      IW: 'interwetten',
      LB: 'ladbrokes_uk',
      P: 'pinnacle',
      PS: 'pinnacle',
      SB: 'sportingbet',
      SJ: 'stanjames',
      SO: 'sportingodds',
      SY: 'stanleybet',
      VC: 'betvictor',
      WH: 'williamhill',
    });
  });
});

describe('the Div table', () => {
  it('has the main leagues of football-data.co.uk, each with a country', () => {
    expect(Object.keys(DIVISIONS).sort()).toEqual(['B1', 'D1', 'D2', 'E0', 'E1', 'E2', 'E3', 'EC', 'F1', 'F2', 'G1', 'I1', 'I2', 'N1', 'P1', 'SC0', 'SC1', 'SC2', 'SC3', 'SP1', 'SP2', 'T1'].sort());
    for (const division of Object.values(DIVISIONS)) expect(division.key).toMatch(/^[a-z0-9-]+$/);
  });

  it('a key repeats only across countries', () => {
    const qualified = Object.values(DIVISIONS).map((division) => `${division.country.key}.${division.key}`);
    expect(new Set(qualified).size).toBe(qualified.length);
  });
});
