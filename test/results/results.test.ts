import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { expectFigure } from '../helpers/figures.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { BASKETBALL, CANCELLED, eventsOf, HOCKEY, LIVE, MOVED, nextGame, oddsAt, POSTPONED, references, resultsDataset } from './fixture.js';

interface Grade {
  odds_id: number;
  outcome: string | null;
  reason: string | null;
  rule: string | null;
  numbers: { period: string; home: number | null; away: number | null; value: number | null; line: number | null; halves: number[] | null } | null;
  closing_price: number | null;
  closing_line: number | null;
  superseded_at: string | null;
  event_betting_market_position_id: number | null;
}
interface EventResults {
  status: string;
  periods: Array<{ event_period: { key: string }; home_score: number; away_score: number }>;
  statistics: Array<{ player_id: number; statistic: string; value: number }>;
  grades: Grade[];
}

describe.each(DIALECTS)('results and grading (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect }));
  const pro = async () => h.as({ apiKey: (await h.client({ tier: 'pro' })).apiKey });
  const byEvent = async (event_id: number, include_superseded = false) => (await pro()).ok<EventResults>('/v1/results/by-event', { event_id, include_superseded });
  const gradeOf = (results: EventResults, oddsId: number) => results.grades.find((g) => g.odds_id === oddsId);

  it('grades every row of a final game by its market\'s rule, with the numbers used', async () => {
    await h.import(resultsDataset());
    // Moved an hour before the start (the close), then again while live (not the close).
    await h.import({ odds: oddsAt(MOVED, 1.02) });
    await h.import({ odds: oddsAt(LIVE, 1.1) });
    const results = await byEvent(BASKETBALL);
    expect(results.status).toBe('final');
    expect(results.periods).toEqual([{ event_period: { id: 2, key: '1st-half', name: '1st Half' }, home_score: 55, away_score: 50 }]);
    expect(results.statistics).toContainEqual({ player_id: 5000, statistic: 'points', value: 27 });
    const outcomes = Object.fromEntries(results.grades.map((g) => [g.odds_id, g.outcome]));
    expect(outcomes).toMatchObject({
      1: 'won', 2: 'lost', // 110–104
      3: 'won', 4: 'lost', // −5.5 covered by 6
      5: 'push', 6: 'push', // a whole line met exactly
      7: 'half_lost', 8: 'half_won', // −6.25: half on −6 (push), half on −6.5 (lost)
      9: 'half_won', 10: 'half_lost', // 214 against 213.75: half on 213.5 (won), half on 214 (push)
      11: 'won', // Boston's 110 over 108.5
      12: 'won', // Tatum's 27 over 26.5
      13: 'void', // Sam Bench did not play
      14: 'won', // the first half's 105 over 104.5, not the game's total
      16: 'lost', // +0.75 with a 6-point deficit
      17: 'won', // the row names Tatum by id, whatever its position text says
      18: 'won', // the row's own period (the first half's 105) wins over the market's (the game's 214)
    });
    expect(gradeOf(results, 18)?.numbers).toMatchObject({ period: '1st-half', value: 105, line: 106.5 });
    expect(gradeOf(results, 1)).toMatchObject({ rule: 'moneyline', numbers: { period: 'event', home: 110, away: 104, value: 6, line: null, halves: null } });
    expect(gradeOf(results, 7)?.numbers).toEqual({ period: 'event', home: 110, away: 104, value: 6, line: -6.25, halves: [-6.5, -6] });
    expect(gradeOf(results, 14)?.numbers).toMatchObject({ period: '1st-half', home: 55, away: 50, value: 105 });
    // A market without a rule stays ungraded, and says so.
    expect(gradeOf(results, 15)).toMatchObject({ outcome: null, reason: 'unknown_rule', rule: null, numbers: null });
    // The close is the last price before the start: the move an hour before, not the live one.
    expect(gradeOf(results, 1)).toMatchObject({ closing_price: 1.84, closing_line: null });
    expect(gradeOf(results, 3)).toMatchObject({ closing_line: -5.5 });
  });

  it('counts overtime or not as the market\'s period says; voids a cancelled game and leaves a postponed one ungraded', async () => {
    const hockey = await byEvent(HOCKEY);
    expect(gradeOf(hockey, 20)?.outcome).toBe('won'); // moneyline on the final score, overtime included
    expect([21, 22, 23].map((id) => gradeOf(hockey, id)?.outcome)).toEqual(['lost', 'won', 'lost']); // level after regulation
    expect((await byEvent(CANCELLED)).grades.map((g) => g.outcome)).toEqual(['void', 'void']);
    expect((await byEvent(POSTPONED)).grades.map((g) => [g.outcome, g.reason])).toEqual([
      [null, 'postponed'],
      [null, 'postponed'],
    ]);
  });

  it('re-grades after a score correction and keeps both grades', async () => {
    await h.import({ events: eventsOf({ home: 104, away: 110 }) });
    const current = await byEvent(BASKETBALL);
    expect(gradeOf(current, 1)?.outcome).toBe('lost');
    const all = await byEvent(BASKETBALL, true);
    const ofRow1 = all.grades.filter((g) => g.odds_id === 1);
    expect(ofRow1.at(-2)).toMatchObject({ outcome: 'won' });
    expect(ofRow1.at(-2)?.superseded_at).not.toBeNull();
    expect(ofRow1.at(-1)).toMatchObject({ outcome: 'lost', superseded_at: null });
    // Put back for the tests below.
    await h.import({ events: eventsOf() });
  });

  it('lists graded rows by sport, market and outcome, paged', async () => {
    const caller = await pro();
    const body = { sport_key: 'basketball', start_date: '2031-03-01', end_date: '2031-03-01', betting_market_ids: [1], outcomes: ['won'] };
    const page = await caller.page<Grade>('/v1/results/graded', { ...body, page_size: 100 });
    expect(page.results.map((g) => g.odds_id)).toEqual([1, 1001]);
    const everything = await caller.page<Grade>('/v1/results/graded', { start_date: '2031-03-01', end_date: '2031-03-01', page_size: 100 });
    // Rows without an outcome (no rule, postponed) are not listed; both books' rows of the rest are (17 + 4 + 1 each).
    expect(everything.total_count).toBe(2 * 22);
    expect(everything.results.every((g) => g.outcome !== null && g.superseded_at === null)).toBe(true);
  });

  it('takes an empty outcomes list as no filter, as every list filter', async () => {
    const caller = await pro();
    const body = { start_date: '2031-03-01', end_date: '2031-03-01', page_size: 100 };
    const everything = await caller.page<Grade>('/v1/results/graded', body);
    const emptyFilter = await caller.page<Grade>('/v1/results/graded', { ...body, outcomes: [] });
    expect(emptyFilter.total_count).toBe(everything.total_count);
    expect(emptyFilter.results).toEqual(everything.results);
  });

  it('values prices against the no-vig consensus close', async () => {
    const caller = await pro();
    const results = await byEvent(BASKETBALL);
    const home = gradeOf(results, 1)?.event_betting_market_position_id ?? 0;
    const answer = await caller.ok<{ results: Array<Record<string, unknown>> }>('/v1/results/clv', {
      prices: [
        { event_betting_market_position_id: home, operator_id: 1, price: 2.0 },
        { event_betting_market_position_id: 999_999, operator_id: 1, price: 2.0 },
      ],
    });
    // Closing prices: home 1.84 and 1.89 (median 1.865), away 2.09 and 2.04 (median 2.065); multiplicative de-vig.
    const pHome = 1 / 1.865 / (1 / 1.865 + 1 / 2.065);
    expect(answer.results[0]).toMatchObject({ closing_price: 1.84, reason: null });
    expectFigure(answer.results[0]?.fair_closing_price, 1 / pHome, 'fair_closing_price');
    expectFigure(answer.results[0]?.clv_pct, (2.0 * pHome - 1) * 100, 'clv_pct');
    expect(answer.results[1]).toMatchObject({ clv_pct: null, reason: 'unknown_selection' });
  });

  it('refuses a market with an unknown rule (422), and results to a free client (403)', async () => {
    const market = { id: 99, key: 'odd', name: 'Odd', category: 'main', entity_type: 'event', settlement: { rule: 'exact_score' } };
    const refused = await h.admin.post('/admin/v1/import', { betting_markets: [market] });
    expectError(refused, 422, 'VALIDATION_ERROR');
    expect(JSON.stringify(refused.json())).toContain('betting_markets[0].settlement.rule');
    const free = h.as({ apiKey: (await h.client({ tier: 'free' })).apiKey });
    expectError(await free.post('/v1/results/by-event', { event_id: BASKETBALL }), 403, 'FORBIDDEN');
    expectError(await (await pro()).post('/v1/results/by-event', { event_id: 123_456 }), 404, 'NOT_FOUND');
    // Pro reads them, counted in the results usage group.
    const reader = await pro();
    await reader.ok('/v1/results/by-event', { event_id: BASKETBALL });
    await reader.ok('/v1/results/clv', { prices: [{ event_betting_market_position_id: 1, operator_id: 1, price: 2 }] });
    const usage = await reader.ok<{ days: Array<{ by_group: Record<string, number> }> }>('/v1/account/usage');
    expect(usage.days.at(-1)?.by_group.results).toBe(2);
    expect(references.betting_markets.length).toBe(8);
  });

  it('computes a trend the results hold the games of, warns where the import disagrees, and keeps the others as imported', async () => {
    const answer = await h.admin.post('/admin/v1/import', nextGame());
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<{ warnings: unknown[] }>().warnings).toEqual([
      expect.objectContaining({ flow_id: 1, imported: { hits: 0, total: 1 }, computed: { hits: 1, total: 1 } }),
    ]);
    const flows = await (await pro()).page<{ id: number; source: string; disagrees: boolean; hit_rate: { hits: number; total: number } }>('/v1/trends/flows-by-id', { flow_ids: [1, 2] });
    expect(flows.results.map((f) => [f.id, f.source, f.disagrees, f.hit_rate.hits, f.hit_rate.total])).toEqual([
      [1, 'computed', true, 1, 1],
      [2, 'imported', false, 1, 2],
    ]);
  });

  it('ends the history files and the league export with each row\'s outcome and closing price, and a re-grade changes their tag', async () => {
    const caller = await pro();
    const csv = await caller.get(`/v1/historical/odds/${BASKETBALL}.csv`);
    expect(csv.statusCode).toBe(200);
    const [header, ...records] = csv.body.replace('\uFEFF', '').split('\r\n');
    expect(header?.split(',').slice(-2)).toEqual(['outcome', 'closing_price']);
    // Odds row 1 (Boston's moneyline at book A): three changes, each closing with the row's grade.
    const row1 = records.filter((r) => /^\d+,1,100,/.test(r));
    expect(row1).toHaveLength(3);
    for (const record of row1) expect(record.endsWith(',"won",1.84')).toBe(true);
    const json = await caller.get(`/v1/historical/odds/${BASKETBALL}.json`);
    const change = (JSON.parse(json.body) as { changes: Array<Record<string, unknown>> }).changes.find((c) => c.odds_id === 1);
    expect(Object.keys(change ?? {}).slice(-2)).toEqual(['outcome', 'closing_price']);
    const ndjson = await caller.get('/v1/historical/odds.json?league_id=10&start_date=2031-03-01&end_date=2031-03-01');
    expect(ndjson.body.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { outcome: string | null }).some((c) => c.outcome === 'won')).toBe(true);
    const tag = String(csv.headers.etag);
    await h.import({ events: eventsOf({ home: 104, away: 110 }) });
    const regraded = await caller.get(`/v1/historical/odds/${BASKETBALL}.csv`, { 'if-none-match': tag });
    expect(regraded.statusCode).toBe(200);
    expect(regraded.body).toContain(',"lost",1.84');
    await h.import({ events: eventsOf() });
  });

  it('lists the player statistics of a sport among the references', async () => {
    const page = await (await pro()).page<{ key: string; sport_id: number }>('/v1/references/player-statistics?sport_key=basketball');
    expect(page.results.map((s) => s.key)).toEqual(['points', 'rebounds']);
  });
});
