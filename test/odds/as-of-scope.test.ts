import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/platform/clock.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';

const at = (time: string) => Date.parse(`2030-01-04T${time}:00.000Z`);
const iso = (time: string) => new Date(at(time)).toISOString();

const event = (id: number, start: string, extra: Record<string, unknown> = {}) => ({ id, league_id: 10, start_time: iso(start), home_team_id: 1001, away_team_id: 1000, status: 'scheduled', ...extra });

/**
 * A day's board as of an instant is what could still be bet then: event 500 starts at 13:00; 501
 * started at 10:00 and became final at 11:30 (its ended_at); 502, due at 14:00, is now cancelled.
 */
describe.each(DIALECTS)('a day\'s board as of an instant (%s)', (dialect) => {
  const h = forSuite(async () => {
    const t = await harness({ dialect, clock: manualClock(at('09:00')) });
    await t.import({
      sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
      leagues: [{ id: 10, key: 'nba', name: 'NBA', sport_id: 1 }],
      teams: [
        { id: 1000, key: 'celtics', name: 'Boston Celtics', league_id: 10 },
        { id: 1001, key: 'knicks', name: 'New York Knicks', league_id: 10 },
      ],
      operators: [{ id: 1, key: 'book1', name: 'Book 1' }],
      betting_markets: [{ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team' }],
      events: [event(500, '13:00'), event(501, '10:00'), event(502, '14:00')],
      odds: [500, 501, 502].map((id) => ({ id, event_id: id, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 1.9, updated_at: iso('09:00') })),
    });
    t.clock.set(at('11:30'));
    await t.import({ events: [event(501, '10:00', { status: 'final', home_score: 100, away_score: 90 })] });
    t.clock.set(at('11:40'));
    await t.import({ events: [event(502, '14:00', { status: 'cancelled' })] });
    t.clock.set(at('12:00'));
    return t;
  });
  const events = async (body: Record<string, unknown>) => {
    const caller = h.as({ apiKey: (await h.client()).apiKey });
    const page = await caller.page<{ event_id: number }>('/v1/odds/board', { timezone: 'UTC', ...body });
    return [...new Set(page.results.map((item) => item.event_id))].sort();
  };

  it('as of 11:00, the game under way then is on it; as of 11:45, once it ended, not; a game now cancelled never is', async () => {
    expect(await events({ event_date: '2030-01-04', as_of: iso('11:00') })).toEqual([500, 501]);
    expect(await events({ event_date: '2030-01-04', as_of: iso('11:45') })).toEqual([500]);
    expect(await events({ event_date: '2030-01-04' })).toEqual([500]);
  });

  it('without event_date, the day is the one as_of falls on', async () => {
    expect(await events({ as_of: iso('11:00') })).toEqual([500, 501]);
  });

  it('the final game ended when the import first stored it final', async () => {
    const row = await h.database.db.selectFrom('events').select('ended_at').where('id', '=', 501).executeTakeFirstOrThrow();
    expect(Number(row.ended_at)).toBe(at('11:30'));
  });
});
