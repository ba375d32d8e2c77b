import type { Mapped } from '../source-batch.js';

/**
 * The bookmaker prefixes of football-data.co.uk's odds columns (`B365H`, `PSCH`, `BFE>2.5`…) and
 * the operators they are. Where The Odds API prices the same book, our key is its bookmaker key,
 * so a price loaded from a file and one fetched from the feed land on one operator; the others
 * (books The Odds API does not carry, or that have closed) get a key of ours in the same style.
 * docs/sources/football-data.md shows this table with the reason for each row.
 */
export const BOOKMAKERS: Readonly<Record<string, { key: string; name: string }>> = {
  '1XB': { key: 'onexbet', name: '1xBet' },
  B365: { key: 'bet365', name: 'Bet365' },
  BF: { key: 'betfair_sb_uk', name: 'Betfair Sportsbook' },
  BFD: { key: 'betfred_uk', name: 'Betfred' },
  BFE: { key: 'betfair_ex_uk', name: 'Betfair Exchange' },
  BMGM: { key: 'betmgm', name: 'BetMGM' },
  BS: { key: 'bluesquare', name: 'Blue Square' },
  BV: { key: 'betvictor', name: 'BetVictor' },
  BW: { key: 'bwin', name: 'Bwin' },
  CL: { key: 'coral', name: 'Coral' },
  GB: { key: 'gamebookers', name: 'Gamebookers' },
  IW: { key: 'interwetten', name: 'Interwetten' },
  LB: { key: 'ladbrokes_uk', name: 'Ladbrokes' },
  // Pinnacle's columns are `PS…` for match odds and `P…` for totals and handicaps (`PH` in older files).
  P: { key: 'pinnacle', name: 'Pinnacle' },
  PS: { key: 'pinnacle', name: 'Pinnacle' },
  SB: { key: 'sportingbet', name: 'Sportingbet' },
  SJ: { key: 'stanjames', name: 'Stan James' },
  SO: { key: 'sportingodds', name: 'Sporting Odds' },
  SY: { key: 'stanleybet', name: 'Stanleybet' },
  // VC Bet became BetVictor; football-data's newer files say `BV`.
  VC: { key: 'betvictor', name: 'BetVictor' },
  WH: { key: 'williamhill', name: 'William Hill' },
};

/**
 * Prefixes of figures computed over many books (market maximum and average, and BetBrain's before
 * 2019/20): never an operator's price, so never read.
 */
export const AGGREGATES = ['Max', 'Avg', 'BbMx', 'BbAv'] as const;

/** The operator of a bookmaker prefix, as the batch names it. */
export function bookOf(prefix: string): Mapped {
  const book = BOOKMAKERS[prefix];
  return book ? { sourceKey: prefix, key: book.key, name: book.name } : { sourceKey: prefix, name: prefix };
}
