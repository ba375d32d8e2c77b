import type { CityPool, ClubFormsPool, NicknamePool, PeoplePool } from './names.js';

/** The fixed part of the demo dataset: sports, their markets, and 30 leagues (of 17 countries, and 4 international ones), with where and when each plays. */

export interface SportDef {
  key: string;
  name: string;
  /** What one contest is called in a description ("games", "matches"). */
  unit: string;
  /** Tennis: every "team" is one player. */
  individual: boolean;
  /** One roster: a player per entry (null position: none). */
  roster: readonly (string | null)[];
  draws: boolean;
  /** How a game's score comes about, which every price of the game is derived from (outlook.ts). */
  scoring: Scoring;
  /** Handicaps hung at the expected margin, or the ±1.5 run and puck lines of baseball and ice hockey. */
  spreads: 'at-margin' | 'one-and-a-half';
  /** Rating units a home side gains from playing at home. */
  homeAdvantage: number;
  /** Games a side plays in a week, on average. */
  gamesPerWeek: number;
  /** The least time between two games of one side. */
  restHours: number;
  /** How long a game lasts, breaks and stoppages included. */
  minutes: number;
}

/**
 * `margin`: the score difference is about normal around the expected margin (points add up from
 * many scores: basketball, American football, tennis games). `goals`: each side's score is a
 * Poisson count (soccer, baseball runs, ice hockey). Both: `perRating` is the expected margin per
 * rating unit between the sides; `total` is the mean expected total and its spread between games.
 */
export type Scoring =
  | { kind: 'margin'; perRating: number; total: readonly [mean: number, sd: number]; marginSd: number; totalSd: number }
  | { kind: 'goals'; perRating: number; total: readonly [mean: number, sd: number] };

const goals = (perRating: number, total: readonly [number, number]): Scoring => ({ kind: 'goals', perRating, total });

export const SPORTS: readonly SportDef[] = [
  { key: 'soccer', name: 'Soccer', unit: 'matches', individual: false, roster: ['GK', 'DF', 'DF', 'DF', 'MF', 'MF', 'MF', 'FW', 'FW', 'FW'], draws: true, scoring: goals(0.8, [2.7, 0.3]), spreads: 'at-margin', homeAdvantage: 0.25, gamesPerWeek: 2, restHours: 48, minutes: 115 },
  { key: 'basketball', name: 'Basketball', unit: 'games', individual: false, roster: ['PG', 'SG', 'SF', 'PF', 'C', 'PG', 'SG', 'SF', 'PF', 'C'], draws: false, scoring: { kind: 'margin', perRating: 7, total: [222, 8], marginSd: 12.5, totalSd: 18 }, spreads: 'at-margin', homeAdvantage: 0.25, gamesPerWeek: 3.8, restHours: 20, minutes: 135 },
  { key: 'american-football', name: 'American Football', unit: 'games', individual: false, roster: ['QB', 'RB', 'WR', 'WR', 'TE', 'WR', 'RB', 'LB', 'CB', 'K'], draws: false, scoring: { kind: 'margin', perRating: 6, total: [45, 4], marginSd: 13.5, totalSd: 13 }, spreads: 'at-margin', homeAdvantage: 0.25, gamesPerWeek: 1.1, restHours: 90, minutes: 195 },
  { key: 'baseball', name: 'Baseball', unit: 'games', individual: false, roster: ['P', 'P', 'C', '1B', '2B', '3B', 'SS', 'LF', 'CF', 'RF'], draws: false, scoring: goals(1, [8.6, 0.8]), spreads: 'one-and-a-half', homeAdvantage: 0.25, gamesPerWeek: 6, restHours: 16, minutes: 170 },
  { key: 'ice-hockey', name: 'Ice Hockey', unit: 'games', individual: false, roster: ['C', 'LW', 'RW', 'D', 'D', 'G', 'C', 'LW', 'RW', 'D'], draws: false, scoring: goals(0.7, [6, 0.4]), spreads: 'one-and-a-half', homeAdvantage: 0.25, gamesPerWeek: 3.8, restHours: 20, minutes: 150 },
  { key: 'tennis', name: 'Tennis', unit: 'matches', individual: true, roster: [null], draws: false, scoring: { kind: 'margin', perRating: 3, total: [23, 1], marginSd: 4.5, totalSd: 3.5 }, spreads: 'at-margin', homeAdvantage: 0, gamesPerWeek: 5, restHours: 16, minutes: 110 },
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
  /** Player props: the statistic in words, its key (the player statistic graded), its typical line, and who records it. */
  stat?: string;
  statKey?: string;
  line?: number;
  positions?: readonly string[];
}

const prop = (sport: string, key: string, name: string, stat: string, statKey: string, line: number, positions?: readonly string[]): MarketDef => ({
  key, name, category: 'player-props', entity_type: 'player', sport, kind: 'player-over-under', stat, statKey, line, ...(positions ? { positions } : {}),
});
const scorer = (sport: string, key: string, name: string, stat: string, statKey: string, positions: readonly string[]): MarketDef => ({
  key, name, category: 'player-props', entity_type: 'player', sport, kind: 'player-yes', stat, statKey, positions,
});

export const MARKETS: readonly MarketDef[] = [
  { key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team', sport: null, kind: 'moneyline' },
  { key: 'spread', name: 'Spread', category: 'main', entity_type: 'team', sport: null, kind: 'spread' },
  { key: 'total', name: 'Total', category: 'main', entity_type: 'event', sport: null, kind: 'total' },
  { key: 'team-total', name: 'Team Total', category: 'team-props', entity_type: 'team', sport: null, kind: 'team-total' },
  { key: 'match-result', name: 'Match Result (1X2)', category: 'main', entity_type: 'team', sport: 'soccer', kind: 'three-way' },
  { key: 'both-teams-to-score', name: 'Both Teams to Score', category: 'game-props', entity_type: 'event', sport: 'soccer', kind: 'event-yes-no' },
  scorer('soccer', 'anytime-goalscorer', 'Anytime Goalscorer', 'scored', 'goals', ['FW', 'MF']),
  prop('soccer', 'player-shots-on-target', 'Player Shots on Target', 'shots on target', 'shots_on_target', 1.5, ['FW', 'MF']),
  prop('basketball', 'player-points', 'Player Points', 'points', 'points', 19.5),
  prop('basketball', 'player-rebounds', 'Player Rebounds', 'rebounds', 'rebounds', 6.5),
  prop('basketball', 'player-assists', 'Player Assists', 'assists', 'assists', 5.5),
  prop('basketball', 'player-threes', 'Player Three-Pointers Made', 'three-pointers', 'threes', 2.5),
  prop('american-football', 'player-passing-yards', 'Player Passing Yards', 'passing yards', 'passing_yards', 245.5, ['QB']),
  prop('american-football', 'player-rushing-yards', 'Player Rushing Yards', 'rushing yards', 'rushing_yards', 62.5, ['RB']),
  prop('american-football', 'player-receiving-yards', 'Player Receiving Yards', 'receiving yards', 'receiving_yards', 58.5, ['WR', 'TE']),
  scorer('american-football', 'anytime-touchdown', 'Anytime Touchdown Scorer', 'scored a touchdown', 'touchdowns', ['RB', 'WR', 'TE']),
  prop('baseball', 'pitcher-strikeouts', 'Pitcher Strikeouts', 'strikeouts', 'strikeouts', 5.5, ['P']),
  prop('baseball', 'player-total-bases', 'Player Total Bases', 'total bases', 'total_bases', 1.5, ['C', '1B', '2B', '3B', 'SS', 'LF', 'CF', 'RF']),
  scorer('baseball', 'player-home-run', 'Player to Hit a Home Run', 'homered', 'home_runs', ['1B', '3B', 'LF', 'RF']),
  prop('ice-hockey', 'player-shots-on-goal', 'Player Shots on Goal', 'shots on goal', 'shots_on_goal', 2.5, ['C', 'LW', 'RW', 'D']),
  prop('ice-hockey', 'player-hockey-points', 'Player Points (Hockey)', 'points', 'points', 0.5, ['C', 'LW', 'RW']),
  scorer('ice-hockey', 'anytime-goal', 'Anytime Goal Scorer', 'scored a goal', 'goals', ['C', 'LW', 'RW']),
  { key: 'total-games', name: 'Total Games', category: 'main', entity_type: 'event', sport: 'tennis', kind: 'total' },
  prop('tennis', 'player-aces', 'Player Aces', 'aces', 'aces', 6.5),
  prop('tennis', 'player-double-faults', 'Player Double Faults', 'double faults', 'double_faults', 2.5),
];

/** How a league's team names are made. */
export type Naming =
  | { style: 'city-nickname'; cities: CityPool; nicknames: NicknamePool }
  | { style: 'nickname-de-city'; cities: CityPool; nicknames: NicknamePool }
  | { style: 'prefix-city'; cities: CityPool; nicknames: NicknamePool }
  | { style: 'club'; cities: CityPool; forms: ClubFormsPool }
  | { style: 'person' };

export interface LeagueDef {
  key: string;
  name: string;
  sport: string;
  country: { key: string; name: string } | null;
  /** Listed by `is_popular=true`: the leagues most clients feature first. */
  popular?: true;
  /** Teams at scale 1 (they add up to 600). */
  teams: number;
  naming: Naming;
  people: PeoplePool;
  female?: boolean;
  /** Where the league plays: its start times are read in this IANA zone. */
  zone: string;
  /** Usual local start times, in hours (fractions are minutes). */
  slots: readonly number[];
  /** How much the league plays on each weekday, Sunday first: weights of a week's games. */
  weekdays: Week;
}

/** Sunday to Saturday. */
type Week = readonly [sun: number, mon: number, tue: number, wed: number, thu: number, fri: number, sat: number];

const US = { key: 'united-states', name: 'United States' };
const country = (key: string, name: string) => ({ key, name });
const EVERY_DAY: Week = [1, 1, 1, 1, 1, 1, 1];
/** A round at the weekend (Friday to Monday) and one in midweek: each side plays about twice a week. */
const EUROPEAN_SOCCER: Week = [1.7, 0.3, 1.5, 2.5, 1, 0.5, 2.5];
/** Most evenings; the late slots are the West Coast's games in Eastern time. */
const US_ARENA = { zone: 'America/New_York', weekdays: [1, 0.9, 1, 1, 0.8, 1, 1] as Week };
/** Mondays off. */
const ASIAN_BASEBALL: Week = [1, 0, 1, 1, 1, 1, 1];

export const LEAGUES: readonly LeagueDef[] = [
  { key: 'premier-league', popular: true, name: 'Premier League', sport: 'soccer', country: country('england', 'England'), teams: 20, naming: { style: 'city-nickname', cities: 'england', nicknames: 'soccerAnglo' }, people: 'anglo', zone: 'Europe/London', slots: [12.5, 15, 17.5, 19.75, 20], weekdays: EUROPEAN_SOCCER },
  { key: 'championship', name: 'EFL Championship', sport: 'soccer', country: country('england', 'England'), teams: 24, naming: { style: 'city-nickname', cities: 'england', nicknames: 'soccerAnglo' }, people: 'anglo', zone: 'Europe/London', slots: [12.5, 15, 19.75, 20], weekdays: [1, 0.3, 2.5, 2, 0.5, 0.7, 3] },
  { key: 'la-liga', popular: true, name: 'LaLiga', sport: 'soccer', country: country('spain', 'Spain'), teams: 20, naming: { style: 'club', cities: 'spain', forms: 'spain' }, people: 'latin', zone: 'Europe/Madrid', slots: [14, 16.25, 18.5, 21], weekdays: EUROPEAN_SOCCER },
  { key: 'bundesliga', popular: true, name: 'Bundesliga', sport: 'soccer', country: country('germany', 'Germany'), teams: 18, naming: { style: 'club', cities: 'germany', forms: 'germany' }, people: 'euro', zone: 'Europe/Berlin', slots: [15.5, 17.5, 18.5, 20.5], weekdays: EUROPEAN_SOCCER },
  { key: 'serie-a', popular: true, name: 'Serie A', sport: 'soccer', country: country('italy', 'Italy'), teams: 20, naming: { style: 'club', cities: 'italy', forms: 'italy' }, people: 'latin', zone: 'Europe/Rome', slots: [12.5, 15, 18, 20.75], weekdays: EUROPEAN_SOCCER },
  { key: 'ligue-1', popular: true, name: 'Ligue 1', sport: 'soccer', country: country('france', 'France'), teams: 18, naming: { style: 'club', cities: 'france', forms: 'france' }, people: 'euro', zone: 'Europe/Paris', slots: [13, 15, 17, 19, 21], weekdays: EUROPEAN_SOCCER },
  { key: 'eredivisie', name: 'Eredivisie', sport: 'soccer', country: country('netherlands', 'Netherlands'), teams: 18, naming: { style: 'club', cities: 'netherlands', forms: 'netherlands' }, people: 'euro', zone: 'Europe/Amsterdam', slots: [12.25, 14.5, 16.75, 18.75, 20], weekdays: EUROPEAN_SOCCER },
  { key: 'primeira-liga', name: 'Primeira Liga', sport: 'soccer', country: country('portugal', 'Portugal'), teams: 18, naming: { style: 'club', cities: 'portugal', forms: 'portugal' }, people: 'latin', zone: 'Europe/Lisbon', slots: [15.5, 18, 20.5], weekdays: EUROPEAN_SOCCER },
  { key: 'mls', name: 'Major League Soccer', sport: 'soccer', country: US, teams: 24, naming: { style: 'city-nickname', cities: 'us', nicknames: 'soccerUs' }, people: 'anglo', zone: 'America/New_York', slots: [19.5, 20.5, 22.5], weekdays: [1, 0, 0, 1.5, 0.5, 0.3, 3] },
  { key: 'liga-mx', name: 'Liga MX', sport: 'soccer', country: country('mexico', 'Mexico'), teams: 18, naming: { style: 'club', cities: 'mexico', forms: 'mexico' }, people: 'latin', zone: 'America/Mexico_City', slots: [17, 19, 21], weekdays: [1.5, 0, 1, 1, 0.5, 1.5, 2.5] },
  { key: 'brasileirao', name: 'Brasileirão Série A', sport: 'soccer', country: country('brazil', 'Brazil'), teams: 20, naming: { style: 'club', cities: 'brazil', forms: 'brazil' }, people: 'latin', zone: 'America/Sao_Paulo', slots: [16, 18.5, 19, 21.5], weekdays: [2.5, 0.3, 0.5, 2, 1.5, 0.2, 2.5] },
  { key: 'nba', popular: true, name: 'NBA', sport: 'basketball', country: US, teams: 30, naming: { style: 'city-nickname', cities: 'us', nicknames: 'basketball' }, people: 'anglo', ...US_ARENA, slots: [19, 19.5, 20, 21, 22, 22.5] },
  { key: 'wnba', name: 'WNBA', sport: 'basketball', country: US, teams: 12, naming: { style: 'city-nickname', cities: 'us', nicknames: 'basketball' }, people: 'anglo', female: true, ...US_ARENA, slots: [19, 19.5, 20, 22] },
  { key: 'euroleague', name: 'EuroLeague', sport: 'basketball', country: null, teams: 18, naming: { style: 'club', cities: 'europe', forms: 'basketballEurope' }, people: 'euro', zone: 'Europe/Berlin', slots: [18.5, 19, 20, 20.5, 21], weekdays: [0, 0, 1, 0.3, 1, 1, 0] },
  { key: 'liga-acb', name: 'Liga ACB', sport: 'basketball', country: country('spain', 'Spain'), teams: 18, naming: { style: 'club', cities: 'spain', forms: 'basketballSpain' }, people: 'latin', zone: 'Europe/Madrid', slots: [12.5, 17, 18, 19, 20.5], weekdays: [3, 0.3, 0, 0, 0, 0.3, 2] },
  { key: 'nbl', name: 'National Basketball League', sport: 'basketball', country: country('australia', 'Australia'), teams: 12, naming: { style: 'city-nickname', cities: 'australia', nicknames: 'basketball' }, people: 'anglo', zone: 'Australia/Sydney', slots: [15, 17.5, 19.5, 20], weekdays: [2, 0.5, 0, 0.5, 1, 1.5, 2] },
  { key: 'nfl', popular: true, name: 'NFL', sport: 'american-football', country: US, teams: 32, naming: { style: 'city-nickname', cities: 'us', nicknames: 'football' }, people: 'anglo', zone: 'America/New_York', slots: [13, 16.08, 16.42, 20.25, 20.33], weekdays: [6, 0.5, 0, 0, 0.5, 0, 0] },
  { key: 'ncaaf', name: 'NCAA Football', sport: 'american-football', country: US, teams: 40, naming: { style: 'city-nickname', cities: 'us', nicknames: 'football' }, people: 'anglo', zone: 'America/New_York', slots: [12, 15.5, 19, 19.5, 22.5], weekdays: [0, 0, 0.1, 0.2, 0.3, 0.6, 6] },
  { key: 'cfl', name: 'Canadian Football League', sport: 'american-football', country: country('canada', 'Canada'), teams: 9, naming: { style: 'city-nickname', cities: 'canada', nicknames: 'football' }, people: 'anglo', zone: 'America/Toronto', slots: [19, 19.5, 21], weekdays: [0.5, 0, 0, 0, 1, 1.5, 1.5] },
  { key: 'mlb', popular: true, name: 'MLB', sport: 'baseball', country: US, teams: 30, naming: { style: 'city-nickname', cities: 'us', nicknames: 'baseball' }, people: 'latin', zone: 'America/New_York', slots: [13.17, 16.17, 19.08, 19.17, 20.17, 22.17], weekdays: [1.1, 0.6, 1, 1, 0.8, 1.1, 1.1] },
  { key: 'npb', name: 'Nippon Professional Baseball', sport: 'baseball', country: country('japan', 'Japan'), teams: 12, naming: { style: 'city-nickname', cities: 'japan', nicknames: 'baseball' }, people: 'asia', zone: 'Asia/Tokyo', slots: [14, 18, 18.5], weekdays: ASIAN_BASEBALL },
  { key: 'kbo', name: 'KBO League', sport: 'baseball', country: country('south-korea', 'South Korea'), teams: 10, naming: { style: 'city-nickname', cities: 'korea', nicknames: 'baseball' }, people: 'asia', zone: 'Asia/Seoul', slots: [14, 17, 18.5], weekdays: ASIAN_BASEBALL },
  { key: 'lmb', name: 'Liga Mexicana de Béisbol', sport: 'baseball', country: country('mexico', 'Mexico'), teams: 18, naming: { style: 'nickname-de-city', cities: 'mexico', nicknames: 'baseballMexico' }, people: 'latin', zone: 'America/Mexico_City', slots: [17, 19, 19.5, 20.5], weekdays: [1, 0.3, 1, 1, 1, 1, 1] },
  { key: 'nhl', popular: true, name: 'NHL', sport: 'ice-hockey', country: US, teams: 32, naming: { style: 'city-nickname', cities: 'us', nicknames: 'hockey' }, people: 'anglo', zone: 'America/New_York', slots: [13, 19, 19.5, 20, 22], weekdays: [1, 0.6, 1.2, 0.7, 1.2, 0.6, 1.4] },
  { key: 'khl', name: 'Kontinental Hockey League', sport: 'ice-hockey', country: country('russia', 'Russia'), teams: 22, naming: { style: 'prefix-city', cities: 'russia', nicknames: 'hockeyRussia' }, people: 'euro', zone: 'Europe/Moscow', slots: [17, 19.5], weekdays: EVERY_DAY },
  { key: 'shl', name: 'Swedish Hockey League', sport: 'ice-hockey', country: country('sweden', 'Sweden'), teams: 14, naming: { style: 'club', cities: 'sweden', forms: 'hockeySweden' }, people: 'euro', zone: 'Europe/Stockholm', slots: [15.25, 19], weekdays: [0.5, 0, 1, 0, 1, 0.3, 1.5] },
  { key: 'liiga', name: 'Liiga', sport: 'ice-hockey', country: country('finland', 'Finland'), teams: 15, naming: { style: 'prefix-city', cities: 'finland', nicknames: 'hockeyFinland' }, people: 'euro', zone: 'Europe/Helsinki', slots: [17, 18.5], weekdays: [0.5, 0, 1, 0, 1, 1, 1.5] },
  // The tours travel: each plays the fortnight at one place.
  { key: 'atp', name: 'ATP Tour', sport: 'tennis', country: null, teams: 24, naming: { style: 'person' }, people: 'euro', zone: 'Europe/Madrid', slots: [11, 12.5, 14, 16, 19, 20.5], weekdays: EVERY_DAY },
  { key: 'wta', name: 'WTA Tour', sport: 'tennis', country: null, teams: 24, naming: { style: 'person' }, people: 'euro', female: true, zone: 'Europe/Rome', slots: [10.5, 12, 14, 16, 19], weekdays: EVERY_DAY },
  { key: 'atp-challenger', name: 'ATP Challenger Tour', sport: 'tennis', country: null, teams: 10, naming: { style: 'person' }, people: 'latin', zone: 'America/Sao_Paulo', slots: [10, 11.5, 13, 15, 17], weekdays: EVERY_DAY },
];
