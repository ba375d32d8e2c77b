/**
 * A hand-built slate (docs/data.md#signals): four NBA games whose moneylines three books open at
 * 1.90 on both sides (1.80 for game 201; fair 0.5 each, no edge), then move an hour before the start:
 * - 200: book 3's home to 2.10, a value bet of +5% (2.10 × 0.5 − 1); home wins;
 * - 201: book 3's away to 2.20, +10% (no arbitrage against 1.80); home wins;
 * - 202: book 3's home to 2.06, +3%; the game is cancelled;
 * - 203: book 3's home to 2.15 (+7.5%) and book 1's away to 1.95 (−2.5%, no value bet): also an
 *   arbitrage, 1/2.15 + 1/1.95 = 0.977937 (+2.2561%); away wins.
 * The medians keep every fair price at 2.00, so each moved price's CLV is its EV; the cancelled game
 * never closed, so its signal has no CLV.
 */
export const START = Date.parse('2031-03-01T19:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
export const OPENED = iso(START - 86_400_000);
export const MOVED = iso(START - 3_600_000);

export const GAMES = [200, 201, 202, 203] as const;

/** Odds row ids: game × 10 + book × 2 + (0 home, 1 away). */
const rowId = (game: number, book: number, side: 'home' | 'away') => game * 10 + book * 2 + (side === 'home' ? 0 : 1);

export function row(game: number, book: number, side: 'home' | 'away', price: number, at: string) {
  return { id: rowId(game, book, side), event_id: game, operator_id: book, betting_market_id: 1, position: side, line: null, price_decimal: price, updated_at: at };
}

export function event(game: number, result: { status: 'scheduled' } | { status: 'final'; home: number; away: number } | { status: 'cancelled' }) {
  const base = { id: game, league_id: 10, start_time: iso(START), home_team_id: 1001, away_team_id: 1000 };
  return result.status === 'final' ? { ...base, status: 'final', home_score: result.home, away_score: result.away } : { ...base, status: result.status };
}

export function opening() {
  return {
    sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
    leagues: [{ id: 10, key: 'nba', name: 'NBA', sport_id: 1 }],
    teams: [
      { id: 1000, key: 'boston-celtics', name: 'Boston Celtics', league_id: 10 },
      { id: 1001, key: 'new-york-knicks', name: 'New York Knicks', league_id: 10 },
    ],
    operators: [
      { id: 1, key: 'northstar', name: 'Northstar Bet' },
      { id: 2, key: 'kingsbet', name: 'Kingsbet' },
      { id: 3, key: 'longshot', name: 'Longshot' },
    ],
    betting_markets: [{ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team', settlement: { rule: 'moneyline' } }],
    events: GAMES.map((game) => event(game, { status: 'scheduled' })),
    odds: GAMES.flatMap((game) => [1, 2, 3].flatMap((book) => [row(game, book, 'home', game === 201 ? 1.8 : 1.9, OPENED), row(game, book, 'away', game === 201 ? 1.8 : 1.9, OPENED)])),
  };
}

export const moves = () => ({
  odds: [row(200, 3, 'home', 2.1, MOVED), row(201, 3, 'away', 2.2, MOVED), row(202, 3, 'home', 2.06, MOVED), row(203, 3, 'home', 2.15, MOVED), row(203, 1, 'away', 1.95, MOVED)],
});

export const results = (game201: { home: number; away: number } = { home: 110, away: 100 }) => ({
  events: [
    event(200, { status: 'final', home: 105, away: 99 }),
    event(201, { status: 'final', ...game201 }),
    event(202, { status: 'cancelled' }),
    event(203, { status: 'final', home: 90, away: 101 }),
  ],
});
