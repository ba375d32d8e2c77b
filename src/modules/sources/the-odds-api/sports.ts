import type { SourceLeague } from '../source-batch.js';

/**
 * The Odds API's sport keys (`group_competition`) we know, with the league and country each
 * stands for. Our league keys are those of our reference data (the demo's catalogue names the
 * same leagues the same way), so a feed and a demo database agree. A sport key not listed here is
 * read with an undefined league key: the resolver makes it a row error unless an alias maps it.
 */
export const THE_ODDS_API_LEAGUES: Readonly<Record<string, { league: string; name: string; sport: string; country?: string }>> = {
  soccer_epl: { league: 'premier-league', name: 'Premier League', sport: 'soccer', country: 'england' },
  soccer_efl_champ: { league: 'championship', name: 'EFL Championship', sport: 'soccer', country: 'england' },
  soccer_spain_la_liga: { league: 'la-liga', name: 'LaLiga', sport: 'soccer', country: 'spain' },
  soccer_germany_bundesliga: { league: 'bundesliga', name: 'Bundesliga', sport: 'soccer', country: 'germany' },
  soccer_italy_serie_a: { league: 'serie-a', name: 'Serie A', sport: 'soccer', country: 'italy' },
  soccer_france_ligue_one: { league: 'ligue-1', name: 'Ligue 1', sport: 'soccer', country: 'france' },
  soccer_netherlands_eredivisie: { league: 'eredivisie', name: 'Eredivisie', sport: 'soccer', country: 'netherlands' },
  soccer_portugal_primeira_liga: { league: 'primeira-liga', name: 'Primeira Liga', sport: 'soccer', country: 'portugal' },
  soccer_usa_mls: { league: 'mls', name: 'Major League Soccer', sport: 'soccer', country: 'united-states' },
  soccer_mexico_ligamx: { league: 'liga-mx', name: 'Liga MX', sport: 'soccer', country: 'mexico' },
  soccer_brazil_campeonato: { league: 'brasileirao', name: 'Brasileirão Série A', sport: 'soccer', country: 'brazil' },
  basketball_nba: { league: 'nba', name: 'NBA', sport: 'basketball', country: 'united-states' },
  basketball_wnba: { league: 'wnba', name: 'WNBA', sport: 'basketball', country: 'united-states' },
  basketball_euroleague: { league: 'euroleague', name: 'EuroLeague', sport: 'basketball' },
  basketball_nbl: { league: 'nbl', name: 'National Basketball League', sport: 'basketball', country: 'australia' },
  americanfootball_nfl: { league: 'nfl', name: 'NFL', sport: 'american-football', country: 'united-states' },
  americanfootball_ncaaf: { league: 'ncaaf', name: 'NCAA Football', sport: 'american-football', country: 'united-states' },
  americanfootball_cfl: { league: 'cfl', name: 'Canadian Football League', sport: 'american-football', country: 'canada' },
  baseball_mlb: { league: 'mlb', name: 'MLB', sport: 'baseball', country: 'united-states' },
  baseball_npb: { league: 'npb', name: 'Nippon Professional Baseball', sport: 'baseball', country: 'japan' },
  baseball_kbo: { league: 'kbo', name: 'KBO League', sport: 'baseball', country: 'south-korea' },
  icehockey_nhl: { league: 'nhl', name: 'NHL', sport: 'ice-hockey', country: 'united-states' },
  icehockey_sweden_hockey_league: { league: 'shl', name: 'Swedish Hockey League', sport: 'ice-hockey', country: 'sweden' },
  icehockey_liiga: { league: 'liiga', name: 'Liiga', sport: 'ice-hockey', country: 'finland' },
};

/** Our sports by the group that starts a sport key (`soccer_epl` → `soccer`). */
export const THE_ODDS_API_SPORTS: Readonly<Record<string, { key: string; name: string }>> = {
  soccer: { key: 'soccer', name: 'Soccer' },
  basketball: { key: 'basketball', name: 'Basketball' },
  americanfootball: { key: 'american-football', name: 'American Football' },
  baseball: { key: 'baseball', name: 'Baseball' },
  icehockey: { key: 'ice-hockey', name: 'Ice Hockey' },
  tennis: { key: 'tennis', name: 'Tennis' },
};

const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  england: 'England',
  spain: 'Spain',
  germany: 'Germany',
  italy: 'Italy',
  france: 'France',
  netherlands: 'Netherlands',
  portugal: 'Portugal',
  'united-states': 'United States',
  mexico: 'Mexico',
  brazil: 'Brazil',
  australia: 'Australia',
  canada: 'Canada',
  japan: 'Japan',
  'south-korea': 'South Korea',
  sweden: 'Sweden',
  finland: 'Finland',
};

/**
 * The league a sport key stands for. An unknown key keeps the answer's `sport_title` as its name
 * and the sport of its group when we know the group (else the group itself, as its key and name),
 * so that an alias can map it without losing what the answer said.
 */
export function leagueOf(sportKey: string, sportTitle: string | undefined): SourceLeague {
  const known = THE_ODDS_API_LEAGUES[sportKey];
  if (known !== undefined) {
    const sport = Object.values(THE_ODDS_API_SPORTS).find((s) => s.key === known.sport) ?? { key: known.sport, name: known.sport };
    const countryName = known.country === undefined ? undefined : COUNTRY_NAMES[known.country];
    return {
      sourceKey: sportKey,
      key: known.league,
      name: known.name,
      sport,
      ...(known.country !== undefined && countryName !== undefined ? { country: { key: known.country, name: countryName } } : {}),
    };
  }
  const group = sportKey.split('_')[0] ?? sportKey;
  return { sourceKey: sportKey, name: sportTitle ?? sportKey, sport: THE_ODDS_API_SPORTS[group] ?? { key: group, name: group } };
}
