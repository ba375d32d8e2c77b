import type { SourceLeague } from '../source-batch.js';

/**
 * football-data.co.uk's division codes (the `Div` column) and the leagues they stand for. The keys
 * are those the demo catalogue gives the same leagues, so a loaded file and the demo speak of one
 * `premier-league`; keys repeat across countries (`championship`, `league-one`), the country tells
 * them apart. docs/sources/football-data.md shows this table.
 */

interface Division {
  key: string;
  name: string;
  country: { key: string; name: string };
}

const ENGLAND = { key: 'england', name: 'England' };
const SCOTLAND = { key: 'scotland', name: 'Scotland' };
const country = (key: string, name: string) => ({ key, name });

export const DIVISIONS: Readonly<Record<string, Division>> = {
  E0: { key: 'premier-league', name: 'Premier League', country: ENGLAND },
  E1: { key: 'championship', name: 'EFL Championship', country: ENGLAND },
  E2: { key: 'league-one', name: 'EFL League One', country: ENGLAND },
  E3: { key: 'league-two', name: 'EFL League Two', country: ENGLAND },
  EC: { key: 'national-league', name: 'National League', country: ENGLAND },
  SC0: { key: 'premiership', name: 'Scottish Premiership', country: SCOTLAND },
  SC1: { key: 'championship', name: 'Scottish Championship', country: SCOTLAND },
  SC2: { key: 'league-one', name: 'Scottish League One', country: SCOTLAND },
  SC3: { key: 'league-two', name: 'Scottish League Two', country: SCOTLAND },
  D1: { key: 'bundesliga', name: 'Bundesliga', country: country('germany', 'Germany') },
  D2: { key: '2-bundesliga', name: '2. Bundesliga', country: country('germany', 'Germany') },
  I1: { key: 'serie-a', name: 'Serie A', country: country('italy', 'Italy') },
  I2: { key: 'serie-b', name: 'Serie B', country: country('italy', 'Italy') },
  SP1: { key: 'la-liga', name: 'LaLiga', country: country('spain', 'Spain') },
  SP2: { key: 'la-liga-2', name: 'LaLiga 2', country: country('spain', 'Spain') },
  F1: { key: 'ligue-1', name: 'Ligue 1', country: country('france', 'France') },
  F2: { key: 'ligue-2', name: 'Ligue 2', country: country('france', 'France') },
  N1: { key: 'eredivisie', name: 'Eredivisie', country: country('netherlands', 'Netherlands') },
  B1: { key: 'pro-league', name: 'Belgian Pro League', country: country('belgium', 'Belgium') },
  P1: { key: 'primeira-liga', name: 'Primeira Liga', country: country('portugal', 'Portugal') },
  T1: { key: 'super-lig', name: 'Süper Lig', country: country('turkey', 'Turkey') },
  G1: { key: 'super-league', name: 'Super League Greece', country: country('greece', 'Greece') },
};

const SOCCER = { key: 'soccer', name: 'Soccer' } as const;

/** The league of a `Div` code; a code the table does not know keeps no key, for an alias to resolve. */
export function leagueOf(code: string): SourceLeague {
  const division = DIVISIONS[code];
  if (!division) return { sourceKey: code, name: code, sport: { ...SOCCER } };
  return { sourceKey: code, key: division.key, name: division.name, sport: { ...SOCCER }, country: { ...division.country } };
}
