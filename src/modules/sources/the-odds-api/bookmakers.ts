import type { Mapped } from '../source-batch.js';

/**
 * The bookmakers we know by The Odds API's key, and our name for each. Our operator key is The
 * Odds API's own key (`pinnacle`, `williamhill`, `bet365`): the football-data reader maps its
 * column prefixes (`PS`, `WH`, `B365`) to the same keys, so both sources price the same operator.
 */
export const THE_ODDS_API_BOOKMAKERS: Readonly<Record<string, string>> = {
  pinnacle: 'Pinnacle',
  williamhill: 'William Hill',
  bet365: 'Bet365',
  betfair_ex_eu: 'Betfair Exchange',
  betfair_ex_uk: 'Betfair Exchange UK',
  betfair_sb_uk: 'Betfair Sportsbook',
  betway: 'Betway',
  betvictor: 'Bet Victor',
  coral: 'Coral',
  ladbrokes_uk: 'Ladbrokes',
  paddypower: 'Paddy Power',
  skybet: 'Sky Bet',
  unibet_eu: 'Unibet',
  unibet_uk: 'Unibet UK',
  marathonbet: 'Marathon Bet',
  onexbet: '1xBet',
  matchbook: 'Matchbook',
  sport888: '888sport',
  betclic: 'Betclic',
  nordicbet: 'Nordic Bet',
  draftkings: 'DraftKings',
  fanduel: 'FanDuel',
  betmgm: 'BetMGM',
  caesars: 'Caesars',
  williamhill_us: 'Caesars (William Hill US)',
  pointsbetus: 'PointsBet (US)',
  betrivers: 'BetRivers',
  bovada: 'Bovada',
  betonlineag: 'BetOnline.ag',
  mybookieag: 'MyBookie.ag',
  lowvig: 'LowVig.ag',
  espnbet: 'ESPN BET',
};

/**
 * The operator a bookmaker stands for. A book the table does not know has an undefined key, as
 * every code a shipped table does not know (the resolver then needs an alias), and the answer's
 * title as its name.
 */
export function bookOf(key: string, title: string | undefined): Mapped {
  const name = THE_ODDS_API_BOOKMAKERS[key];
  return name === undefined ? { sourceKey: key, name: title ?? key } : { sourceKey: key, key, name };
}
