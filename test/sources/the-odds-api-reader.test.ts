import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTheOddsApi } from '../../src/modules/sources/the-odds-api/the-odds-api.reader.js';

// A pure reader (no database): this file runs once, not per dialect.

const sample = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../examples/the-odds-api/${name}`, import.meta.url), 'utf8'));

/** An event of the odds answer as the v4 docs show it, its bookmakers given. */
function event(bookmakers: unknown[], overrides: Record<string, unknown> = {}) {
  return {
    id: 'bda33adca828c09dc3cac3a856aef176',
    sport_key: 'americanfootball_nfl',
    sport_title: 'NFL',
    commence_time: '2021-09-10T00:20:00Z',
    home_team: 'Tampa Bay Buccaneers',
    away_team: 'Dallas Cowboys',
    bookmakers,
    ...overrides,
  };
}

const fanduel = (markets: unknown[], lastUpdate = '2021-06-10T10:46:09Z') => ({ key: 'fanduel', title: 'FanDuel', last_update: lastUpdate, markets });

describe('The Odds API reader: odds', () => {
  it('reads the Premier League sample: a three-way h2h is the match result, spreads and totals with their points', () => {
    const batch = readTheOddsApi(sample('odds-soccer_epl.json'), { oddsFormat: 'decimal' });
    expect(batch.problems).toEqual([]);
    expect(batch.source).toBe('the-odds-api');
    expect(batch.rows).toHaveLength(5);
    const [first] = batch.rows;
    expect(first).toMatchObject({
      row: 1,
      eventKey: '92a521a37af4219a52300be4ac809184',
      home: 'Arsenal',
      away: 'Aston Villa',
      startTime: '2024-12-21T12:30:00.000Z',
      league: { sourceKey: 'soccer_epl', key: 'premier-league', name: 'Premier League', sport: { key: 'soccer' }, country: { key: 'england', name: 'England' } },
    });
    const pinnacle = first?.prices.filter((p) => p.book.key === 'pinnacle') ?? [];
    expect(pinnacle.map((p) => [p.market, p.position, p.line, p.price])).toEqual([
      ['match-result', 'home', undefined, 1.45],
      ['match-result', 'away', undefined, 7],
      ['match-result', 'draw', undefined, 4.75],
      ['spread', 'home', -1.25, 1.95],
      ['spread', 'away', 1.25, 1.93],
      ['total', 'over', 2.5, 1.95],
      ['total', 'under', 2.5, 1.95],
    ]);
    expect(pinnacle[0]).toMatchObject({ at: '2024-12-20T09:14:52.000Z', column: 'bookmakers[0].markets[0].outcomes[0].price', book: { sourceKey: 'pinnacle', name: 'Pinnacle' } });
  });

  it('reads a two-way h2h as the moneyline, by the team names, whatever their order', () => {
    const batch = readTheOddsApi([event([fanduel([{ key: 'h2h', outcomes: [{ name: 'Dallas Cowboys', price: 3.4 }, { name: 'Tampa Bay Buccaneers', price: 1.33 }] }])])], { oddsFormat: 'decimal' });
    expect(batch.problems).toEqual([]);
    expect(batch.rows[0]?.prices.map((p) => [p.market, p.position, p.price])).toEqual([
      ['moneyline', 'away', 3.4],
      ['moneyline', 'home', 1.33],
    ]);
    expect(batch.rows[0]?.league).toMatchObject({ key: 'nfl', sport: { key: 'american-football' }, country: { key: 'united-states' } });
  });

  it('converts American prices exactly: +150 is 2.5, -200 is 1.5, +100 and -100 are 2', () => {
    const h2h = (home: number, away: number) => [fanduel([{ key: 'h2h', outcomes: [{ name: 'Tampa Bay Buccaneers', price: home }, { name: 'Dallas Cowboys', price: away }] }])];
    const prices = (home: number, away: number) => readTheOddsApi([event(h2h(home, away))], { oddsFormat: 'american' }).rows[0]?.prices.map((p) => p.price);
    expect(prices(150, -200)).toEqual([2.5, 1.5]);
    expect(prices(100, -100)).toEqual([2, 2]);
    expect(prices(240, -303)).toEqual([3.4, 1 + 100 / 303]);
  });

  it('refuses an American price between -100 and +100, and a decimal price of 1 or less', () => {
    const h2h = [fanduel([{ key: 'h2h', outcomes: [{ name: 'Tampa Bay Buccaneers', price: 50 }, { name: 'Dallas Cowboys', price: 1 }] }])];
    expect(readTheOddsApi([event(h2h)], { oddsFormat: 'american' }).problems.map((p) => p.column)).toEqual([
      'bookmakers[0].markets[0].outcomes[0].price',
      'bookmakers[0].markets[0].outcomes[1].price',
    ]);
    expect(readTheOddsApi([event(h2h)], { oddsFormat: 'decimal' }).problems.map((p) => p.column)).toEqual(['bookmakers[0].markets[0].outcomes[1].price']);
  });

  it("stamps each price with its market's last_update, else its bookmaker's", () => {
    const markets = [
      { key: 'h2h', last_update: '2021-06-10T10:40:00Z', outcomes: [{ name: 'Tampa Bay Buccaneers', price: 1.33 }, { name: 'Dallas Cowboys', price: 3.4 }] },
      { key: 'totals', outcomes: [{ name: 'Over', price: 1.91, point: 51.5 }, { name: 'Under', price: 1.91, point: 51.5 }] },
    ];
    const prices = readTheOddsApi([event([fanduel(markets)])], { oddsFormat: 'decimal' }).rows[0]?.prices ?? [];
    expect(prices.map((p) => p.at)).toEqual(['2021-06-10T10:40:00.000Z', '2021-06-10T10:40:00.000Z', '2021-06-10T10:46:09.000Z', '2021-06-10T10:46:09.000Z']);
  });

  it('maps known bookmakers to operators of the same key, and leaves an unknown one without a key', () => {
    const h2h = { key: 'h2h', outcomes: [{ name: 'Tampa Bay Buccaneers', price: 1.33 }, { name: 'Dallas Cowboys', price: 3.4 }] };
    const books = [
      { key: 'williamhill', title: 'William Hill', last_update: '2021-06-10T10:46:09Z', markets: [h2h] },
      { key: 'newbook', title: 'New Book', last_update: '2021-06-10T10:46:09Z', markets: [h2h] },
    ];
    const [william, , newbook] = readTheOddsApi([event(books)], { oddsFormat: 'decimal' }).rows[0]?.prices ?? [];
    expect(william?.book).toEqual({ sourceKey: 'williamhill', key: 'williamhill', name: 'William Hill' });
    expect(newbook?.book).toEqual({ sourceKey: 'newbook', name: 'New Book' });
  });

  it('leaves an unknown sport key without a league key, its sport read from its group', () => {
    const batch = readTheOddsApi([event([], { sport_key: 'soccer_japan_j_league', sport_title: 'J League' })], { oddsFormat: 'decimal' });
    expect(batch.rows[0]?.league).toEqual({ sourceKey: 'soccer_japan_j_league', name: 'J League', sport: { key: 'soccer', name: 'Soccer' } });
  });

  it('skips the markets it does not price without a problem', () => {
    const batch = readTheOddsApi([event([fanduel([{ key: 'h2h_lay', outcomes: [{ name: 'x', price: 2 }] }, { key: 'btts', outcomes: [] }])])], { oddsFormat: 'decimal' });
    expect(batch.problems).toEqual([]);
    expect(batch.rows[0]?.prices).toEqual([]);
  });

  it('lists each malformed item as its row and field path, and keeps the others', () => {
    const good = event([]);
    const items = [
      good,
      { ...good, id: 7, commence_time: 'tomorrow' },
      'not an event',
      event([fanduel([{ key: 'spreads', outcomes: [{ name: 'Tampa Bay Buccaneers', price: 1.9 }, { name: 'Miami Dolphins', price: 1.9, point: 3.5 }] }])]),
      event([fanduel([{ key: 'h2h', outcomes: [{ name: 'Tampa Bay Buccaneers', price: 1.5 }, { name: 'Dallas Cowboys', price: 3 }, { name: 'Tampa Bay Buccaneers', price: 9 }] }])]),
      event([fanduel([{ key: 'totals', outcomes: [{ name: 'Over', price: 1.9, point: '51.5' }] }], 'yesterday')]),
    ];
    const batch = readTheOddsApi(items, { oddsFormat: 'decimal' });
    expect(batch.rows.map((r) => r.row)).toEqual([1]);
    expect(batch.problems.map((p) => [p.row, p.column])).toEqual([
      [2, 'id'],
      [2, 'commence_time'],
      [3, ''],
      [4, 'bookmakers[0].markets[0].outcomes[0].point'],
      [4, 'bookmakers[0].markets[0].outcomes[1].name'],
      [5, 'bookmakers[0].markets[0].outcomes'],
      [6, 'bookmakers[0].last_update'],
      // A market with no time is refused before its outcomes are read.
      [6, 'bookmakers[0].markets[0].last_update'],
    ]);
  });

  it('refuses a body that is not an array of events as a whole (row 0)', () => {
    expect(readTheOddsApi('nope', { oddsFormat: 'decimal', kind: 'odds' }).problems).toEqual([{ row: 0, column: '', message: 'must be a JSON array of events' }]);
    expect(readTheOddsApi({ message: 'Usage quota has been reached' }, { oddsFormat: 'decimal' }).problems.map((p) => p.column)).toEqual(['timestamp', 'data']);
  });
});

describe('The Odds API reader: historical snapshots', () => {
  it('reads a snapshot pair, with their timestamps, the moved price stamped with its newer time', () => {
    const first = readTheOddsApi(sample('historical-soccer_epl-2024-12-20T09-00-00Z.json'), { oddsFormat: 'decimal' });
    const second = readTheOddsApi(sample('historical-soccer_epl-2024-12-20T09-05-00Z.json'), { oddsFormat: 'decimal' });
    expect(first.problems).toEqual([]);
    expect(first.snapshot).toEqual({ timestamp: '2024-12-20T09:00:00.000Z', previous: '2024-12-20T08:55:00.000Z', next: '2024-12-20T09:05:00.000Z' });
    expect(second.snapshot?.previous).toBe(first.snapshot?.timestamp);
    expect(first.rows.map((r) => r.eventKey)).toEqual(second.rows.map((r) => r.eventKey));
    const home = (batch: typeof first) => batch.rows[0]?.prices.find((p) => p.market === 'match-result' && p.position === 'home' && p.book.key === 'pinnacle');
    expect([home(first)?.price, home(first)?.at]).toEqual([1.45, '2024-12-20T08:58:11.000Z']);
    expect([home(second)?.price, home(second)?.at]).toEqual([1.5, '2024-12-20T09:03:40.000Z']);
  });
});

describe('The Odds API reader: scores', () => {
  it('reads completed games as final, started ones as live and the others as scheduled, scores by team name', () => {
    const batch = readTheOddsApi(sample('scores-soccer_epl.json'), { oddsFormat: 'decimal' });
    expect(batch.problems).toEqual([]);
    expect(batch.rows.map((r) => [r.home, r.result])).toEqual([
      ['Arsenal', { status: 'final', home: 1, away: 1 }],
      ['Manchester City', { status: 'final', home: 1, away: 1 }],
      ['Brentford', { status: 'live', home: 0, away: 1 }],
      ['Tottenham Hotspur', { status: 'scheduled' }],
    ]);
    expect(batch.rows.every((r) => r.prices.length === 0)).toBe(true);
  });

  it('matches scores to teams by name, not by order, and refuses a score that is not a whole number', () => {
    const game = { id: 'x', sport_key: 'basketball_nba', commence_time: '2022-02-06T03:10:38Z', completed: true, home_team: 'Sacramento Kings', away_team: 'Oklahoma City Thunder', last_update: '2022-02-06T05:18:19Z' };
    const batch = readTheOddsApi(
      [
        { ...game, scores: [{ name: 'Oklahoma City Thunder', score: '103' }, { name: 'Sacramento Kings', score: '113' }] },
        { ...game, scores: [{ name: 'Sacramento Kings', score: 113 }, { name: 'Oklahoma City Thunder', score: '103' }] },
        { ...game, scores: null },
      ],
      { oddsFormat: 'decimal', kind: 'scores' },
    );
    expect(batch.rows.map((r) => r.result)).toEqual([{ status: 'final', home: 113, away: 103 }]);
    expect(batch.problems.map((p) => [p.row, p.column])).toEqual([
      [2, 'scores[0].score'],
      [3, 'scores'],
    ]);
  });
});
