import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { drain, openStream } from '../helpers/sse.js';
import { BASKETBALL, eventsOf, HOCKEY, oddsAt, OPENED, references } from '../results/fixture.js';

describe.each(DIALECTS)('settled events on GET /v1/stream/odds (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  let apiKey: string;
  beforeAll(async () => {
    t = await harness({ dialect, env: { STREAM_HEARTBEAT_MS: '200' } });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The games still to be played: their odds are priced, nothing is graded yet.
    const scheduled = eventsOf().map(({ status: _status, home_score: _home, away_score: _away, ...event }) => event);
    await t.import({ ...references, events: scheduled, odds: oddsAt(OPENED) });
    ({ apiKey } = await t.client());
  });
  afterAll(async () => t.close());

  const stream = (query: string) => openStream(`${url}/v1/stream/odds${query}`, { 'x-api-key': apiKey });

  it('sends one settled event per row graded, without an id, to the streams that ask for them and follow the event', async () => {
    const settled = await stream(`?event_ids=${BASKETBALL}&types=settled`);
    const oddsOnly = await stream(`?event_ids=${BASKETBALL}`);
    const answer = await t.admin.post('/admin/v1/import', { events: eventsOf() });
    expect(answer.statusCode, answer.body).toBe(200);
    const received = await drain(settled, 1500);
    expect(received.every((e) => e.event === 'settled' && e.id === undefined)).toBe(true);
    const rows = received.map((e) => JSON.parse(e.data) as { odds_id: number; event_id: number; outcome: string });
    expect(rows.every((r) => r.event_id === BASKETBALL)).toBe(true);
    // Both books' rows of the basketball game with an outcome (every rule but the market without one): 17 each.
    expect(rows).toHaveLength(2 * 17);
    expect(rows.find((r) => r.odds_id === 1)).toMatchObject({ outcome: 'won', closing_price: 1.8 });
    expect(rows.some((r) => r.event_id === HOCKEY)).toBe(false);
    expect(await drain(oddsOnly, 500)).toEqual([]);
    for (const s of [settled, oddsOnly]) s.close();
  });

  it('sends the new grade after a correction, and does not replay grades to a stream that opens later', async () => {
    const settled = await stream(`?event_ids=${BASKETBALL}&types=odds,settled`);
    await t.import({ events: eventsOf({ home: 104, away: 110 }) });
    const rows = (await drain(settled, 1500)).filter((e) => e.event === 'settled').map((e) => JSON.parse(e.data) as { odds_id: number; outcome: string });
    expect(rows.find((r) => r.odds_id === 1)?.outcome).toBe('lost');
    settled.close();
    const later = await stream(`?event_ids=${BASKETBALL}&types=settled`);
    expect(await drain(later, 800)).toEqual([]);
    later.close();
  });
});
