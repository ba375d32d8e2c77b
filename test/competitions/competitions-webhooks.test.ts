import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { smallDataset } from '../import/fixture.js';
import { Value } from 'typebox/value';
import { type OutboxRow, ResultGradedData, webhookOutbox } from '../../src/modules/webhooks/index.js';
import { addEndpoint, deliveries } from '../webhooks/former-fixture.js';
import { competitionsDataset, FUTURES, resultsDataset, TOURNAMENT } from './golf-fixture.js';

/**
 * The webhooks of a competition (its price changes, board changes, edges, updates, grades) go only to an
 * endpoint whose filters' `event_kinds` names competitions (docs/api.md#webhooks, decision 0328):
 * an endpoint of today is told of the matchups as before, and of nothing else.
 */
const TYPES = ['odds.changed', 'board.changed', 'edge.found', 'event.updated', 'result.graded'] as const;
const COMPETITIONS = new Set([TOURNAMENT, FUTURES]);

/** Every event a delivery's data names: its items' `event_id`, an update's `event.id`. */
function eventsOf(data: unknown): number[] {
  if (Array.isArray(data)) return data.flatMap(eventsOf);
  if (typeof data !== 'object' || data === null) return [];
  return Object.entries(data).flatMap(([key, value]) =>
    key === 'event_id' && typeof value === 'number' ? [value] : key === 'event' && typeof value === 'object' && value !== null && 'id' in value ? [Number(value.id)] : eventsOf(value),
  );
}

describe.each(DIALECTS)('competitions in the webhooks (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  const told = async (endpoint: string) => {
    const byType = new Map<string, Set<number>>();
    for (const d of await deliveries(t.database.db, endpoint)) {
      const set = byType.get(d.type) ?? new Set<number>();
      for (const id of eventsOf(d.data)) set.add(id);
      byType.set(d.type, set);
    }
    return byType;
  };
  const competitionsIn = (byType: Map<string, Set<number>>) => [...byType].filter(([, ids]) => [...ids].some((id) => COMPETITIONS.has(id))).map(([type]) => type).sort();

  it('tells a competition\'s price changes, board changes, edges, updates and grades only to an endpoint that asks for competitions', async () => {
    t.clock.set(Date.parse('2030-01-04T12:00:00Z'));
    await t.import(smallDataset());
    // The first import's changes formed now, for no endpoint: a background run of the former between two of the
    // endpoints below would otherwise tell them to some and not to the others.
    await t.ctx.boardEvents.run();
    await t.ctx.webhookFormer.run();
    await addEndpoint(t.database.db, 'ep_matchups', TYPES);
    await addEndpoint(t.database.db, 'ep_matchups_named', TYPES, { filters: { event_kinds: ['matchup'] } });
    await addEndpoint(t.database.db, 'ep_both', TYPES, { filters: { event_kinds: ['matchup', 'competition'] } });
    await t.import(competitionsDataset());
    await t.import({ price_updates: [{ odds_id: 610_001, price_decimal: 2.4 }, { odds_id: 640_001, price_decimal: 2.2 }, { odds_id: 1, price_decimal: 1.85 }] });
    t.clock.set(Date.parse('2030-01-09T00:00:00Z'));
    await t.import(resultsDataset());
    // The board changes the former reads are the board events processor's: it runs first, as it does after an import.
    await t.ctx.boardEvents.run();
    await t.ctx.webhookFormer.run();

    const both = await told('ep_both');
    // The results' import made the tournament final: its event.updated too (decision 0331).
    expect(competitionsIn(both)).toEqual(['board.changed', 'edge.found', 'event.updated', 'odds.changed', 'result.graded']);
    // The tournament's grades, as the results answer them with event_kinds, in the payload's schema (dead heats and each-way numbers included).
    const [graded] = (await deliveries(t.database.db, 'ep_both')).filter((d) => d.type === 'result.graded' && d.data.event_id === TOURNAMENT);
    expect([...Value.Errors(ResultGradedData, graded?.data)].map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
    const { apiKey } = await t.client({ tier: 'pro' });
    const results = await t.as({ apiKey }).ok<{ grades: Array<{ odds_id: number; outcome: string | null }> }>('/v1/results/by-event', { event_id: TOURNAMENT, event_kinds: ['competition'] });
    const toldGrades = (graded?.data.grades ?? []) as Array<{ odds_id: number; outcome: string | null }>;
    expect(toldGrades.map((g) => [g.odds_id, g.outcome])).toEqual(results.grades.map((g) => [g.odds_id, g.outcome]));
    expect(toldGrades.some((g) => g.outcome === 'dead_heat')).toBe(true);
    for (const endpoint of ['ep_matchups', 'ep_matchups_named']) {
      const matchups = await told(endpoint);
      expect(competitionsIn(matchups)).toEqual([]);
      // The matchups' changes are told as before: what the endpoint asking for both is told of them.
      expect(matchups.get('odds.changed')).toEqual(new Set([100]));
      const ofMatchups = [...both].map(([type, ids]) => [type, [...ids].filter((id) => !COMPETITIONS.has(id)).sort()] as const).filter(([, ids]) => ids.length > 0);
      expect([...matchups].map(([type, ids]) => [type, [...ids].sort()] as const).sort()).toEqual(ofMatchups.sort());
    }
  });

  it('tells an outbox entry of a competition only to an endpoint that asks for competitions', async () => {
    // As a producer would write it: the outbox's entries pass the same filters whoever writes them.
    const entry = (eventId: number, leagueId: number): OutboxRow => ({
      type: 'event.updated',
      data: {
        event: { id: eventId, sport_id: 2, league_id: leagueId, status: 'final', start_time: '2030-01-05T08:00:00.000Z', home_team_id: 0, away_team_id: 0, home_score: null, away_score: null },
        changed: ['status'],
      },
      sport_id: 2,
      league_id: leagueId,
      event_id: eventId,
      created_at: t.clock.now(),
    });
    // Only the deliveries made from here: the first test's import told the tournament's update already.
    const earlier = new Set((await deliveries(t.database.db)).map((d) => d.id));
    await t.database.db.transaction().execute((trx) => webhookOutbox.record(trx, [entry(FUTURES, 20), entry(200, 20)]));
    // The board changes the former reads are the board events processor's: it runs first, as it does after an import.
    await t.ctx.boardEvents.run();
    await t.ctx.webhookFormer.run();
    const updated = async (endpoint: string) =>
      (await deliveries(t.database.db, endpoint)).filter((d) => d.type === 'event.updated' && !earlier.has(d.id)).flatMap((d) => eventsOf(d.data)).sort();
    expect(await updated('ep_matchups')).toEqual([200]);
    expect(await updated('ep_both')).toEqual([200, FUTURES]);
  });

  it('refuses an event kind it does not know', async () => {
    const { apiKey } = await t.client({ tier: 'pro' });
    const made = await t.as({ apiKey }).post('/v1/webhooks', { url: 'https://hooks.example.com/in', event_types: ['result.graded'], filters: { event_kinds: ['race'] } });
    expect(made.statusCode).toBe(422);
    const ok = await t.as({ apiKey }).post<{ filters: unknown }>('/v1/webhooks', { url: 'https://hooks.example.com/in', event_types: ['result.graded'], filters: { event_kinds: ['competition'] } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().filters).toEqual({ event_kinds: ['competition'] });
  });
});
