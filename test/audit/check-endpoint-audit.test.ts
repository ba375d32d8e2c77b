import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

const TOKEN = 'op-secret-token-7f3c9aB3x';
const OTHER_TOKEN = 'second-secret-token-Qw9zX';

interface Entry {
  action: string;
  actor: { type: string; via: string; client_id: string | null; credential_code: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

describe.each(DIALECTS)('audit log: the check endpoint (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect }));

  it('records each set and delete once, as the client, with the endpoint before and after and never its token; a refused set or a delete of nothing records nothing', async () => {
    const c = await h.client({ tier: 'pro' });
    const asClient = h.as(c);
    const set = (body: object) => asClient.post('/v1/account/check-endpoint', { method: 'POST', ...body });
    expect((await set({ url: 'https://pricing.example.com/check', auth_token: TOKEN })).statusCode).toBe(200);
    expect((await set({ url: 'https://pricing.example.com/v2', auth_token: OTHER_TOKEN, allow_multiple: true })).statusCode).toBe(200);
    expectError(await set({ url: 'http://127.0.0.1/check', auth_token: TOKEN }), 422, 'VALIDATION_ERROR');
    expect((await asClient.delete('/v1/account/check-endpoint')).statusCode).toBe(200);
    expect((await asClient.delete('/v1/account/check-endpoint')).statusCode).toBe(200);

    const log = (await asClient.page<Entry>('/v1/account/audit-log')).results.filter((e) => e.action.startsWith('check_endpoint'));
    expect(log.map((e) => e.action)).toEqual(['check_endpoint.deleted', 'check_endpoint.set', 'check_endpoint.set']);
    const [deleted, replaced, first] = log;
    const [key] = (await asClient.page<{ key_code: string }>('/v1/account/api-keys')).results;
    for (const entry of log) expect(entry.actor).toMatchObject({ type: 'client', via: 'api_key', client_id: c.clientId, credential_code: key?.key_code });
    expect(first).toMatchObject({ before: null, after: { url: 'https://pricing.example.com/check', method: 'POST', allow_multiple: false } });
    expect(replaced).toMatchObject({ before: { url: 'https://pricing.example.com/check' }, after: { url: 'https://pricing.example.com/v2', allow_multiple: true } });
    expect(deleted).toMatchObject({ before: { url: 'https://pricing.example.com/v2' }, after: null });
    // Neither token, nor any part of it that would help guess it.
    const stored = JSON.stringify(await h.database.db.selectFrom('audit_log').selectAll().where('client_id', '=', c.clientId).execute());
    for (const token of [TOKEN, OTHER_TOKEN]) expect(stored).not.toContain(token.slice(-6));
  });

  it('keeps a URL as the logs show it: a credential in its query string is redacted, the rest of it kept', async () => {
    const c = await h.client({ tier: 'pro' });
    const asClient = h.as(c);
    const secret = 'k3y-in-the-query-9Fq2Lm';
    const url = `https://pricing.example.com/check?api_key=${secret}&book=northstar&token=${secret}`;
    expect((await asClient.post('/v1/account/check-endpoint', { method: 'POST', url, auth_token: TOKEN })).statusCode).toBe(200);
    expect((await asClient.delete('/v1/account/check-endpoint')).statusCode).toBe(200);
    const log = (await asClient.page<Entry>('/v1/account/audit-log')).results.filter((e) => e.action.startsWith('check_endpoint'));
    const redacted = 'https://pricing.example.com/check?api_key=[redacted]&book=northstar&token=[redacted]';
    expect(log.map((e) => e.after?.url ?? e.before?.url)).toEqual([redacted, redacted]);
    const stored = JSON.stringify(await h.database.db.selectFrom('audit_log').selectAll().where('client_id', '=', c.clientId).execute());
    expect(stored).not.toContain(secret);
  });
});
