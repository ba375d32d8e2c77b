import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { accountWithApiKey, accountWithBearer, apiKeyLogin, oauthLogin, pairOf } from '../auth/auth-helpers.js';

describe.each(DIALECTS)('GET /v1/account/config (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;

  beforeAll(async () => {
    t = await harness({ dialect });
    client = await t.client({ authMethod: 'both', tier: 'free', name: 'Globex Analytics' });
  });
  afterAll(async () => t.close());

  const expected = () => ({ client_id: client.clientId, tenant_id: client.tenantId, name: 'Globex Analytics', tier: 'free', auth_method: 'both', flow_vocabulary: 'ours' });

  it('answers the account with X-API-Key', async () => {
    const res = await accountWithApiKey(t, client.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(expected());
  });

  it('answers the same with a Bearer token from either login', async () => {
    for (const login of [apiKeyLogin(t, client.apiKey), oauthLogin(t, client.clientId, client.clientSecret)]) {
      const res = await accountWithBearer(t, pairOf(await login).access_token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expected());
    }
  });

  it('answers JSON with a request id', async () => {
    const res = await accountWithApiKey(t, client.apiKey);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('serves a call with X-API-Key and Authorization of the same client (decision 0070)', async () => {
    const token = pairOf(await apiKeyLogin(t, client.apiKey)).access_token;
    const res = await t.as({ headers: { 'x-api-key': client.apiKey, authorization: `Bearer ${token}` } }).get('/v1/account/config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ client_id: client.clientId });
  });

  it('shows clients of one tenant their own account each', async () => {
    const sibling = await t.ctx.clients.create({ name: 'Globex Mobile', tier: 'pro', authMethod: 'api_key', tenantId: client.tenantId });
    const res = await accountWithApiKey(t, sibling.credentials.apiKey);
    expect(res.json()).toEqual({ client_id: sibling.account.id, tenant_id: client.tenantId, name: 'Globex Mobile', tier: 'pro', auth_method: 'api_key', flow_vocabulary: 'ours' });
  });
});
