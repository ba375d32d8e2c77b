import { afterEach, describe, expect, it, vi } from 'vitest';
import { purgeOldDeliveries, WEBHOOKS_BOARD_CURSOR } from '../../src/modules/webhooks/index.js';
import { windowed } from '../../src/platform/windowed.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { historyDataset, odds } from '../history/fixture.js';
import { addEndpoint, cursorOf, deliveries } from './former-fixture.js';

const DAY_MS = 86_400_000;

describe.each(DIALECTS)('webhook deliveries and board changes kept as long as needed (%s)', (dialect) => {
  const t = forSuite(async () => {
    const h = await harness({ dialect, env: { WEBHOOK_RETENTION_DAYS: '7' } });
    await addEndpoint(h.database.db, 'ep_live', ['board.changed']);
    await addEndpoint(h.database.db, 'ep_gone', ['board.changed'], { deleted: true });
    return h;
  });
  const db = () => t.database.db;

  it('the purge deletes delivered and test deliveries past the retention with their attempts, and every delivery of a deleted endpoint; a pending one is kept', async () => {
    const now = t.clock.now();
    const old = now - 8 * DAY_MS;
    const row = (id: string, endpoint: string, state: string, createdAt: number, sequence: number | null) => ({
      id,
      endpoint_id: endpoint,
      sequence,
      type: 'board.changed',
      data: '{}',
      state,
      attempts: 1,
      next_attempt_at: state === 'pending' ? now : null,
      lease_holder: null,
      lease_expires_at: null,
      changed_at: createdAt,
      created_at: createdAt,
      delivered_at: state === 'delivered' ? createdAt : null,
    });
    await db()
      .insertInto('webhook_deliveries')
      .values([
        row('msg_old_delivered', 'ep_live', 'delivered', old, 101),
        row('msg_old_test', 'ep_live', 'test', old, null),
        row('msg_old_pending', 'ep_live', 'pending', old, 102),
        row('msg_new_delivered', 'ep_live', 'delivered', now - DAY_MS, 103),
        row('msg_gone_pending', 'ep_gone', 'pending', now, 1),
      ])
      .execute();
    const attempt = (deliveryId: string) => ({ delivery_id: deliveryId, attempted_at: now, status_code: 200, latency_ms: 5, response_excerpt: '', error: null });
    await db().insertInto('webhook_attempts').values([attempt('msg_old_delivered'), attempt('msg_old_test'), attempt('msg_new_delivered'), attempt('msg_gone_pending')]).execute();

    expect(await purgeOldDeliveries({ db: db(), clock: t.clock, retentionDays: t.config.webhookRetentionDays })).toBe(3);
    const left = (await deliveries(db())).map((d) => d.id).filter((id) => id.startsWith('msg_old') || id.startsWith('msg_new') || id.startsWith('msg_gone'));
    expect(left.sort()).toEqual(['msg_new_delivered', 'msg_old_pending']);
    const attempts = await db().selectFrom('webhook_attempts').select('delivery_id').execute();
    expect(attempts.map((a) => a.delivery_id)).toEqual(['msg_new_delivered']);
  });

  it('board changes the webhooks cursor has not passed outlive their five minutes; once formed they are purged', async () => {
    await t.import(historyDataset(t.clock.now()));
    await t.ctx.boardEvents.run();
    // The former is down: its cursor stays where it is while the board's batches age.
    await t.ctx.webhookFormer.stop();
    const waiting = await cursorOf(db(), WEBHOOKS_BOARD_CURSOR);
    await t.import({ odds: [odds(5, 200, 1, 1, 'home', 1.65)] });
    await t.ctx.boardEvents.run();
    const stored = async () => (await db().selectFrom('board_changes').select('history_id').orderBy('history_id').execute()).map((r) => Number(r.history_id));
    const unformed = (await stored()).filter((id) => id > waiting);
    expect(unformed.length).toBeGreaterThan(0);

    t.clock.advance(10 * 60_000);
    await t.import({ odds: [odds(5, 200, 1, 1, 'home', 1.7)] });
    await t.ctx.boardEvents.run();
    expect(await stored()).toEqual(expect.arrayContaining(unformed));

    await t.ctx.webhookFormer.run();
    const formed = (await deliveries(db(), 'ep_live')).filter((d) => d.type === 'board.changed');
    expect(formed.length).toBeGreaterThan(0);
    t.clock.advance(10 * 60_000);
    await t.import({ odds: [odds(5, 200, 1, 1, 'home', 1.75)] });
    await t.ctx.boardEvents.run();
    expect((await stored()).filter((id) => unformed.includes(id))).toEqual([]);
  });
});

describe('the former\'s window', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at once, then once more at the window\'s end for every poke within it, and not again until poked', () => {
    vi.useFakeTimers();
    let runs = 0;
    const trigger = windowed(() => {
      runs += 1;
    }, 500);
    trigger.poke();
    expect(runs).toBe(1);
    trigger.poke();
    trigger.poke();
    vi.advanceTimersByTime(499);
    expect(runs).toBe(1);
    vi.advanceTimersByTime(1);
    expect(runs).toBe(2);
    vi.advanceTimersByTime(2_000);
    expect(runs).toBe(2);
    trigger.poke();
    expect(runs).toBe(3);
    trigger.poke();
    trigger.cancel();
    vi.advanceTimersByTime(1_000);
    expect(runs).toBe(3);
  });
});
