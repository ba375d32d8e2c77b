import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type ErrorBody, forSuite, harness } from '../helpers/harness.js';
import { lastOutboxId, outboxAfter } from './outbox.js';

/**
 * event.updated is written by the import's own transaction (decision 0312): one row per stored
 * event whose status, start or score the import changed, none for a new event or for values sent
 * again, and none when the import rolls back.
 */

const START = Date.parse('2031-05-01T18:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

const references = {
  sports: [{ id: 1, key: 'soccer', name: 'Soccer' }],
  leagues: [{ id: 10, key: 'epl', name: 'Premier League', sport_id: 1 }],
  teams: [
    { id: 100, key: 'arsenal', name: 'Arsenal', league_id: 10 },
    { id: 101, key: 'chelsea', name: 'Chelsea', league_id: 10 },
  ],
};
const event = (id: number, fields: Record<string, unknown> = {}) => ({ id, league_id: 10, start_time: iso(START), home_team_id: 100, away_team_id: 101, ...fields });

describe.each(DIALECTS)('the outbox of event changes (%s)', (dialect) => {
  const h = forSuite(async () => {
    const t = await harness({ dialect });
    // What the transactions write is read here: the former, which takes the rows (and deletes them) after each import, is stopped.
    await t.ctx.webhookFormer.stop();
    return t;
  });
  const importing = async (dataset: Record<string, unknown[]>) => {
    const res = await h.admin.post('/admin/v1/import', dataset);
    expect(res.statusCode, res.body).toBe(200);
  };

  it('a new event is told nothing, and the same values sent again nothing', async () => {
    await importing({ ...references, events: [event(1), event(2), event(3, { status: 'live', home_score: 0, away_score: 0 })] });
    expect(await outboxAfter(h)).toEqual([]);
    await importing({ events: [event(1), event(2), event(3, { status: 'live', home_score: 0, away_score: 0 })] });
    expect(await outboxAfter(h)).toEqual([]);
  });

  it('writes one row per changed event, saying what changed, with the event as it stands now', async () => {
    const from = await lastOutboxId(h);
    h.clock.set(START - 60_000);
    const moved = iso(START + 86_400_000);
    await importing({ events: [event(1, { status: 'live', home_score: 1, away_score: 0 }), event(2, { start_time: moved }), event(3, { status: 'live', home_score: 0, away_score: 0 })] });
    const rows = await outboxAfter(h, from);
    expect(rows.map(({ id: _id, ...row }) => row)).toEqual([
      {
        type: 'event.updated',
        data: {
          event: { id: 1, sport_id: 1, league_id: 10, status: 'live', start_time: iso(START), home_team_id: 100, away_team_id: 101, home_score: 1, away_score: 0 },
          changed: ['status', 'score'],
        },
        sport_id: 1,
        league_id: 10,
        event_id: 1,
        created_at: START - 60_000,
      },
      {
        type: 'event.updated',
        data: {
          event: { id: 2, sport_id: 1, league_id: 10, status: 'scheduled', start_time: moved, home_team_id: 100, away_team_id: 101, home_score: null, away_score: null },
          changed: ['start_time'],
        },
        sport_id: 1,
        league_id: 10,
        event_id: 2,
        created_at: START - 60_000,
      },
    ]);
  });

  it('an event that ends is told as its final status; one score side moving is a score change', async () => {
    const from = await lastOutboxId(h);
    await importing({ events: [event(1, { status: 'final', home_score: 1, away_score: 0 }), event(3, { status: 'live', home_score: 0, away_score: 1 })] });
    const rows = await outboxAfter(h, from);
    expect(rows.map((r) => [r.event_id, r.data.changed, (r.data.event as { status: string }).status])).toEqual([
      [1, ['status'], 'final'],
      [3, ['score'], 'live'],
    ]);
  });

  it('an event without its score is imported as having none: that is a change too', async () => {
    const from = await lastOutboxId(h);
    await importing({ events: [event(3, { status: 'live' })] });
    expect((await outboxAfter(h, from)).map((r) => [r.event_id, r.data.changed])).toEqual([[3, ['score']]]);
  });

  it('a price update, or odds alone, writes no outbox row', async () => {
    const from = await lastOutboxId(h);
    await importing({
      operators: [{ id: 1, key: 'book', name: 'Book' }],
      betting_markets: [{ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team', settlement: { rule: 'moneyline' } }],
      odds: [{ id: 1, event_id: 2, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 1.9, updated_at: iso(START - 3_600_000) }],
    });
    await importing({ price_updates: [{ odds_id: 1, price_decimal: 2.0, updated_at: iso(START - 1_800_000) }] });
    expect(await outboxAfter(h, from)).toEqual([]);
  });

  it('an import that fails after writing its events rolls its outbox rows back with them', async () => {
    const from = await lastOutboxId(h);
    // The alias is checked after the records are written: its 422 rolls back the event's change.
    const res = await h.admin.post('/admin/v1/import', {
      events: [event(2, { status: 'postponed' })],
      aliases: [{ source: 'football-data', entity_type: 'team', entity_id: 999, name: 'Nobody FC' }],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<ErrorBody>().error.details?.map((d) => d.field)).toEqual(['aliases[0].entity_id']);
    expect(await outboxAfter(h, from)).toEqual([]);
    const stored = await h.database.db.selectFrom('events').select('status').where('id', '=', 2).executeTakeFirstOrThrow();
    expect(stored.status).toBe('scheduled');
  });
});
