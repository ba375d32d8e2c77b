import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, forSuite, harness } from '../helpers/harness.js';
import { type Receiver, startReceiver, WEBHOOK_ENV } from '../helpers/webhooks.js';
import { historyDataset, odds } from '../history/fixture.js';
import { bodyOf, createEndpoint, deliver, idsOf, type MadeEndpoint, pastRetry, sequencesOf, verifyAt } from './end-to-end-fixture.js';

/**
 * Webhooks end to end: an import through POST /admin/v1/import, the former, the dispatcher, and a
 * real HTTP receiver, with endpoints a pro client made through POST /v1/webhooks.
 */
describe.each(DIALECTS)('webhooks end to end (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect, env: WEBHOOK_ENV }));
  let receiver: Receiver;
  let client: Caller;
  /** The statuses each path answers in turn (then 200). */
  const answers = new Map<string, number[]>();
  const made: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.answer = (r) => answers.get(r.path)?.shift() ?? 200;
    client = t.as(await t.client({ tier: 'pro' }));
    await t.import(historyDataset(t.clock.now()));
    await deliver(t);
  });
  afterAll(async () => receiver.close());
  // A pro client keeps 5 endpoints: each test deletes its own.
  afterEach(async () => {
    for (const id of made.splice(0)) expect((await client.delete(`/v1/webhooks/${id}`)).statusCode).toBe(204);
  });

  const endpoint = async (name: string, types: string[] = ['odds.changed']): Promise<MadeEndpoint> => {
    const created = await createEndpoint(client, `${receiver.url}/${name}`, types);
    made.push(created.id);
    return created;
  };
  let price = 1.5;
  /** One import moving one price: one odds.changed per endpoint. */
  const move = async () => {
    price = Math.round((price + 0.05) * 100) / 100;
    await t.import({ odds: [odds(5, 200, 1, 1, 'home', price)] });
  };
  const advance = (ms: number) => t.clock.set(t.clock.now() + ms);
  const changesOf = (name: string) => receiver.at(name).flatMap((r) => (bodyOf(r).data.changes as Array<{ id: number }>).map((c) => c.id));

  it("signs every delivery of an import's odds.changed as the Standard Webhooks library verifies; a tampered body or a stale timestamp throws", async () => {
    const ep = await endpoint('signed');
    await t.import({ odds: [odds(1, 100, 1, 1, 'home', 1.85), odds(5, 200, 1, 1, 'home', 1.55), odds(7, 300, 1, 1, 'home', 1.75)] });
    await deliver(t);
    const got = receiver.at('signed');
    expect(got.length).toBeGreaterThan(0);
    const now = t.clock.now();
    for (const r of got) expect(verifyAt(ep.secret, r, now)).toMatchObject({ type: 'odds.changed' });
    expect(sequencesOf(got)).toEqual(got.map((_, i) => i + 1));
    const history = await t.database.db.selectFrom('odds_history').select('id').orderBy('id', 'desc').limit(3).execute();
    expect(changesOf('signed')).toEqual(history.map((h) => Number(h.id)).reverse());

    const [first] = got;
    if (first === undefined) throw new Error('nothing received');
    expect(() => verifyAt(ep.secret, { ...first, body: first.body.replace('"odds.changed"', '"odds.changed "') }, now)).toThrow();
    // The same delivery replayed: within the library's tolerance of five minutes it verifies, past it not.
    expect(verifyAt(ep.secret, first, now + 4 * 60_000)).toBeTruthy();
    expect(() => verifyAt(ep.secret, first, now + 5 * 60_000 + 2_000)).toThrow(/too old/i);
    price = 1.55;
  });

  it('retries a 500 twice with the same webhook-id, and sends the next import\'s delivery only after it, in sequence order', async () => {
    const ep = await endpoint('retried');
    answers.set('/hooks/retried', [500, 500]);
    await move();
    await deliver(t);
    await move();
    await deliver(t);
    expect(sequencesOf(receiver.at('retried'))).toEqual([1]);
    advance(pastRetry(1));
    await deliver(t);
    expect(sequencesOf(receiver.at('retried'))).toEqual([1, 1]);
    advance(pastRetry(2));
    await deliver(t);
    const got = receiver.at('retried');
    expect(sequencesOf(got)).toEqual([1, 1, 1, 2]);
    const ids = idsOf(got);
    expect(new Set(ids.slice(0, 3)).size).toBe(1);
    expect(ids[3]).not.toBe(ids[0]);
    for (const r of got) expect(verifyAt(ep.secret, r, t.clock.now())).toBeTruthy();
    const attempts = await t.database.db.selectFrom('webhook_attempts').select('status_code').where('delivery_id', '=', ids[0] ?? '').orderBy('id').execute();
    expect(attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
  });

  it('a receiver down (refused, then 503) for a while gets every sequence in order once it is up; repeats are retries of the same id', async () => {
    await endpoint('down');
    await receiver.down();
    for (let i = 0; i < 3; i++) {
      await move();
      await deliver(t);
      advance(pastRetry(i + 1));
    }
    await deliver(t);
    expect(receiver.at('down')).toEqual([]);
    answers.set('/hooks/down', [503]);
    await receiver.up();
    advance(pastRetry(4));
    await deliver(t);
    advance(pastRetry(5));
    await deliver(t);
    const got = receiver.at('down');
    expect(sequencesOf(got)).toEqual([1, 1, 2, 3]);
    const ids = idsOf(got);
    expect(ids[1]).toBe(ids[0]);
    expect(new Set(ids).size).toBe(3);
  });

  it('a 410 disables the endpoint (GET shows it, the audit log has it); PATCH enabled resumes where it stopped', async () => {
    const ep = await endpoint('gone');
    // A 503 first, so that the second import's delivery is formed while the endpoint is still enabled.
    answers.set('/hooks/gone', [503, 410]);
    await move();
    await deliver(t);
    await move();
    await deliver(t);
    advance(pastRetry(1));
    await deliver(t);
    expect(sequencesOf(receiver.at('gone'))).toEqual([1, 1]);
    const shown = await client.ok<{ enabled: boolean; disabled_reason: string | null; disabled_at: string | null }>(`/v1/webhooks/${ep.id}`);
    expect(shown).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    expect(shown.disabled_at).not.toBeNull();
    const audit = await client.page<{ action: string; after: Record<string, unknown> | null }>('/v1/account/audit-log');
    expect(audit.results.some((e) => e.action === 'webhook.disabled' && JSON.stringify(e.after).includes(ep.id) && JSON.stringify(e.after).includes('gone'))).toBe(true);
    advance(pastRetry(2));
    await deliver(t);
    expect(receiver.at('gone')).toHaveLength(2);

    const res = await client.patch(`/v1/webhooks/${ep.id}`, { enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    await deliver(t);
    await move();
    await deliver(t);
    const got = receiver.at('gone');
    expect(sequencesOf(got)).toEqual([1, 1, 1, 2, 3]);
    expect(new Set(idsOf(got).slice(0, 3)).size).toBe(1);
    expect(new Set(idsOf(got)).size).toBe(3);
  });

  it('a rotated secret signs beside the new one for 24 hours, each signature verifying with its own secret; after, only the new one', async () => {
    const ep = await endpoint('rotated');
    const rotated = await client.post<{ secret: string }>(`/v1/webhooks/${ep.id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json().secret;
    await move();
    await deliver(t);
    const [during] = receiver.at('rotated');
    if (during === undefined) throw new Error('nothing received');
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    const only = (signature: string) => ({ ...(during.headers as Record<string, string>), 'webhook-signature': signature });
    const now = t.clock.now();
    const verifies = (secret: string, signature: string) => {
      try {
        verifyAt(secret, during, now, only(signature));
        return true;
      } catch {
        return false;
      }
    };
    // Each signature verifies with exactly one of the secrets, and each secret has its signature.
    const byOld = signatures.filter((s) => verifies(ep.secret, s));
    const byNew = signatures.filter((s) => verifies(fresh, s));
    expect([byOld.length, byNew.length]).toEqual([1, 1]);
    expect(byOld[0]).not.toBe(byNew[0]);
    expect(verifyAt(ep.secret, during, now)).toBeTruthy();
    expect(verifyAt(fresh, during, now)).toBeTruthy();

    advance(24 * 3_600_000 + 1);
    await move();
    await deliver(t);
    const after = receiver.at('rotated')[1];
    if (after === undefined) throw new Error('nothing received after 24 hours');
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyAt(fresh, after, t.clock.now())).toBeTruthy();
    expect(() => verifyAt(ep.secret, after, t.clock.now())).toThrow();
  });
});
