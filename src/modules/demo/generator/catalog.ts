import type { CityPool, NicknamePool, PeoplePool } from './names.js';

/** The fixed part of the demo dataset: sports, their markets, and 30 leagues in 15 countries. */

export interface SportDef {
  key: string;
  name: string;
  /** What one contest is called in a description ("games", "matches"). */
  unit: string;
  /** Tennis: every "team" is one player. */
  individual: boolean;
  /** One roster: a player per entry (null position: none). */
  roster: readonly (string | null)[];
  /** Points of margin per unit of rating difference, and the step of spread lines. */
  margin: number;
  spreadStep: number;
  /** Mean and spread of the game total. */
  total: readonly [mean: number, sd: number];
  draws: boolean;
}

export const SPORTS: readonly SportDef[] = [
  { key: 'soccer', name: 'Soccer', unit: 'matches', individual: false, roster: ['GK', 'DF', 'DF', 'DF', 'MF', 'MF', 'MF', 'FW', 'FW', 'FW'], margin: 0.8, spreadStep: 0.5, total: [2.6, 0.4], draws: true },
  { key: 'basketball', name: 'Basketball', unit: 'games', individual: false, roster: ['PG', 'SG', 'SF', 'PF', 'C', 'PG', 'SG', 'SF', 'PF', 'C'], margin: 7, spreadStep: 0.5, total: [222, 9], draws: false },
  { key: 'american-football', name: 'American Football', unit: 'games', individual: false, roster: ['QB', 'RB', 'WR', 'WR', 'TE', 'WR', 'RB', 'LB', 'CB', 'K'], margin: 6, spreadStep: 0.5, total: [45, 4], draws: false },
  { key: 'baseball', name: 'Baseball', unit: 'games', individual: false, roster: ['P', 'P', 'C', '1B', '2B', '3B', 'SS', 'LF', 'CF', 'RF'], margin: 1.2, spreadStep: 1.5, total: [8.5, 1], draws: false },
  { key: 'ice-hockey', name: 'Ice Hockey', unit: 'games', individual: false, roster: ['C', 'LW', 'RW', 'D', 'D', 'G', 'C', 'LW', 'RW', 'D'], margin: 0.9, spreadStep: 1.5, total: [6, 0.4], draws: false },
  { key: 'tennis', name: 'Tennis', unit: 'matches', individual: true, roster: [null], margin: 3, spreadStep: 0.5, total: [22.5, 1.5], draws: false },
];

export type MarketKind = 'moneyline' | 'three-way' | 'spread' | 'total' | 'team-total' | 'player-over-under' | 'player-yes' | 'event-yes-no';

export interface MarketDef {
  key: string;
  name: string;
  category: string;
  entity_type: 'team' | 'player' | 'event';
  /** A sport key, or null for a market of every sport. */
  sport: string | null;
  kind: MarketKind;
  /** Player props: the statistic, its typical line, and who records it. */
  stat?: string;
  line?: number;
  positions?: readonly string[];
}

const prop = (sport: string, key: string, name: string, stat: string, line: number, positions?: readonly string[]): MarketDef => ({
  key, name, category: 'player-props', entity_type: 'player', sport, kind: 'player-over-under', stat, line, ...(positions ? { positions } : {}),
});
const scorer = (sport: string, key: string, name: string, stat: string, positions: readonly string[]): MarketDef => ({
  key, name, category: 'player-props', entity_type: 'player', sport, kind: 'player-yes', stat, positions,
});

export const MARKETS: readonly MarketDef[] = [
  { key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team', sport: null, kind: 'moneyline' },
  { key: 'spread', name: 'Spread', category: 'main', entity_type: 'team', sport: null, kind: 'spread' },
  { key: 'total', name: 'Total', category: 'main', entity_type: 'event', sport: null, kind: 'total' },
  { key: 'team-total', name: 'Team Total', category: 'team-props', entity_type: 'team', sport: null, kind: 'team-total' },
  { key: 'match-result', name: 'Match Result (1X2)', category: 'main', entity_type: 'team', sport: 'soccer', kind: 'three-way' },
  { key: 'both-teams-to-score', name: 'Both Teams to Score', category: 'game-props', entity_type: 'event', sport: 'soccer', kind: 'event-yes-no' },
  scorer('soccer', 'anytime-goalscorer', 'Anytime Goalscorer', 'scored', ['FW', 'MF']),
  prop('soccer', 'player-shots-on-target', 'Player Shots on Target', 'shots on target', 1.5, ['FW', 'MF']),
  prop('basketball', 'player-points', 'Player Points', 'points', 19.5),
  prop('basketball', 'player-rebounds', 'Player Rebounds', 'rebounds', 6.5),
  prop('basketball', 'player-assists', 'Player Assists', 'assists', 5.5),
  prop('basketball', 'player-threes', 'Player Three-Pointers Made', 'three-pointers', 2.5),
  prop('american-football', 'player-passing-yards', 'Player Passing Yards', 'passing yards', 245.5, ['QB']),
  prop('american-football', 'player-rushing-yards', 'Player Rushing Yards', 'rushing yards', 62.5, ['RB']),
  prop('american-football', 'player-receiving-yards', 'Player Receiving Yards', 'receiving yards', 58.5, ['WR', 'TE']),
  scorer('american-football', 'anytime-touchdown', 'Anytime Touchdown Scorer', 'scored a touchdown', ['RB', 'WR', 'TE']),
  prop('baseball', 'pitcher-strikeouts', 'Pitcher Strikeouts', 'strikeouts', 5.5, ['P']),
  prop('baseball', 'player-total-bases', 'Player Total Bases', 'total bases', 1.5, ['C', '1B', '2B', '3B', 'SS', 'LF', 'CF', 'RF']),
  scorer('baseball', 'player-home-run', 'Player to Hit a Home Run', 'homered', ['1B', '3B', 'LF', 'RF']),
  prop('ice-hockey', 'player-shots-on-goal', 'Player Shots on Goal', 'shots on goal', 2.5, ['C', 'LW', 'RW', 'D']),
  prop('ice-hockey', 'player-hockey-points', 'Player Points (Hockey)', 'points', 0.5, ['C', 'LW', 'RW']),
  scorer('ice-hockey', 'anytime-goal', 'Anytime Goal Scorer', 'scored a goal', ['C', 'LW', 'RW']),
  { key: 'total-games', name: 'Total Games', category: 'main', entity_type: 'event', sport: 'tennis', kind: 'total' },
  prop('tennis', 'player-aces', 'Player Aces', 'aces', 6.5),
  prop('tennis', 'player-double-faults', 'Player Double Faults', 'double faults', 2.5),
];

/** How a league's team names are made. */
export type Naming =
  | { style: 'city-nickname'; cities: CityPool; nicknames: NicknamePool }
  | { style: 'nickname-de-city'; cities: CityPool; nicknames: NicknamePool }
  | { style: 'prefix-city'; cities: CityPool; nicknames: NicknamePool }
  | { style: 'club'; cities: CityPool; forms: 'spain' | 'germany' | 'italy' | 'france' | 'netherlands' | 'portugal' | 'mexico' | 'brazil' | 'basketballEurope' | 'basketballSpain' | 'hockeySweden' }
  | { style: 'person' };

export interface LeagueDef {
  key: string;
  name: string;
  sport: string;
  country: { key: string; name: string } | null;
  /** Teams at scale 1 (they add up to 600). */
  teams: number;
  naming: Naming;
  people: PeoplePool;
  female?: boolean;
  /** Usual start times, in UTC hours (fractions are minutes). */
  slots: readonly number[];
}

const US = { key: 'united-states', name: 'United States' };
const country = (key: string, name: string) => ({ key, name });
const EVENING_EU = [12.5, 14, 15, 16.5, 17.5, 19, 19.75];
const EVENING_US = [23, 23.5, 0, 0.5, 1, 2, 2.5];

export const LEAGUES: readonly LeagueDef[] = [
  { key: 'premier-league', name: 'Premier League', sport: 'soccer', country: country('england', 'England'), teams: 20, naming: { style: 'city-nickname', cities: 'england', nicknames: 'soccerAnglo' }, people: 'anglo', slots: EVENING_EU },
  { key: 'championship', name: 'EFL Championship', sport: 'soccer', country: country('england', 'England'), teams: 24, naming: { style: 'city-nickname', cities: 'england', nicknames: 'soccerAnglo' }, people: 'anglo', slots: EVENING_EU },
  { key: 'la-liga', name: 'LaLiga', sport: 'soccer', country: country('spain', 'Spain'), teams: 20, naming: { style: 'club', cities: 'spain', forms: 'spain' }, people: 'latin', slots: EVENING_EU },
  { key: 'bundesliga', name: 'Bundesliga', sport: 'soccer', country: country('germany', 'Germany'), teams: 18, naming: { style: 'club', cities: 'germany', forms: 'germany' }, people: 'euro', slots: EVENING_EU },
  { key: 'serie-a', name: 'Serie A', sport: 'soccer', country: country('italy', 'Italy'), teams: 20, naming: { style: 'club', cities: 'italy', forms: 'italy' }, people: 'latin', slots: EVENING_EU },
  { key: 'ligue-1', name: 'Ligue 1', sport: 'soccer', country: country('france', 'France'), teams: 18, naming: { style: 'club', cities: 'france', forms: 'france' }, people: 'euro', slots: EVENING_EU },
  { key: 'eredivisie', name: 'Eredivisie', sport: 'soccer', country: country('netherlands', 'Netherlands'), teams: 18, naming: { style: 'club', cities: 'netherlands', forms: 'netherlands' }, people: 'euro', slots: EVENING_EU },
  { key: 'primeira-liga', name: 'Primeira Liga', sport: 'soccer', country: country('portugal', 'Portugal'), teams: 18, naming: { style: 'club', cities: 'portugal', forms: 'portugal' }, people: 'latin', slots: EVENING_EU },
  { key: 'mls', name: 'Major League Soccer', sport: 'soccer', country: US, teams: 24, naming: { style: 'city-nickname', cities: 'us', nicknames: 'soccerUs' }, people: 'anglo', slots: EVENING_US },
  { key: 'liga-mx', name: 'Liga MX', sport: 'soccer', country: country('mexico', 'Mexico'), teams: 18, naming: { style: 'club', cities: 'mexico', forms: 'mexico' }, people: 'latin', slots: EVENING_US },
  { key: 'brasileirao', name: 'Brasileirão Série A', sport: 'soccer', country: country('brazil', 'Brazil'), teams: 20, naming: { style: 'club', cities: 'brazil', forms: 'brazil' }, people: 'latin', slots: [19, 21.5, 22, 23.5, 0.5] },
  { key: 'nba', name: 'NBA', sport: 'basketball', country: US, teams: 30, naming: { style: 'city-nickname', cities: 'us', nicknames: 'basketball' }, people: 'anglo', slots: EVENING_US },
  { key: 'wnba', name: 'WNBA', sport: 'basketball', country: US, teams: 12, naming: { style: 'city-nickname', cities: 'us', nicknames: 'basketball' }, people: 'anglo', female: true, slots: EVENING_US },
  { key: 'euroleague', name: 'EuroLeague', sport: 'basketball', country: null, teams: 18, naming: { style: 'club', cities: 'europe', forms: 'basketballEurope' }, people: 'euro', slots: [17, 18, 18.5, 19, 19.75] },
  { key: 'liga-acb', name: 'Liga ACB', sport: 'basketball', country: country('spain', 'Spain'), teams: 18, naming: { style: 'club', cities: 'spain', forms: 'basketballSpain' }, people: 'latin', slots: [16, 17.5, 18.5, 19.5] },
  { key: 'nbl', name: 'National Basketball League', sport: 'basketball', country: country('australia', 'Australia'), teams: 12, naming: { style: 'city-nickname', cities: 'australia', nicknames: 'basketball' }, people: 'anglo', slots: [8, 8.5, 9, 9.5] },
  { key: 'nfl', name: 'NFL', sport: 'american-football', country: US, teams: 32, naming: { style: 'city-nickname', cities: 'us', nicknames: 'football' }, people: 'anglo', slots: [17, 20.08, 20.42, 0.33, 1.25] },
  { key: 'ncaaf', name: 'NCAA Football', sport: 'american-football', country: US, teams: 40, naming: { style: 'city-nickname', cities: 'us', nicknames: 'football' }, people: 'anglo', slots: [16, 19.5, 23.5, 0, 2.5] },
  { key: 'cfl', name: 'Canadian Football League', sport: 'american-football', country: country('canada', 'Canada'), teams: 9, naming: { style: 'city-nickname', cities: 'canada', nicknames: 'football' }, people: 'anglo', slots: [23, 23.5, 1.75] },
  { key: 'mlb', name: 'MLB', sport: 'baseball', country: US, teams: 30, naming: { style: 'city-nickname', cities: 'us', nicknames: 'baseball' }, people: 'latin', slots: [17.1, 20.1, 23.1, 23.7, 0.1, 2.2] },
  { key: 'npb', name: 'Nippon Professional Baseball', sport: 'baseball', country: country('japan', 'Japan'), teams: 12, naming: { style: 'city-nickname', cities: 'japan', nicknames: 'baseball' }, people: 'asia', slots: [4, 5, 9, 9.5] },
  { key: 'kbo', name: 'KBO League', sport: 'baseball', country: country('south-korea', 'South Korea'), teams: 10, naming: { style: 'city-nickname', cities: 'korea', nicknames: 'baseball' }, people: 'asia', slots: [5, 9.5] },
  { key: 'lmb', name: 'Liga Mexicana de Béisbol', sport: 'baseball', country: country('mexico', 'Mexico'), teams: 18, naming: { style: 'nickname-de-city', cities: 'mexico', nicknames: 'baseballMexico' }, people: 'latin', slots: [0.5, 1, 2, 3] },
  { key: 'nhl', name: 'NHL', sport: 'ice-hockey', country: US, teams: 32, naming: { style: 'city-nickname', cities: 'us', nicknames: 'hockey' }, people: 'anglo', slots: [23, 23.5, 0, 1, 2, 2.5] },
  { key: 'khl', name: 'Kontinental Hockey League', sport: 'ice-hockey', country: country('russia', 'Russia'), teams: 22, naming: { style: 'prefix-city', cities: 'russia', nicknames: 'hockeyRussia' }, people: 'euro', slots: [14, 16.5, 16.75] },
  { key: 'shl', name: 'Swedish Hockey League', sport: 'ice-hockey', country: country('sweden', 'Sweden'), teams: 14, naming: { style: 'club', cities: 'sweden', forms: 'hockeySweden' }, people: 'euro', slots: [18, 18.25] },
  { key: 'liiga', name: 'Liiga', sport: 'ice-hockey', country: country('finland', 'Finland'), teams: 15, naming: { style: 'prefix-city', cities: 'finland', nicknames: 'hockeyFinland' }, people: 'euro', slots: [15.5, 16.5] },
  { key: 'atp', name: 'ATP Tour', sport: 'tennis', country: null, teams: 24, naming: { style: 'person' }, people: 'euro', slots: [9, 10.5, 12, 13.5, 15, 17, 19] },
  { key: 'wta', name: 'WTA Tour', sport: 'tennis', country: null, teams: 24, naming: { style: 'person' }, people: 'euro', female: true, slots: [9, 10, 11.5, 13, 15.5, 18] },
  { key: 'atp-challenger', name: 'ATP Challenger Tour', sport: 'tennis', country: null, teams: 10, naming: { style: 'person' }, people: 'latin', slots: [9, 11, 13, 15] },
];
