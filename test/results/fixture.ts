/**
 * A small results dataset: a basketball game played out (110–104, 55–50 at half time, two players'
 * points, a third player who sat out), a hockey game won in overtime (3–2, level 2–2 after
 * regulation), a cancelled and a postponed game; markets under every rule, one market without a
 * rule; two books' prices opened a day before the start, moved an hour before it, and moved again
 * after the start (a live price, which is not the close).
 */

export const START = Date.parse('2031-03-01T19:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
export const OPENED = iso(START - 86_400_000);
export const MOVED = iso(START - 3_600_000);
export const LIVE = iso(START + 1_800_000);

type Row = Record<string, unknown>;

export const references = {
  sports: [
    { id: 1, key: 'basketball', name: 'Basketball' },
    { id: 2, key: 'ice-hockey', name: 'Ice Hockey' },
  ],
  leagues: [
    { id: 10, key: 'nba', name: 'NBA', sport_id: 1 },
    { id: 20, key: 'nhl', name: 'NHL', sport_id: 2 },
  ],
  teams: [
    { id: 1000, key: 'boston-celtics', name: 'Boston Celtics', abbreviation: 'BOS', league_id: 10 },
    { id: 1001, key: 'new-york-knicks', name: 'New York Knicks', abbreviation: 'NYK', league_id: 10 },
    { id: 2000, key: 'boston-bruins', name: 'Boston Bruins', league_id: 20 },
    { id: 2001, key: 'new-york-rangers', name: 'New York Rangers', league_id: 20 },
  ],
  players: [
    { id: 5000, key: 'jayson-tatum', name: 'Jayson Tatum', team_id: 1000 },
    { id: 5001, key: 'jalen-brunson', name: 'Jalen Brunson', team_id: 1001 },
    { id: 5002, key: 'sam-bench', name: 'Sam Bench', team_id: 1000 },
  ],
  operators: [
    { id: 1, key: 'book-a', name: 'Book A' },
    { id: 2, key: 'book-b', name: 'Book B' },
  ],
  event_periods: [
    { id: 1, key: 'full-game', name: 'Full Game', sport_id: 1 },
    { id: 2, key: '1st-half', name: '1st Half', sport_id: 1 },
    { id: 3, key: 'full-game', name: 'Full Game', sport_id: 2 },
    { id: 4, key: 'regulation', name: 'Regulation Time', sport_id: 2 },
  ],
  player_statistics: [
    { id: 1, key: 'points', name: 'Points', sport_id: 1 },
    { id: 2, key: 'rebounds', name: 'Rebounds', sport_id: 1 },
  ],
  betting_markets: [
    { id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team', settlement: { rule: 'moneyline' } },
    { id: 2, key: 'spread', name: 'Spread', category: 'main', entity_type: 'team', settlement: { rule: 'spread' } },
    { id: 3, key: 'total', name: 'Total', category: 'main', entity_type: 'event', settlement: { rule: 'total' } },
    { id: 4, key: 'team-total', name: 'Team Total', category: 'team-props', entity_type: 'team', settlement: { rule: 'team_total' } },
    { id: 5, key: 'player-points', name: 'Player Points', category: 'player-props', entity_type: 'player', sport_id: 1, settlement: { rule: 'player_stat', stat: 'points' } },
    { id: 6, key: '1st-half-total', name: '1st Half Total', category: 'main', entity_type: 'event', sport_id: 1, settlement: { rule: 'total', period: '1st-half' } },
    { id: 7, key: 'regulation-result', name: 'Regulation Result (1X2)', category: 'main', entity_type: 'team', sport_id: 2, settlement: { rule: '1x2', period: 'regulation' } },
    { id: 8, key: 'race-to-20', name: 'Race to 20 Points', category: 'game-props', entity_type: 'team', sport_id: 1 },
  ],
};

export const BASKETBALL = 100;
export const HOCKEY = 200;
export const CANCELLED = 300;
export const POSTPONED = 400;

export function eventsOf(basketball: { home: number; away: number } = { home: 110, away: 104 }): Row[] {
  const at = iso(START);
  return [
    {
      id: BASKETBALL, league_id: 10, start_time: at, status: 'final', home_team_id: 1000, away_team_id: 1001, home_score: basketball.home, away_score: basketball.away,
      period_scores: [{ event_period_id: 2, home_score: 55, away_score: 50 }],
      statistics: [
        { player_id: 5000, statistic: 'points', value: 27 },
        { player_id: 5000, statistic: 'rebounds', value: 8 },
        { player_id: 5001, statistic: 'points', value: 30 },
      ],
    },
    {
      id: HOCKEY, league_id: 20, start_time: at, status: 'final', home_team_id: 2000, away_team_id: 2001, home_score: 3, away_score: 2,
      period_scores: [{ event_period_id: 4, home_score: 2, away_score: 2 }],
    },
    { id: CANCELLED, league_id: 10, start_time: at, status: 'cancelled', home_team_id: 1001, away_team_id: 1000 },
    { id: POSTPONED, league_id: 20, start_time: at, status: 'postponed', home_team_id: 2001, away_team_id: 2000 },
  ];
}

/** Each selection: [odds id of book A (book B's is +1000), event, market, position, line, book A's price, book B's price]. */
export const SELECTIONS: ReadonlyArray<[number, number, number, string, number | null, number, number]> = [
  [1, BASKETBALL, 1, 'home', null, 1.8, 1.85],
  [2, BASKETBALL, 1, 'away', null, 2.05, 2.0],
  [3, BASKETBALL, 2, 'home', -5.5, 1.91, 1.9],
  [4, BASKETBALL, 2, 'away', 5.5, 1.91, 1.92],
  [5, BASKETBALL, 2, 'home', -6, 2.0, 2.02],
  [6, BASKETBALL, 2, 'away', 6, 1.8, 1.8],
  [7, BASKETBALL, 2, 'home', -6.25, 2.1, 2.1],
  [8, BASKETBALL, 2, 'away', 6.25, 1.75, 1.75],
  [9, BASKETBALL, 3, 'over', 213.75, 1.9, 1.9],
  [10, BASKETBALL, 3, 'under', 213.75, 1.9, 1.9],
  [11, BASKETBALL, 4, 'Boston Celtics over', 108.5, 1.9, 1.9],
  [12, BASKETBALL, 5, 'Jayson Tatum over', 26.5, 1.9, 1.9],
  [13, BASKETBALL, 5, 'Sam Bench over', 5.5, 1.9, 1.9],
  [14, BASKETBALL, 6, 'over', 104.5, 1.9, 1.9],
  [15, BASKETBALL, 8, 'home', null, 1.7, 1.7],
  [16, BASKETBALL, 2, 'away', 0.75, 3.1, 3.0],
  [17, BASKETBALL, 5, 'J. Tatum over', 26.5, 1.9, 1.9],
  [18, BASKETBALL, 3, 'under', 106.5, 1.9, 1.9],
  [20, HOCKEY, 1, 'home', null, 1.7, 1.72],
  [21, HOCKEY, 7, 'home', null, 2.3, 2.3],
  [22, HOCKEY, 7, 'draw', null, 4.2, 4.2],
  [23, HOCKEY, 7, 'away', null, 3.0, 3.0],
  [30, CANCELLED, 1, 'home', null, 1.5, 1.5],
  [40, POSTPONED, 1, 'home', null, 1.5, 1.5],
];

/** What a row says of itself beyond its position: its player (a name the position spells otherwise), its period. */
const OWN: Record<number, Row> = { 17: { player_id: 5000 }, 18: { event_period_id: 2 } };

/** Every row at its opening price (`at`), each book's price times `factor`. */
export function oddsAt(at: string, factor = 1): Row[] {
  return SELECTIONS.flatMap(([id, event, market, position, line, a, b]) =>
    [
      { id, operator_id: 1, price: a },
      { id: id + 1000, operator_id: 2, price: b },
    ].map((row) => ({
      id: row.id, event_id: event, operator_id: row.operator_id, betting_market_id: market, position, line,
      price_decimal: Math.round(row.price * factor * 100) / 100, updated_at: at, ...OWN[id],
    })),
  );
}

export const resultsDataset = (): Record<string, Row[]> => ({ ...references, events: eventsOf(), odds: oddsAt(OPENED) });

/** A game Boston hosts after the one played, and two trends told about it: Boston to win. */
export const NEXT_GAME = 500;
export function nextGame(): Record<string, Row[]> {
  const event = { id: NEXT_GAME, league_id: 10, start_time: iso(START + 4 * 86_400_000), home_team_id: 1000, away_team_id: 1001 };
  const flow = (id: number, hits: number, total: number) => ({
    id, flow_type: 'fact', event_id: NEXT_GAME, focus_entity_type: 'team', focus_entity_id: 1000, betting_market_id: 1, position: 'home',
    description: `Boston Celtics have won ${hits} of their last ${total} games`, hits, total, likelihood: 'likely',
  });
  // Flow 1 says Boston lost its last game (it won); flow 2 counts two games, and the results hold one.
  return { events: [event], flows: [flow(1, 0, 1), flow(2, 1, 2)] };
}
