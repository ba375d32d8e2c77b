import { describe, expect, it } from 'vitest';
import type { EventStatus } from '../../src/shared/event-status.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, reader } from '../helpers/harness.js';
import { smallDataset } from '../import/fixture.js';

/**
 * A day's board and edges cover what can still be bet (docs/data.md#the-odds-board): events `live`,
 * or `scheduled` to start after now, read at the current minute. On 9 January 2030 at 09:30:20:
 * 600 scheduled at 10:00 and 601 live (since 08:00) are on offer; 602 final, 603 cancelled, 604
 * postponed, 605 scheduled at 09:00 (past its start, not yet called live) and 606 scheduled at 09:30
 * (the current minute) are not. Each prices a moneyline at two books, long enough on both sides to
 * be an arbitrage and a value bet.
 */
const EVENTS: Array<[id: number, start: string, status: EventStatus]> = [
  [600, '10:00', 'scheduled'],
  [601, '08:00', 'live'],
  [602, '06:00', 'final'],
  [603, '12:00', 'cancelled'],
  [604, '14:00', 'postponed'],
  [605, '09:00', 'scheduled'],
  [606, '09:30', 'scheduled'],
  [607, '09:31', 'scheduled'],
];
const NOW = Date.parse('2030-01-09T09:30:20Z');
const DAY = { event_date: '2030-01-09', timezone: 'UTC' };

function dataset() {
  const d = smallDataset();
  let id = 700;
  for (const [event, start, status] of EVENTS) {
    d.events.push({ id: event, league_id: 10, start_time: `2030-01-09T${start}:00Z`, status, home_team_id: 1000, away_team_id: 1001 });
    d.odds.push(
      { id: id++, event_id: event, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 2.1 },
      { id: id++, event_id: event, operator_id: 1, betting_market_id: 1, position: 'away', price_decimal: 1.8 },
      { id: id++, event_id: event, operator_id: 2, betting_market_id: 1, position: 'home', price_decimal: 1.8 },
      { id: id++, event_id: event, operator_id: 2, betting_market_id: 1, position: 'away', price_decimal: 2.05 },
    );
  }
  return d;
}

describe.each(DIALECTS)('a day\'s board and edges: only what can still be bet (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: dataset() }));
  const boardEvents = async (body: Record<string, unknown>) =>
    [...new Set((await h.page<{ event_id: number }>('/v1/odds/board', { ...body, page_size: 100 })).results.map((i) => i.event_id))].sort();
  const edges = (body: Record<string, unknown>) => h.ok<{ value_bets: Array<{ event_id: number }>; arbitrages: Array<{ event_id: number }> }>('/v1/odds/edges', body);

  it('the day lists live events and those scheduled after the current minute, not finished, cancelled, postponed or started ones', async () => {
    h.t.clock.set(NOW);
    expect(await boardEvents(DAY)).toEqual([600, 601, 607]);
    const answer = await edges(DAY);
    expect([...new Set(answer.arbitrages.map((a) => a.event_id))].sort()).toEqual([600, 601, 607]);
    expect([...new Set(answer.value_bets.map((b) => b.event_id))].sort()).toEqual([600, 601, 607]);
  });

  it('events named in event_ids are answered whatever their state', async () => {
    h.t.clock.set(NOW);
    const all = EVENTS.map(([event]) => event);
    expect(await boardEvents({ event_ids: all })).toEqual(all);
    expect([...new Set((await edges({ event_ids: all })).arbitrages.map((a) => a.event_id))].sort()).toEqual(all);
  });

  it('as the clock moves, an event leaves the day once its minute has come; its status, not its day, keeps a live one', async () => {
    h.t.clock.set(Date.parse('2030-01-09T09:30:59Z'));
    expect(await boardEvents(DAY)).toEqual([600, 601, 607]);
    h.t.clock.set(Date.parse('2030-01-09T09:31:00Z'));
    expect(await boardEvents(DAY)).toEqual([600, 601]);
    h.t.clock.set(Date.parse('2030-01-09T09:29:59Z'));
    expect(await boardEvents(DAY)).toEqual([600, 601, 606, 607]);
    h.t.clock.set(Date.parse('2030-01-10T09:00:00Z'));
    expect(await boardEvents(DAY)).toEqual([601]);
  });
});
