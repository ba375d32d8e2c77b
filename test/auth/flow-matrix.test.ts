import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthMethod } from '../../src/modules/auth/index.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { accountWithApiKey, accountWithBearer, apiKeyLogin, expectUnauthorized, oauthLogin, pairOf } from './auth-helpers.js';

type Use = 'X-API-Key on a call' | 'Bearer on a call' | 'POST /v1/auth/login' | 'POST /v1/oauth/login';

// The flow table of docs/api.md#which-flows-an-account-may-use: true = allowed, false = 401.
const MATRIX: Record<AuthMethod, Record<Use, boolean>> = {
  api_key: { 'X-API-Key on a call': true, 'Bearer on a call': true, 'POST /v1/oauth/login': false, 'POST /v1/auth/login': true },
  oauth: { 'X-API-Key on a call': false, 'Bearer on a call': true, 'POST /v1/oauth/login': true, 'POST /v1/auth/login': false },
  both: { 'X-API-Key on a call': true, 'Bearer on a call': true, 'POST /v1/oauth/login': true, 'POST /v1/auth/login': true },
};

const CASES = (Object.keys(MATRIX) as AuthMethod[]).flatMap((authMethod) =>
  (Object.keys(MATRIX[authMethod]) as Use[]).map((use) => ({ authMethod, use, allowed: MATRIX[authMethod][use] })),
);

describe.each(DIALECTS)('flow matrix (%s)', (dialect) => {
  let t: Harness;
  const clients = new Map<AuthMethod, OnboardedClient>();

  beforeAll(async () => {
    t = await harness({ dialect });
    for (const authMethod of Object.keys(MATRIX) as AuthMethod[]) clients.set(authMethod, await t.client({ authMethod }));
  });
  afterAll(async () => t.close());

  function client(authMethod: AuthMethod): OnboardedClient {
    const found = clients.get(authMethod);
    if (!found) throw new Error(`no ${authMethod} client`);
    return found;
  }

  /** An access token from whichever login the account allows. */
  async function accessToken(c: OnboardedClient, authMethod: AuthMethod): Promise<string> {
    const res = authMethod === 'oauth' ? await oauthLogin(t, c.clientId, c.clientSecret) : await apiKeyLogin(t, c.apiKey);
    return pairOf(res).access_token;
  }

  it.each(CASES)('$authMethod × $use → allowed: $allowed', async ({ authMethod, use, allowed }) => {
    const c = client(authMethod);
    const res = await {
      'X-API-Key on a call': () => accountWithApiKey(t, c.apiKey),
      'Bearer on a call': async () => accountWithBearer(t, await accessToken(c, authMethod)),
      'POST /v1/auth/login': () => apiKeyLogin(t, c.apiKey),
      'POST /v1/oauth/login': () => oauthLogin(t, c.clientId, c.clientSecret),
    }[use]();

    if (allowed) {
      expect(res.statusCode, res.body).toBe(200);
    } else {
      expectUnauthorized(res, 'flow_not_enabled');
    }
  });

  it('covers all 12 cells of the matrix', () => {
    expect(CASES).toHaveLength(12);
  });
});
