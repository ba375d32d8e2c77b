import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCredential } from '../../src/modules/auth/credentials.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { onboardClient, type OnboardedClient } from '../helpers/clients.js';
import { expectError } from '../helpers/responses.js';
import { accountWithApiKey, apiKeyLogin, expectUnauthorized, oauthLogin, pairOf } from './auth-helpers.js';

const JSON_ENDPOINTS = ['/v1/oauth/login', '/v1/auth/refresh', '/v1/oauth/refresh'];

describe.each(DIALECTS)('bad input on the authentication endpoints (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;

  beforeAll(async () => {
    t = await harness({ dialect });
    client = await onboardClient(t, { authMethod: 'both' });
  });
  afterAll(async () => t.close());

  it.each(JSON_ENDPOINTS)('%s: malformed JSON → 400 BAD_REQUEST', async (url) => {
    for (const payload of ['{"client_id":', '{bad json}', 'undefined', "{'a':1}"]) expectError(await t.anonymous.raw('POST', url, payload), 400, 'BAD_REQUEST');
  });

  it.each(JSON_ENDPOINTS)('%s: a body that is not a JSON object → 400 BAD_REQUEST', async (url) => {
    for (const payload of ['[]', '"text"', '42', 'null', 'true']) expectError(await t.anonymous.raw('POST', url, payload), 400, 'BAD_REQUEST');
  });

  it.each(JSON_ENDPOINTS)('%s: a body that is not JSON → 400 BAD_REQUEST', async (url) => {
    expectError(await t.anonymous.raw('POST', url, 'refresh_token=abc', 'application/x-www-form-urlencoded'), 400, 'BAD_REQUEST');
  });

  it('a wrong JSON type → 400 BAD_REQUEST naming the field', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/v1/oauth/login', { client_id: 5, client_secret: client.clientSecret }, 'client_id'],
      ['/v1/oauth/login', { client_id: client.clientId, client_secret: ['x'] }, 'client_secret'],
      ['/v1/oauth/login', { client_id: null, client_secret: client.clientSecret }, 'client_id'],
      ['/v1/auth/refresh', { refresh_token: 123 }, 'refresh_token'],
      ['/v1/oauth/refresh', { refresh_token: { nested: true } }, 'refresh_token'],
    ];
    for (const [url, payload, field] of cases) {
      const error = expectError(await t.anonymous.raw('POST', url, JSON.stringify(payload)), 400, 'BAD_REQUEST');
      expect(error.details, url).toContainEqual({ field, rule: 'type' });
    }
  });

  it('a missing field → 422 VALIDATION_ERROR naming it', async () => {
    const cases: Array<[string, unknown, string[]]> = [
      ['/v1/oauth/login', { client_id: client.clientId }, ['client_secret']],
      ['/v1/oauth/login', { client_secret: client.clientSecret }, ['client_id']],
      ['/v1/oauth/login', {}, ['client_id', 'client_secret']],
      ['/v1/auth/refresh', {}, ['refresh_token']],
      ['/v1/oauth/refresh', {}, ['refresh_token']],
    ];
    for (const [url, payload, fields] of cases) {
      const error = expectError(await t.anonymous.raw('POST', url, JSON.stringify(payload)), 422, 'VALIDATION_ERROR');
      expect(error.details, url).toEqual(fields.map((field) => ({ field, rule: 'required' })));
      expect(error.message, url).toContain(fields[0]);
    }
  });

  it('no body at all → 422 naming the missing fields', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/oauth/login' });
    expect(expectError(res, 422, 'VALIDATION_ERROR').details).toEqual([
      { field: 'client_id', rule: 'required' },
      { field: 'client_secret', rule: 'required' },
    ]);
  });

  it('unknown or wrong client credentials → 401 invalid_credentials', async () => {
    const other = await onboardClient(t);
    const cases: Array<[string, string]> = [
      [client.clientId, other.clientSecret], // another client's secret
      [client.clientId, generateCredential('clientSecret')], // well-formed, never issued
      ['7a4c1f52-2b7e-4d0a-9c3e-5f6a7b8c9d0e', client.clientSecret], // unknown client
      ['not-a-uuid', client.clientSecret],
      ['', ''],
      [client.clientId, `${client.clientSecret.slice(0, -1)}${client.clientSecret.endsWith('a') ? 'b' : 'a'}`], // bad checksum
      [client.clientId, client.apiKey], // the API key is not the secret
      [client.clientId, 'x'.repeat(10_000)],
    ];
    for (const [clientId, clientSecret] of cases) expectUnauthorized(await oauthLogin(t, clientId, clientSecret), 'invalid_credentials');
  });

  it('accepts extra OAuth fields such as grant_type, and an upper-case client_id', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/login',
      payload: { grant_type: 'client_credentials', client_id: client.clientId.toUpperCase(), client_secret: client.clientSecret },
    });
    pairOf(res);
  });

  it('unknown, malformed or missing API keys → 401', async () => {
    for (const apiKey of [generateCredential('apiKey'), 'sdk_nope', client.clientSecret, 'x'.repeat(10_000)]) {
      expectUnauthorized(await apiKeyLogin(t, apiKey), 'invalid_credentials');
      expectUnauthorized(await accountWithApiKey(t, apiKey), 'invalid_credentials');
    }
    expectUnauthorized(await t.app.inject({ method: 'POST', url: '/v1/auth/login' }), 'missing_credentials');
  });

  it('API-key login ignores a body it does not need', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/auth/login', headers: { 'x-api-key': client.apiKey }, payload: {} });
    pairOf(res);
  });

  it.each([...JSON_ENDPOINTS, '/v1/auth/login'])('%s: a body over 1 MiB → 413 PAYLOAD_TOO_LARGE', async (url) => {
    const payload = JSON.stringify({ client_id: client.clientId, client_secret: 'x'.repeat(1024 * 1024), refresh_token: 'x' });
    const res = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'x-api-key': client.apiKey }, payload });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe.each(DIALECTS)('malformed credentials are refused before any database access (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;

  beforeAll(async () => {
    t = await harness({ dialect });
    client = await onboardClient(t, { authMethod: 'both' });
  });
  afterAll(async () => t.close());

  it('answers 401 with the credential tables out of reach, where a well-formed credential would need them', async () => {
    const { db } = t.database;
    await db.schema.alterTable('clients').renameTo('clients_away').execute();
    await db.schema.alterTable('refresh_tokens').renameTo('refresh_tokens_away').execute();
    try {
      const badChecksum = `${client.clientSecret.slice(0, -1)}${client.clientSecret.endsWith('a') ? 'b' : 'a'}`;
      expectUnauthorized(await oauthLogin(t, 'not-a-uuid', client.clientSecret), 'invalid_credentials');
      expectUnauthorized(await oauthLogin(t, '7a4c1f52-2b7e-4d0a-9c3e-5f6a7b8c9d0e', badChecksum), 'invalid_credentials');
      expectUnauthorized(await apiKeyLogin(t, 'sdk_garbage'), 'invalid_credentials');
      expectUnauthorized(await accountWithApiKey(t, `${client.apiKey.slice(0, -1)}${client.apiKey.endsWith('a') ? 'b' : 'a'}`), 'invalid_credentials');
      const refreshRes = await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: 'sdr_garbage' } });
      expectUnauthorized(refreshRes, 'token_invalid');
      // The control: a well-formed token does reach the (now missing) table.
      const wellFormed = await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: generateCredential('refreshToken') } });
      expect(wellFormed.statusCode).toBe(500);
      expect(wellFormed.body).not.toMatch(/refresh_tokens|sql|select/i);
    } finally {
      await db.schema.alterTable('refresh_tokens_away').renameTo('refresh_tokens').execute();
      await db.schema.alterTable('clients_away').renameTo('clients').execute();
    }
    pairOf(await oauthLogin(t, client.clientId, client.clientSecret));
  });
});
