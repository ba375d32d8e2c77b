import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { type Caller, type ErrorBody, forSuite, harness } from '../helpers/harness.js';
import { smallDataset } from '../import/fixture.js';
import { competitionsDataset, FUTURES, MARKETS, participant, PLAYERS, resultsDataset, TOURNAMENT } from './golf-fixture.js';

interface Grade {
  odds_id: number;
  outcome: string | null;
  reason: string | null;
  rule: string | null;
  numbers: { factor?: number; tied?: number; position?: number | null; each_way?: { outcome: string; factor: number; place_price: number } | null } | null;
}

/**
 * Competitions through the real app (docs/data.md#competitions): a 64-player tournament and a futures
 * market imported beside matchups, graded with ties, dead heats, each-way terms and non-starters, listed
 * on their own, and answered by the events lists only when `event_kinds` asks.
 */
describe.each(DIALECTS)('competitions (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  let client: Caller;
  const day = { event_date: '2030-01-05' };

  it('leaves every matchup answer as it was when competitions are imported', async () => {
    t.clock.set(Date.parse('2030-01-04T12:00:00Z'));
    await importDataset(t, smallDataset());
    client = t.as(await t.client());
    const exported = async () => {
      const res = await client.get('/v1/historical/odds.csv?league_id=20&start_date=2029-08-01&end_date=2030-01-10');
      return `${res.headers.etag} ${res.body}`;
    };
    const answers = async () => [
      (await client.post('/v1/events/upcoming-events', day)).body,
      (await client.post('/v1/events/upcoming-events', { ...day, event_kinds: ['matchup'] })).body,
      (await client.post('/v1/odds/upcoming-odds-by-event', { event_id: 100 })).body,
      await exported(),
    ];
    const before = await answers();
    const upserted = await importDataset(t, competitionsDataset());
    expect(upserted).toMatchObject({ competitions: 2, competition_participants: PLAYERS + 4, odds: PLAYERS * 2 + 7 });
    expect(await answers()).toEqual(before);
    expect(before[0]).toBe(before[1]);
  });

  it('answers competitions in the events list when event_kinds includes them', async () => {
    const page = await client.page<{ id: number; kind?: string; name?: string; participants?: number }>('/v1/events/upcoming-events', { ...day, event_kinds: ['competition', 'matchup'] });
    expect(page.results.map((e) => e.id)).toEqual([100, TOURNAMENT, 200]);
    expect(page.results[1]).toMatchObject({ id: TOURNAMENT, kind: 'competition', name: 'The Demo Open', type: 'tournament', participants: PLAYERS, league_key: 'pga-tour' });
    const only = await client.page<{ id: number }>('/v1/events/upcoming-events', { ...day, event_kinds: ['competition'] });
    expect(only.results.map((e) => e.id)).toEqual([TOURNAMENT]);
  });

  it('answers a competition\'s odds, board and edges only when event_kinds includes competitions', async () => {
    const kinds = { event_kinds: ['matchup', 'competition'] };
    expect((await client.post<ErrorBody>('/v1/odds/upcoming-odds-by-event', { event_id: TOURNAMENT })).statusCode).toBe(404);
    const odds = await client.page<{ participant_id?: number; each_way?: unknown; rival_participant_ids?: number[] }>('/v1/odds/upcoming-odds-by-event', { event_id: TOURNAMENT, page_size: 100, ...kinds });
    expect(odds.total_count).toBe(PLAYERS * 2 + 6);
    expect(odds.results[0]).toMatchObject({ id: 600_001, participant_id: participant(1), each_way: { fraction: 0.2, places: 5 } });
    const last = await client.page<{ id: number }>('/v1/odds/upcoming-odds-by-event', { event_id: TOURNAMENT, page: 2, page_size: 100, ...kinds });
    expect(last.results.find((o) => o.id === 630_002)).toMatchObject({ participant_id: participant(4), rival_participant_ids: [participant(5), participant(6)] });
    for (const url of ['/v1/odds/board', '/v1/odds/edges']) {
      const matchups = (await client.post(url, { event_ids: [100, TOURNAMENT] })).body;
      expect((await client.post(url, { event_ids: [100] })).body).toBe(matchups);
      const none = url.endsWith('board') ? { total_count: 0 } : { value_bets_total: 0, arbitrages_total: 0, middles_total: 0 };
      expect((await client.post(url, { event_ids: [TOURNAMENT] })).json()).toMatchObject(none);
    }
    const board = await client.page<{ event_id: number }>('/v1/odds/board', { event_ids: [TOURNAMENT], page_size: 100, ...kinds });
    expect(board.total_count).toBeGreaterThanOrEqual(PLAYERS * 2);
    expect(new Set(board.results.map((b) => b.event_id))).toEqual(new Set([TOURNAMENT]));
  });

  it('answers a competition\'s price history, its file and its league\'s export only when asked', async () => {
    const kinds = { event_kinds: ['competition'] };
    expect((await client.post<ErrorBody>('/v1/odds/history-by-event', { event_id: TOURNAMENT })).statusCode).toBe(404);
    expect((await client.page('/v1/odds/history-by-event', { event_id: TOURNAMENT, ...kinds })).total_count).toBe(PLAYERS * 2 + 6);
    expect((await client.get<ErrorBody>(`/v1/historical/odds/${TOURNAMENT}.json`)).statusCode).toBe(404);
    const file = await client.get<{ event: { kind: string; name: string }; changes: unknown[] }>(`/v1/historical/odds/${TOURNAMENT}.json?event_kinds=matchup,competition`);
    expect(file.statusCode).toBe(200);
    expect(file.json().event).toMatchObject({ kind: 'competition', name: 'The Demo Open' });
    const range = 'league_id=20&start_date=2029-08-01&end_date=2030-01-10';
    const matchups = await client.get(`/v1/historical/odds.csv?${range}`);
    const both = await client.get(`/v1/historical/odds.csv?${range}&event_kinds=matchup,competition`);
    expect(both.headers.etag).not.toBe(matchups.headers.etag);
    expect(both.body.split('\n').length).toBe(matchups.body.split('\n').length + 1);
  });

  it('lists competitions by type, league and time, and a competition\'s participants', async () => {
    expect(await client.allIds('/v1/competitions')).toEqual([FUTURES, TOURNAMENT]);
    expect(await client.allIds('/v1/competitions?type=futures')).toEqual([FUTURES]);
    expect(await client.allIds('/v1/competitions?league_key=pga-tour')).toEqual([TOURNAMENT]);
    expect(await client.allIds('/v1/competitions?from=2030-06-01T00:00:00Z')).toEqual([]);
    expect(await client.allIds('/v1/competitions?to=2030-01-01T00:00:00Z')).toEqual([FUTURES]);
    const ids = await client.allIds(`/v1/competitions/${TOURNAMENT}/participants`, undefined, 25);
    expect(ids).toEqual(Array.from({ length: PLAYERS }, (_, i) => participant(i + 1)));
    const futures = await client.page<{ team: { key: string } | null; player: unknown; result: unknown }>(`/v1/competitions/${FUTURES}/participants`);
    expect(futures.results[0]).toMatchObject({ id: 80_001, name: 'Club 1', team: { id: 8001, key: 'club-1', name: 'Club 1' }, player: null, result: null });
    expect((await client.get<ErrorBody>('/v1/competitions/100/participants')).statusCode).toBe(404);
  });

  it('grades the tournament from its results: ties, dead heats, each-way, non-starters', async () => {
    t.clock.set(Date.parse('2030-01-09T00:00:00Z'));
    const answer = await t.admin.post<{ graded: { events: number; grades: number } }>('/admin/v1/import', resultsDataset());
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().graded.events).toBe(1);
    expect((await client.post<ErrorBody>('/v1/results/by-event', { event_id: TOURNAMENT })).statusCode).toBe(404);
    const graded = { start_date: '2030-01-01', end_date: '2030-01-08' };
    expect((await client.page('/v1/results/graded', graded)).total_count).toBe(0);
    expect((await client.page('/v1/results/graded', { ...graded, event_kinds: ['competition'], outcomes: ['dead_heat'] })).total_count).toBe(4);
    const results = await client.ok<{ grades: Grade[] }>('/v1/results/by-event', { event_id: TOURNAMENT, event_kinds: ['competition'] });
    const of = (oddsId: number) => results.grades.find((g) => g.odds_id === oddsId);
    const winner = (n: number) => of(600_000 + n);
    const top5 = (n: number) => of(610_000 + n);

    expect(winner(1)).toMatchObject({ outcome: 'won', rule: 'winner', numbers: { factor: 1, position: 1, tied: 1 } });
    // Each-way on golfer 2 (T2): the win part lost, the place part (5 places at 1/5) won at 1 + (8 − 1) / 5.
    expect(winner(2)).toMatchObject({ outcome: 'lost', numbers: { each_way: { outcome: 'won', factor: 1 } } });
    expect(winner(2)?.numbers?.each_way?.place_price).toBeCloseTo(2.4, 12);
    // Each-way on golfer 5 (T5 with two others, one place left): the place part a dead heat of a third.
    expect(winner(5)?.numbers?.each_way).toMatchObject({ outcome: 'dead_heat', factor: 1 / 3 });
    expect(winner(11)).toMatchObject({ outcome: 'lost', numbers: { each_way: null } });
    expect(winner(62)).toMatchObject({ outcome: 'void', numbers: { factor: 0 } });
    expect(winner(64)).toMatchObject({ outcome: null, reason: 'missing_result' });

    expect(top5(2)).toMatchObject({ outcome: 'won', numbers: { tied: 2 } });
    expect(top5(4)).toMatchObject({ outcome: 'won' });
    for (const n of [5, 6, 7]) expect(top5(n)).toMatchObject({ outcome: 'dead_heat', numbers: { factor: 1 / 3, tied: 3, position: 5 } });
    expect(top5(8)).toMatchObject({ outcome: 'lost' });
    expect(top5(60)).toMatchObject({ outcome: 'lost', numbers: { position: null } });
    expect(top5(61)).toMatchObject({ outcome: 'lost' });
    expect(top5(63)).toMatchObject({ outcome: 'void' });

    expect(of(620_001)).toMatchObject({ outcome: 'won', rule: 'podium' });
    expect(of(620_002)).toMatchObject({ outcome: 'lost', rule: 'podium' });
    expect(of(620_003)).toMatchObject({ outcome: 'void', rule: 'top_10' });
    // 2-way T2 against T2: a dead heat of half; 3-way 4th against two T5s: won; against a non-starter: void.
    expect(of(630_001)).toMatchObject({ outcome: 'dead_heat', rule: 'participant_matchup', numbers: { factor: 0.5, tied: 2 } });
    expect(of(630_002)).toMatchObject({ outcome: 'won' });
    expect(of(630_003)).toMatchObject({ outcome: 'void' });
  });

  it('shows the participants\' results with their ties', async () => {
    const page = await client.page<{ id: number; result: { status: string; position: number | null; tied: boolean } | null }>(`/v1/competitions/${TOURNAMENT}/participants?page_size=100`);
    const result = (n: number) => page.results.find((p) => p.id === participant(n))?.result;
    expect(result(1)).toEqual({ status: 'finished', position: 1, tied: false });
    expect(result(3)).toEqual({ status: 'finished', position: 2, tied: true });
    expect(result(6)).toEqual({ status: 'finished', position: 5, tied: true });
    expect(result(60)).toEqual({ status: 'withdrawn', position: null, tied: false });
    expect(result(62)).toEqual({ status: 'non_starter', position: null, tied: false });
    expect(result(64)).toBeNull();
  });

  it('a price update of a competition\'s row keeps its selection', async () => {
    const selection = async () =>
      Number((await t.ctx.database.db.selectFrom('odds').select('selection_id').where('id', '=', 610_010).executeTakeFirstOrThrow()).selection_id);
    const before = await selection();
    await importDataset(t, { price_updates: [{ odds_id: 610_010, price_decimal: 7.5 }] });
    expect(await selection()).toBe(before);
  });

  it('refuses what does not fit a competition', async () => {
    const refused = async (dataset: Record<string, unknown[]>) => {
      const res = await t.admin.post<ErrorBody>('/admin/v1/import', dataset);
      expect(res.statusCode, res.body).toBe(422);
      return res.json().error.details?.map((d) => d.field);
    };
    const odds = { id: 690_001, event_id: TOURNAMENT, operator_id: 1, betting_market_id: MARKETS.winner, position: 'Golfer 1', price_decimal: 5 };
    expect(await refused({ odds: [odds] })).toEqual(['odds[0].participant_id']);
    expect(await refused({ odds: [{ ...odds, participant_id: 80_001 }] })).toEqual(['odds[0].participant_id']);
    expect(await refused({ odds: [{ ...odds, event_id: 100, participant_id: participant(1) }] })).toEqual(['odds[0].participant_id', 'odds[0].betting_market_id']);
    expect(await refused({ odds: [{ ...odds, participant_id: participant(1), rival_participant_ids: [participant(2)] }] })).toEqual(['odds[0].rival_participant_ids']);
    expect(await refused({ competition_participants: [{ id: 79_999, competition_id: TOURNAMENT, team_id: 3000 }] })).toEqual(['competition_participants[0]']);
    expect(await refused({ events: [{ id: TOURNAMENT, league_id: 30, start_time: '2030-01-05T08:00:00Z', home_team_id: 1000, away_team_id: 1001 }] })).toEqual(['events[0].id']);
  });
});
