import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { onboardClient } from '../helpers/clients.js';
import { importDataset } from '../helpers/data.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { type Change, historyDataset, odds } from '../history/fixture.js';

/**
 * A stream lives no longer than the credential and the account terms it was opened under: each
 * change an operator or the client makes ends the streams it concerns, with a final `end` event
 * naming why, and frees their places under the tier's cap. The others go on.
 */
describe.each(DIALECTS)('streams end with the credentials that opened them (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  let price = 2;
  beforeAll(async () => {
    t = await harness({ dialect, env: { STREAM_HEARTBEAT_MS: '200' } });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await importDataset(t, historyDataset(t.clock.now()));
  });
  afterAll(async () => t.close());

  const byKey = (apiKey: string) => ({ 'x-api-key': apiKey });
  const byToken = (token: string) => ({ authorization: `Bearer ${token}` });
  const stream = (headers: Record<string, string>) => openStream(`${url}/v1/stream/odds?event_ids=100`, headers);
  const tokenOf = async (apiKey: string) => (await t.login({ apiKey })).access_token;
  const patch = async (clientId: string, body: Record<string, unknown>) => {
    expect((await t.admin.patch(`/admin/v1/clients/${clientId}`, body)).statusCode).toBe(200);
  };
  /** Moves odds 1 of event 100: one change, which every stream still open receives. */
  const move = async () => {
    price = Math.round((price + 0.01) * 100) / 100;
    await importDataset(t, { odds: [odds(1, 100, 1, 1, 'home', price)] });
  };
  const endOf = async (s: SseStream) => {
    const event = await s.next();
    expect(event.event).toBe('end');
    await s.ended;
    return JSON.parse(event.data) as { reason: string; message: string };
  };
  const stillStreaming = async (streams: SseStream[]) => {
    await move();
    for (const s of streams) expect((JSON.parse((await s.next()).data) as Change).price_decimal.to).toBe(price);
  };

  it('an operator’s reset ends every stream opened before it, by key and by token (credentials_revoked), and frees their places', async () => {
    const { clientId, apiKey } = await onboardClient(t, { tier: 'pro' });
    const token = await tokenOf(apiKey);
    const old = [await stream(byKey(apiKey)), await stream(byKey(apiKey)), await stream(byKey(apiKey)), await stream(byKey(apiKey)), await stream(byToken(token))];
    expect(old.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);

    const reset = await t.admin.post(`/admin/v1/clients/${clientId}/credentials`);
    expect(reset.statusCode).toBe(200);
    for (const s of old) {
      expect(await endOf(s)).toEqual({ reason: 'credentials_revoked', message: expect.stringMatching(/reconnect with a current credential/) });
    }
    // The new key has the five places of the pro tier.
    const newKey = reset.json<{ api_key: string }>().api_key;
    const fresh = await Promise.all([1, 2, 3, 4, 5].map(() => stream(byKey(newKey))));
    expect(fresh.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    await stillStreaming(fresh);
    for (const s of fresh) s.close();
  });

  it('deleting an API key ends the streams opened with it and with tokens minted from it (credentials_revoked); the other key’s go on', async () => {
    const { apiKey: kept } = await onboardClient(t, { tier: 'enterprise' });
    const created = await t.as({ apiKey: kept }).post('/v1/account/api-keys', { name: 'to delete' });
    expect(created.statusCode).toBe(201);
    const { api_key: doomed, key_code: code } = created.json<{ api_key: string; key_code: string }>();
    const ending = [await stream(byKey(doomed)), await stream(byToken(await tokenOf(doomed)))];
    const going = [await stream(byKey(kept)), await stream(byToken(await tokenOf(kept)))];

    expect((await t.as({ apiKey: kept }).delete(`/v1/account/api-keys/${code}`)).statusCode).toBe(204);
    for (const s of ending) expect(await endOf(s)).toMatchObject({ reason: 'credentials_revoked' });
    await stillStreaming(going);
    for (const s of going) s.close();
  });

  it('an auth_method change ends the streams whose flow it no longer enables (flow_not_enabled); access tokens go on', async () => {
    const { clientId, apiKey } = await onboardClient(t, { tier: 'pro', authMethod: 'both' });
    const byApiKey = await stream(byKey(apiKey));
    const byAccessToken = await stream(byToken(await tokenOf(apiKey)));

    await patch(clientId, { auth_method: 'oauth' });
    expect(await endOf(byApiKey)).toEqual({ reason: 'flow_not_enabled', message: expect.stringMatching(/API key flow/) });
    // As the next request with the key is refused.
    expect((await t.as({ apiKey: apiKey }).get('/v1/account/config')).json<{ error: { reason: string } }>().error.reason).toBe('flow_not_enabled');
    await stillStreaming([byAccessToken]);
    byAccessToken.close();
  });

  it('a downgrade to a smaller cap ends the newest streams above it, to a tier without streams every one (tier_changed)', async () => {
    const { clientId, apiKey } = await onboardClient(t, { tier: 'enterprise' });
    const open: SseStream[] = [];
    // One after the other: the order they opened in decides which are the newest.
    for (let i = 0; i < 7; i += 1) open.push(await stream(byKey(apiKey)));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);

    await patch(clientId, { tier: 'pro' });
    const [oldest, newest] = [open.slice(0, 5), open.slice(5)];
    for (const s of newest) expect(await endOf(s)).toEqual({ reason: 'tier_changed', message: expect.stringMatching(/tier/) });
    await stillStreaming(oldest);
    // Five are open: the pro cap is full.
    expect((await stream(byKey(apiKey))).status).toBe(429);

    await patch(clientId, { tier: 'free' });
    for (const s of oldest) expect(await endOf(s)).toMatchObject({ reason: 'tier_changed' });
  });

  it('a stream opened with an API key that expires ends when it expires (credential_expired)', async () => {
    const { apiKey } = await onboardClient(t, { tier: 'pro' });
    const expiring = await t.as({ apiKey: apiKey }).post('/v1/account/api-keys', { name: 'short-lived', expires_at: new Date(t.clock.now() + 1500).toISOString() });
    expect(expiring.statusCode).toBe(201);
    const s = await stream(byKey(expiring.json<{ api_key: string }>().api_key));
    expect(s.status).toBe(200);
    expect(await endOf(s)).toEqual({ reason: 'credential_expired', message: expect.stringMatching(/expired/) });
  });
});
