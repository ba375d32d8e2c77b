import { createHash } from 'node:crypto';
import type { DatasetRecords } from '../../src/modules/import/import.schemas.js';
import type { AppContext } from '../../src/context.js';

/**
 * A small dataset touching every array: 2 sports, 2 countries, 3 leagues, 4 teams, 4 players,
 * 2 operators, 2 market categories, 3 market positions, 3 markets (naming their category by key,
 * by id, and by both), 3 event periods, 1 player statistic, 2 events, 6 odds, 5 flows (flow 5 is a parlay of flows 1
 * and 2, all of event 100; flow 1 carries its hit history and two tags), 2 regions, 2 tag dimensions and
 * 4 tag types (a parent with a child and a value).
 */
export function smallDataset(): Required<DatasetRecords> {
  return {
    sports: [
      { id: 1, key: 'basketball', name: 'Basketball' },
      { id: 2, key: 'soccer', name: 'Soccer' },
    ],
    countries: [
      { id: 1, key: 'united-states', name: 'United States' },
      { id: 2, key: 'spain', name: 'Spain' },
    ],
    leagues: [
      { id: 10, key: 'nba', name: 'NBA', sport_id: 1, country_key: 'united-states', country_name: 'United States' },
      { id: 11, key: 'euroleague', name: 'EuroLeague', sport_id: 1 },
      { id: 20, key: 'la-liga', name: 'LaLiga', sport_id: 2, country_key: 'spain', country_name: 'Spain' },
    ],
    teams: [
      { id: 1000, key: 'boston-celtics', name: 'Boston Celtics', abbreviation: 'BOS', location: 'Boston', league_id: 10 },
      { id: 1001, key: 'new-york-knicks', name: 'New York Knicks', abbreviation: 'NYK', location: 'New York', league_id: 10 },
      { id: 2000, key: 'sevilla', name: 'Sevilla', league_id: 20 },
      { id: 2001, key: 'valencia', name: 'Valencia', abbreviation: null, location: null, league_id: 20 },
    ],
    players: [
      { id: 5000, key: 'jayson-tatum', name: 'Jayson Tatum', position: 'F', team_id: 1000 },
      { id: 5001, key: 'jalen-brunson', name: 'Jalen Brunson', position: 'G', team_id: 1001 },
      { id: 5002, key: 'isco', name: 'Isco', team_id: 2000 },
      { id: 5003, key: 'pepelu', name: 'Pepelu', position: null, team_id: 2001 },
    ],
    operators: [
      { id: 1, key: 'northstar-bet', name: 'Northstar Bet' },
      { id: 2, key: 'kingsbet', name: 'Kingsbet' },
    ],
    betting_market_categories: [
      { id: 1, key: 'main', name: 'Main' },
      { id: 2, key: 'player-props', name: 'Player Props' },
    ],
    betting_market_positions: [
      { id: 1, key: 'home', name: 'Home' },
      { id: 2, key: 'away', name: 'Away' },
      { id: 3, key: 'over', name: 'Over' },
    ],
    betting_markets: [
      { id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team' },
      { id: 2, key: 'total', name: 'Total', category_id: 1, entity_type: 'event' },
      { id: 3, key: 'player-points', name: 'Player Points', category_id: 2, category: 'player-props', entity_type: 'player', sport_id: 1 },
    ],
    event_periods: [
      { id: 1, key: 'full-game', name: 'Full Game', sport_id: 1 },
      { id: 2, key: '1st-half', name: '1st Half', sport_id: 1 },
      { id: 3, key: 'full-time', name: 'Full Time', sport_id: 2 },
    ],
    player_statistics: [{ id: 1, key: 'points', name: 'Points', sport_id: 1 }],
    subnational_regions: [
      { id: 1, key: 'new-jersey', name: 'New Jersey', code: 'NJ', country_id: 1 },
      { id: 2, key: 'catalonia', name: 'Catalonia', code: 'CT', country_id: 2 },
    ],
    tag_dimensions: [
      { id: 1, key: 'situation', name: 'Situation' },
      { id: 2, key: 'bet', name: 'Bet' },
    ],
    tag_types: [
      { id: 10, key: 'venue', name: 'Venue', dimension_id: 1 },
      { id: 11, key: 'home', name: 'Home', dimension_id: 1, parent_id: 10 },
      { id: 12, key: 'last-10', name: 'Last 10 Games', dimension_id: 1, parent_id: 11, is_value: true, flow_types: ['fact'] },
      { id: 20, key: 'over', name: 'Over', dimension_id: 2, parent_id: null, terminal: true },
    ],
    events: [
      { id: 100, league_id: 10, start_time: '2030-01-05T00:30:00Z', home_team_id: 1000, away_team_id: 1001 },
      { id: 200, league_id: 20, start_time: '2030-01-05T20:00:00+01:00', status: 'postponed', home_team_id: 2000, away_team_id: 2001 },
    ],
    odds: [
      { id: 1, event_id: 100, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 1.8, updated_at: '2029-12-31T10:00:00Z' },
      { id: 2, event_id: 100, operator_id: 1, betting_market_id: 1, position: 'away', price_decimal: 2.05 },
      { id: 3, event_id: 100, operator_id: 2, betting_market_id: 2, position: 'over', line: 221.5, price_decimal: 1.91, status: 'suspended' },
      { id: 4, event_id: 100, operator_id: 2, betting_market_id: 2, position: 'under', line: 221.5, price_decimal: 1.91 },
      { id: 5, event_id: 200, operator_id: 1, betting_market_id: 1, position: 'draw', line: null, price_decimal: 3.4 },
      { id: 6, event_id: 200, operator_id: 2, betting_market_id: 1, position: 'home', price_decimal: 2.5 },
    ],
    flows: [
      {
        id: 1, flow_type: 'fact', event_id: 100, focus_entity_type: 'team', focus_entity_id: 1000, betting_market_id: 1,
        description: 'Boston Celtics have won 8 of their last 10 home games', hits: 8, total: 10, likelihood: 'likely', price_decimal: 1.8,
        hit_history: HIT_HISTORY,
        tag_type_ids: [11, 20],
      },
      {
        id: 2, flow_type: 'fun', event_id: 100, focus_entity_type: 'player', focus_entity_id: 5000, betting_market_id: 3, line: 26.5,
        split: 'over', description: 'Jayson Tatum has scored over 26.5 points in 7 of his last 10 games', hits: 7, total: 10,
        likelihood: 'possible', price_decimal: 1.95,
      },
      {
        id: 3, flow_type: 'plain', event_id: 100, focus_entity_type: 'event', betting_market_id: 2, line: 221.5, split: 'under',
        description: 'The total has gone under 221.5 in 2 of the last 3 meetings', hits: 2, total: 3, likelihood: 'longshot',
      },
      {
        id: 4, flow_type: 'fact', event_id: 200, focus_entity_type: 'team', focus_entity_id: 2001,
        description: 'Valencia are unbeaten in 5 of their last 5 away games', hits: 5, total: 5, likelihood: 'likely',
      },
      {
        id: 5, flow_type: 'fact', event_id: 100, focus_entity_type: 'event', description: 'Same-game parlay: Celtics win + Tatum over 26.5 points',
        hits: 6, total: 10, likelihood: 'longshot', price_decimal: 3.51, leg_ids: [1, 2],
      },
    ],
  };
}

/** Flow 1's ten games behind its 8 of 10, out of date order (the import sorts them). */
export const HIT_HISTORY = [
  ...Array.from({ length: 9 }, (_, i) => ({ date: `2029-12-${String(10 + 2 * i)}`, opponent_team_id: 1001, hit: i !== 3 })),
  { date: '2029-12-01', opponent_team_id: 1001, hit: false },
];

export const COUNTS = {
  sports: 2,
  countries: 2,
  leagues: 3,
  teams: 4,
  players: 4,
  operators: 2,
  betting_market_categories: 2,
  betting_market_positions: 3,
  betting_markets: 3,
  event_periods: 3,
  player_statistics: 1,
  subnational_regions: 2,
  tag_dimensions: 2,
  tag_types: 4,
  events: 2,
  odds: 6,
  flows: 5,
};

const TABLES = [...(Object.keys(COUNTS) as Array<keyof typeof COUNTS>), 'flow_legs', 'flow_tags'] as const;

/** Row counts of every data table and a digest of all their rows: equal snapshots, unchanged database. */
export async function snapshot(t: { ctx: AppContext }): Promise<{ counts: Record<string, number>; digest: string }> {
  const counts: Record<string, number> = {};
  const hash = createHash('sha256');
  for (const table of TABLES) {
    const rows = await t.ctx.database.db.selectFrom(table).selectAll().execute();
    const sorted = rows.map((r) => JSON.stringify(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)]))).sort();
    counts[table] = rows.length;
    hash.update(`${table}:${sorted.join('\n')}\n`);
  }
  return { counts, digest: hash.digest('hex') };
}
