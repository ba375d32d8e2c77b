import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { WEBHOOKS_ODDS_CURSOR } from '../../src/modules/webhooks/index.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { quietLog } from '../helpers/quiet-log.js';
import { historyDataset, odds } from '../history/fixture.js';
import { addEndpoint, addOutboxEntry, carriedChanges, cursorOf, deliveries, historyAfter, newestChange } from './former-fixture.js';

const BATCH_MAX = 3;

/**
 * The webhooks' former (decision 0308): the changes imports make durable become deliveries, after
 * the commit, once per endpoint, with gapless sequences, whichever node forms them.
 */
describe.each(DIALECTS)('webhook deliveries formed from what changed (%s)', (dialect) => {
  const t = forSuite(async () => {
    const h = await harness({ dialect, env: { WEBHOOK_BATCH_MAX: String(BATCH_MAX) } });
    const db = h.database.db;
    await addEndpoint(db, 'ep_all', ['odds.changed', 'board.changed', 'event.updated']);
    await addEndpoint(db, 'ep_event200', ['odds.changed'], { filters: { event_ids: [200] } });
    await addEndpoint(db, 'ep_op2', ['odds.changed'], { filters: { operator_ids: [2] } });
    await addEndpoint(db, 'ep_league11', ['odds.changed', 'event.updated'], { filters: { league_ids: [11] } });
    await addEndpoint(db, 'ep_market2_sport1', ['odds.changed'], { filters: { betting_market_ids: [2], sport_ids: [1] } });
    await addEndpoint(db, 'ep_sport9', ['odds.changed', 'board.changed'], { filters: { sport_ids: [9] } });
    await addEndpoint(db, 'ep_disabled', ['odds.changed', 'board.changed', 'event.updated'], { enabled: false });
    await addEndpoint(db, 'ep_gone', ['odds.changed'], { enabled: false, disabledReason: 'gone' });
    // Disabled after every retry of a delivery failed: its deliveries queue, so enabling it resumes with nothing lost.
    await addEndpoint(db, 'ep_exhausted', ['odds.changed'], { enabled: false, disabledReason: 'retries_exhausted' });
    await addEndpoint(db, 'ep_deleted', ['odds.changed'], { deleted: true });
    await addEndpoint(db, 'ep_board', ['board.changed']);
    return h;
  });
  const db = () => t.database.db;
  let price = 1.5;
  const move = () => {
    price = Math.round((price + 0.05) * 100) / 100;
    return odds(5, 200, 1, 1, 'home', price);
  };
  const expectGapless = async (endpointId: string) => {
    const sequences = (await deliveries(db(), endpointId)).map((d) => d.sequence);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    const row = await db().selectFrom('webhook_endpoints').select('last_sequence').where('id', '=', endpointId).executeTakeFirstOrThrow();
    expect(Number(row.last_sequence)).toBe(sequences.length);
  };

  it('an import through the import route makes each endpoint the deliveries its filters let through, in batches of at most WEBHOOK_BATCH_MAX, numbered 1, 2, 3', async () => {
    await t.import(historyDataset(t.clock.now()));
    await t.ctx.webhookFormer.run();
    const changes = await historyAfter(db(), 0);
    expect(changes).toHaveLength(7);
    const ids = (keep: (c: (typeof changes)[number]) => boolean) => changes.filter(keep).map((c) => c.id);

    expect(await carriedChanges(db(), 'ep_all')).toEqual(ids(() => true));
    expect(await carriedChanges(db(), 'ep_event200')).toEqual(ids((c) => c.event_id === 200));
    expect(await carriedChanges(db(), 'ep_op2')).toEqual(ids((c) => c.operator_id === 2));
    expect(await carriedChanges(db(), 'ep_league11')).toEqual(ids((c) => c.event_id === 300));
    expect(await carriedChanges(db(), 'ep_market2_sport1')).toEqual(ids((c) => c.betting_market_id === 2));
    expect(await carriedChanges(db(), 'ep_exhausted')).toEqual(ids(() => true));
    for (const none of ['ep_sport9', 'ep_disabled', 'ep_gone', 'ep_deleted', 'ep_board']) expect(await carriedChanges(db(), none)).toEqual([]);

    const all = (await deliveries(db(), 'ep_all')).filter((d) => d.type === 'odds.changed');
    expect(all.map((d) => d.data.changes?.length)).toEqual([3, 3, 1]);
    for (const d of all) {
      expect(d).toMatchObject({ type: 'odds.changed', state: 'pending', attempts: 0, nextAttemptAt: t.clock.now() });
      expect(d.id).toMatch(/^msg_[A-Za-z0-9_-]{43}$/);
      expect(d.data.sequence).toBe(d.sequence);
      expect(Object.keys(d.data)).toEqual(['sequence', 'changes']);
    }
    await expectGapless('ep_all');
    await expectGapless('ep_op2');

    // Each change is the stream's item: as the history list gives it, with the same id.
    const { apiKey } = await t.client();
    const listed = await t.as({ apiKey }).page<{ id: number }>('/v1/odds/history-by-event', { event_id: 200 });
    const carried = all.flatMap((d) => d.data.changes ?? []).filter((c) => c.event_id === 200);
    expect(carried).toEqual(listed.results);
  });

  it('a later import continues every endpoint\'s sequence without a gap', async () => {
    const odds = async () => (await deliveries(db(), 'ep_all')).filter((d) => d.type === 'odds.changed');
    const before = await odds();
    await t.import({ odds: [move()] });
    await t.ctx.webhookFormer.run();
    const after = await odds();
    const newest = await newestChange(db());
    expect(after.slice(before.length).map((d) => d.data.changes?.map((c) => c.id))).toEqual([[newest]]);
    await expectGapless('ep_all');
    expect(await carriedChanges(db(), 'ep_event200')).toContain(newest);
    expect(await carriedChanges(db(), 'ep_op2')).not.toContain(newest);
    expect(await cursorOf(db(), WEBHOOKS_ODDS_CURSOR)).toBe(newest);
  });

  it('board changes become board.changed deliveries carrying the stream\'s board events', async () => {
    await t.ctx.boardEvents.run();
    await t.ctx.webhookFormer.run();
    const stored = await db().selectFrom('board_changes').select(['history_id', 'changes']).orderBy('history_id').execute();
    const events = stored.flatMap((row) => (JSON.parse(row.changes) as Array<{ change: unknown }>).map((c) => c.change));
    expect(events.length).toBeGreaterThan(0);
    const board = await deliveries(db(), 'ep_board');
    expect(board.every((d) => d.type === 'board.changed' && (d.data.changes?.length ?? 0) <= BATCH_MAX)).toBe(true);
    expect(board.flatMap((d) => d.data.changes)).toEqual(events);
    await expectGapless('ep_board');
    await expectGapless('ep_all');
    expect((await deliveries(db(), 'ep_all')).filter((d) => d.type === 'board.changed').flatMap((d) => d.data.changes)).toEqual(events);
    expect(await deliveries(db(), 'ep_sport9')).toEqual([]);
    expect(await deliveries(db(), 'ep_disabled')).toEqual([]);
  });

  it('outbox entries become one delivery per matching endpoint, their data with the sequence, and are deleted', async () => {
    const now = t.clock.now();
    await addOutboxEntry(db(), { type: 'event.updated', data: { event: { id: 200, status: 'live' }, changed: ['status'] }, sportId: 1, leagueId: 10, eventId: 200 }, now);
    await addOutboxEntry(db(), { type: 'event.updated', data: { event: { id: 300, status: 'final' }, changed: ['status'] }, sportId: 1, leagueId: 11, eventId: 300 }, now);
    await addOutboxEntry(db(), { type: 'result.graded', data: { grades: [] }, sportId: 1, leagueId: 10, eventId: 200 }, now);
    await t.ctx.webhookFormer.run();
    const told = (await deliveries(db(), 'ep_all')).filter((d) => d.type === 'event.updated');
    expect(told.map((d) => d.data)).toEqual([
      { sequence: told[0]?.sequence, event: { id: 200, status: 'live' }, changed: ['status'] },
      { sequence: told[1]?.sequence, event: { id: 300, status: 'final' }, changed: ['status'] },
    ]);
    expect((await deliveries(db(), 'ep_league11')).filter((d) => d.type === 'event.updated').map((d) => d.data.event)).toEqual([{ id: 300, status: 'final' }]);
    expect(await deliveries(db(), 'ep_disabled')).toEqual([]);
    await expectGapless('ep_all');
    await expectGapless('ep_league11');
    const left = await db().selectFrom('webhook_outbox').select('id').execute();
    expect(left).toEqual([]);
  });

  it('a node that commits an import and stops before forming loses nothing: a fresh node on the database forms it, once', async () => {
    await t.ctx.webhookFormer.stop();
    const before = (await deliveries(db())).length;
    await t.import({ odds: [move()] });
    expect((await deliveries(db())).length).toBe(before);

    const fresh = t.otherNode();
    await fresh.webhookFormer.run();
    const newest = await newestChange(db());
    expect(await carriedChanges(db(), 'ep_all')).toEqual((await historyAfter(db(), 0)).map((c) => c.id));
    expect((await carriedChanges(db(), 'ep_event200')).at(-1)).toBe(newest);

    await t.ctx.webhookFormer.start(quietLog);
    await t.ctx.webhookFormer.run();
    expect(await carriedChanges(db(), 'ep_all')).toEqual((await historyAfter(db(), 0)).map((c) => c.id));
    await expectGapless('ep_all');
  });

  it('two nodes forming at once give each change to each endpoint exactly once', async () => {
    await t.ctx.webhookFormer.stop();
    for (let i = 0; i < 4; i++) await t.import({ odds: [move(), { ...odds(6, 200, 2, 1, 'away', 2.6 + (i + 1) / 100) }] });
    const [a, b] = [t.otherNode(), t.otherNode()];
    await Promise.all([a.webhookFormer.run(), b.webhookFormer.run(), a.webhookFormer.run(), b.webhookFormer.run()]);
    for (const endpoint of ['ep_all', 'ep_event200', 'ep_op2']) {
      const carried = await carriedChanges(db(), endpoint);
      expect(new Set(carried).size).toBe(carried.length);
      await expectGapless(endpoint);
    }
    expect(await carriedChanges(db(), 'ep_all')).toEqual((await historyAfter(db(), 0)).map((c) => c.id));
    await t.ctx.webhookFormer.start(quietLog);
  });
});

describe.each(DIALECTS)('webhooks cost nothing without endpoints (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('with no endpoint subscribed, an import forms nothing, moves no counter, and the cursor still moves past it', async () => {
    const db = t.database.db;
    await addEndpoint(db, 'ep_events_only', ['event.updated']);
    await addEndpoint(db, 'ep_off', ['odds.changed'], { enabled: false });
    await t.import(historyDataset(t.clock.now()));
    await t.ctx.boardEvents.run();
    await t.ctx.webhookFormer.run();
    expect(await deliveries(db)).toEqual([]);
    expect(await cursorOf(db, WEBHOOKS_ODDS_CURSOR)).toBe(await newestChange(db));
    const version = await sql<{ version: number }>`select version from change_versions where name = 'webhooks'`.execute(db);
    expect(Number(version.rows[0]?.version)).toBe(0);
  });
});
