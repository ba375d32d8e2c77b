import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, forSuite, harness } from '../helpers/harness.js';
import { type Receiver, startReceiver, WEBHOOK_ENV } from '../helpers/webhooks.js';
import { bodyOf, createEndpoint, deliver, idsOf, pastRetry, sequencesOf, verifyAt } from './end-to-end-fixture.js';

const game = (fields: Record<string, unknown> = {}) => ({ id: 100, league_id: 10, start_time: '2031-03-01T19:00:00Z', home_team_id: 1000, away_team_id: 1001, ...fields });

/** An NBA game with one book's moneyline, graded by its settlement rule once it is final. */
const dataset = {
  sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
  leagues: [{ id: 10, key: 'nba', name: 'NBA', sport_id: 1 }],
  teams: [
    { id: 1000, key: 'boston-celtics', name: 'Boston Celtics', league_id: 10 },
    { id: 1001, key: 'new-york-knicks', name: 'New York Knicks', league_id: 10 },
  ],
  operators: [
    { id: 1, key: 'book-a', name: 'Book A' },
    { id: 2, key: 'book-b', name: 'Book B' },
  ],
  betting_markets: [{ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team', settlement: { rule: 'moneyline' } }],
  events: [game()],
  odds: [
    { id: 1, event_id: 100, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 1.9 },
    { id: 2, event_id: 100, operator_id: 1, betting_market_id: 1, position: 'away', price_decimal: 1.9 },
    { id: 3, event_id: 100, operator_id: 2, betting_market_id: 1, position: 'home', price_decimal: 1.8 },
  ],
};

/** event.updated, result.graded and board.changed from an import to a real receiver; two nodes' dispatchers never make one attempt twice. */
describe.each(DIALECTS)('webhooks end to end: events, grades, the board, two nodes (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect, env: WEBHOOK_ENV }));
  let receiver: Receiver;
  let client: Caller;

  beforeAll(async () => {
    receiver = await startReceiver();
    client = t.as(await t.client({ tier: 'pro' }));
    await t.import(dataset);
    await deliver(t);
  });
  afterAll(async () => receiver.close());

  it('an import ending an event with a score: event.updated, then result.graded, both delivered and verified', async () => {
    const ep = await createEndpoint(client, `${receiver.url}/results`, ['event.updated', 'result.graded']);
    await t.import({ events: [game({ status: 'final', home_score: 110, away_score: 104 })] });
    await deliver(t);
    const got = receiver.at('results');
    for (const r of got) expect(verifyAt(ep.secret, r, t.clock.now())).toBeTruthy();
    expect(got.map((r) => [bodyOf(r).type, bodyOf(r).data.sequence])).toEqual([
      ['event.updated', 1],
      ['result.graded', 2],
    ]);
    const [updated, graded] = got.map((r) => bodyOf(r).data);
    expect(updated).toMatchObject({ event: { id: 100, status: 'final', home_score: 110, away_score: 104 }, changed: ['status', 'score'] });
    const grades = (graded?.grades ?? []) as Array<{ odds_id: number; outcome: string }>;
    expect(grades.map((g) => [g.odds_id, g.outcome]).sort()).toEqual([
      [1, 'won'],
      [2, 'lost'],
      [3, 'won'],
    ]);
  });

  it('a price that moves the board: board.changed carries the board events the board stored', async () => {
    const ep = await createEndpoint(client, `${receiver.url}/board`, ['board.changed']);
    const before = await t.database.db.selectFrom('board_changes').select((eb) => eb.fn.max<number | null>('history_id').as('id')).executeTakeFirst();
    await t.import({ odds: [{ id: 3, event_id: 100, operator_id: 2, betting_market_id: 1, position: 'home', price_decimal: 2.05 }] });
    await deliver(t);
    const stored = await t.database.db.selectFrom('board_changes').select('changes').where('history_id', '>', Number(before?.id ?? 0)).orderBy('history_id').execute();
    const events = stored.flatMap((row) => (JSON.parse(row.changes) as Array<{ change: unknown }>).map((c) => c.change));
    expect(events.length).toBeGreaterThan(0);
    const got = receiver.at('board');
    for (const r of got) expect(verifyAt(ep.secret, r, t.clock.now())).toMatchObject({ type: 'board.changed' });
    expect(sequencesOf(got)).toEqual(got.map((_, i) => i + 1));
    expect(got.flatMap((r) => bodyOf(r).data.changes as unknown[])).toEqual(events);
  });

  it('two nodes dispatching at once never make the same attempt twice: attempts at the receiver match webhook_attempts', async () => {
    const other = t.otherNode();
    const names = ['node-a', 'node-b', 'node-c'];
    const endpoints = [];
    for (const name of names) endpoints.push(await createEndpoint(client, `${receiver.url}/${name}`, ['odds.changed']));
    // Formed while the receiver is down (each head refused once), then both nodes race for the same heads.
    await receiver.down();
    for (let i = 0; i < 4; i++) {
      await t.import({ odds: [{ id: 1, event_id: 100, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 1.9 + (i + 1) / 100 }] });
      await deliver(t);
    }
    await receiver.up();
    t.clock.set(t.clock.now() + pastRetry(1));
    await Promise.all([t.ctx.webhooks.run(), other.webhooks.run(), t.ctx.webhooks.run(), other.webhooks.run()]);
    await Promise.all([t.ctx.webhooks.run(), other.webhooks.run()]);

    for (const name of names) expect(sequencesOf(receiver.at(name))).toEqual([1, 2, 3, 4]);
    const got = names.flatMap((name) => receiver.at(name));
    const attempts = await t.database.db
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .select(['delivery_id', 'status_code'])
      .where('endpoint_id', 'in', endpoints.map((e) => e.id))
      .execute();
    const answered = attempts.filter((a) => a.status_code !== null).map((a) => a.delivery_id);
    const count = (ids: string[]) => ids.reduce<Record<string, number>>((n, id) => ({ ...n, [id]: (n[id] ?? 0) + 1 }), {});
    expect(count(idsOf(got))).toEqual(count(answered));
    expect(new Set(idsOf(got)).size).toBe(12);
    // The refused first tries are attempts too, one per head, none of them made twice.
    expect(attempts).toHaveLength(12 + names.length);
  });
});
