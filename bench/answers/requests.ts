import type { RequestList } from './record.js';

/**
 * The fixed set of requests: every route, with its successes and the refusals a client can meet
 * (401, 403, 404, 405, 409, 422, 429), the admin API, the first bytes of the odds stream, and the
 * documents. One after another, on one clock: the counters, tokens and usage of each answer follow
 * from the requests before it, the same way on every run.
 */
export const REQUESTS: RequestList = async (r) => {
  const pro = await r.client('pro', 'pro', 'both');
  const free = await r.client('free', 'free', 'both');
  const enterprise = await r.client('enterprise', 'enterprise', 'api_key');
  const oauthOnly = await r.client('oauth-only', 'pro', 'oauth');
  const limited = await r.client('limited', 'pro', 'both');
  const quota = await r.client('quota', 'free', 'api_key');
  const key = (client: { apiKey: string }) => ({ 'x-api-key': client.apiKey });
  const admin = r.adminHeaders;

  // Operations and documents: no credentials.
  await r.send('healthz', { method: 'GET', url: '/healthz' });
  await r.send('healthz HEAD', { method: 'HEAD', url: '/healthz' });
  await r.send('readyz', { method: 'GET', url: '/readyz' });
  await r.send('openapi.json', { method: 'GET', url: '/openapi.json' });
  await r.send('docs page', { method: 'GET', url: '/docs' });
  await r.send('docs initializer', { method: 'GET', url: '/docs/static/swagger-initializer.js' });
  await r.send('docs index redirect', { method: 'GET', url: '/docs/static/index.html' });
  await r.send('docs asset', { method: 'GET', url: '/docs/static/index.css' });
  await r.send('docs json', { method: 'GET', url: '/docs/json' });
  await r.send('oauth metadata', { method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host: 'api.example' } });
  await r.send('unknown path', { method: 'GET', url: '/v1/nothing-here' });
  await r.send('unknown method', { method: 'PUT', url: '/v1/account/config', headers: key(pro) });
  await r.send('unknown method on a data list', { method: 'DELETE', url: '/v1/references/sports' });

  // The logins, refreshes and standard OAuth endpoints.
  const apiKeyLogin = await r.send('api-key login', { method: 'POST', url: '/v1/auth/login', headers: key(pro) });
  await r.send('api-key login without a key', { method: 'POST', url: '/v1/auth/login' });
  await r.send('api-key login, wrong key', { method: 'POST', url: '/v1/auth/login', headers: { 'x-api-key': 'sdk_not-a-key' } });
  await r.send('api-key login of an oauth-only client', { method: 'POST', url: '/v1/auth/login', headers: key(oauthOnly) });
  await r.send('api-key login with a body field', { method: 'POST', url: '/v1/auth/login', headers: key(pro), payload: { extra: 1 } });
  const oauthLogin = await r.send('oauth login', { method: 'POST', url: '/v1/oauth/login', payload: { client_id: pro.id, client_secret: pro.secret } });
  await r.send('oauth login, wrong secret', { method: 'POST', url: '/v1/oauth/login', payload: { client_id: pro.id, client_secret: free.secret } });
  await r.send('oauth login, missing field', { method: 'POST', url: '/v1/oauth/login', payload: { client_id: pro.id } });
  await r.send('oauth login, not JSON', { method: 'POST', url: '/v1/oauth/login', headers: { 'content-type': 'application/json' }, payload: '{' });
  const refreshOf = (answer: { json: unknown }) => field(answer.json, 'refresh_token');
  const accessOf = (answer: { json: unknown }) => field(answer.json, 'access_token');
  const apiKeyRefreshed = await r.send('api-key refresh', { method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: refreshOf(apiKeyLogin) } });
  await r.send('api-key refresh, reused token', { method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: refreshOf(apiKeyLogin) } });
  await r.send('oauth refresh, token of the other flow', { method: 'POST', url: '/v1/oauth/refresh', payload: { refresh_token: refreshOf(apiKeyRefreshed) } });
  await r.send('oauth refresh', { method: 'POST', url: '/v1/oauth/refresh', payload: { refresh_token: refreshOf(oauthLogin) } });
  const basic = (client: { id: string; secret: string }) => ({ authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const granted = await r.send('token endpoint', { method: 'POST', url: '/v1/oauth/token', headers: { ...form, ...basic(pro) }, payload: 'grant_type=client_credentials' });
  await r.send('token endpoint, bad secret', { method: 'POST', url: '/v1/oauth/token', headers: { ...form, ...basic({ id: pro.id, secret: free.secret }) }, payload: 'grant_type=client_credentials' });
  await r.send('token endpoint, unknown grant', { method: 'POST', url: '/v1/oauth/token', headers: { ...form, ...basic(pro) }, payload: 'grant_type=password' });
  await r.send('token endpoint, JSON body', { method: 'POST', url: '/v1/oauth/token', headers: basic(pro), payload: { grant_type: 'client_credentials' } });
  await r.send('revoke', { method: 'POST', url: '/v1/oauth/revoke', headers: { ...form, ...basic(pro) }, payload: `token=${refreshOf(granted)}` });
  await r.send('revoke, access token', { method: 'POST', url: '/v1/oauth/revoke', headers: { ...form, ...basic(pro) }, payload: `token=${accessOf(granted)}` });
  await r.send('revoke without authentication', { method: 'POST', url: '/v1/oauth/revoke', headers: form, payload: 'token=x' });
  for (let attempt = 1; attempt <= 11; attempt += 1) {
    await r.send(`failed oauth login ${attempt} of one client from one address`, {
      method: 'POST',
      url: '/v1/oauth/login',
      payload: { client_id: limited.id, client_secret: free.secret },
      remoteAddress: '203.0.113.7',
    });
  }

  const bearer = { authorization: `Bearer ${accessOf(oauthLogin)}` };
  const freeBearer = { authorization: `Bearer ${accessOf(await r.send('free login', { method: 'POST', url: '/v1/auth/login', headers: key(free) }))}` };

  // Authentication of a client call.
  await r.send('account config by key', { method: 'GET', url: '/v1/account/config', headers: key(pro) });
  await r.send('account config by bearer', { method: 'GET', url: '/v1/account/config', headers: bearer });
  await r.send('account config HEAD', { method: 'HEAD', url: '/v1/account/config', headers: bearer });
  await r.send('account config, no credentials', { method: 'GET', url: '/v1/account/config' });
  await r.send('account config, unknown key', { method: 'GET', url: '/v1/account/config', headers: { 'x-api-key': 'sdk_0000000000000000000000000000000000000000000000000' } });
  await r.send('account config, malformed bearer', { method: 'GET', url: '/v1/account/config', headers: { authorization: 'Bearer nope' } });
  await r.send('account config, key and token of two clients', { method: 'GET', url: '/v1/account/config', headers: { ...bearer, ...key(free) } });
  await r.send('account config, query parameter', { method: 'GET', url: '/v1/account/config?page=1', headers: bearer });
  await r.send('account config, api key of an oauth-only client', { method: 'GET', url: '/v1/account/config', headers: key(oauthOnly) });

  // The account's own credentials.
  await r.send('api keys', { method: 'GET', url: '/v1/account/api-keys', headers: bearer });
  await r.send('api keys, page 0', { method: 'GET', url: '/v1/account/api-keys?page=0', headers: bearer });
  const created = await r.send('create api key', { method: 'POST', url: '/v1/account/api-keys', headers: bearer, payload: { name: 'second' } });
  await r.send('create api key, bad expiry', { method: 'POST', url: '/v1/account/api-keys', headers: bearer, payload: { expires_at: 'soon' } });
  await r.send('delete api key', { method: 'DELETE', url: `/v1/account/api-keys/${field(created.json, 'key_code')}`, headers: bearer });
  await r.send('delete api key, unknown', { method: 'DELETE', url: '/v1/account/api-keys/00000000-0000-4000-8000-000000000000', headers: bearer });
  const enterpriseKeys = await r.send('api keys of the enterprise client', { method: 'GET', url: '/v1/account/api-keys', headers: key(enterprise) });
  await r.send('delete the last api key', { method: 'DELETE', url: `/v1/account/api-keys/${firstOf(enterpriseKeys.json, 'key_code')}`, headers: key(enterprise) });
  await r.send('secrets', { method: 'GET', url: '/v1/account/secrets', headers: bearer });
  const secret = await r.send('create secret', { method: 'POST', url: '/v1/account/secret', headers: bearer, payload: { name: 'second' } });
  await r.send('delete secret', { method: 'DELETE', url: `/v1/account/secrets/${field(secret.json, 'secret_code')}`, headers: bearer });
  await r.send('delete secret, unknown', { method: 'DELETE', url: '/v1/account/secrets/nope', headers: bearer });
  await r.send('usage', { method: 'GET', url: '/v1/account/usage', headers: bearer });
  await r.send('usage, reversed range', { method: 'GET', url: '/v1/account/usage?start_date=2026-06-01&end_date=2026-05-01', headers: bearer });

  // References: every list, a 304, a 404, a 422, a compressed page.
  const lists = ['sports', 'leagues', 'teams', 'players', 'operators', 'odds-format', 'betting-markets', 'betting-market-categories', 'betting-market-positions', 'countries', 'event-periods'];
  for (const list of lists) await r.send(`references ${list}`, { method: 'GET', url: `/v1/references/${list}?page_size=2`, headers: bearer });
  const sports = await r.send('references sports again', { method: 'GET', url: '/v1/references/sports?page_size=2', headers: key(pro) });
  await r.send('references sports, current etag', { method: 'GET', url: '/v1/references/sports?page_size=2', headers: { ...bearer, 'if-none-match': String(sports.headers.etag) } });
  await r.send('references sports HEAD', { method: 'HEAD', url: '/v1/references/sports?page_size=2', headers: bearer });
  await r.send('references leagues, unknown sport key', { method: 'GET', url: '/v1/references/leagues?sport_key=curling-on-mars', headers: bearer });
  await r.send('references teams, page_size 101', { method: 'GET', url: '/v1/references/teams?page_size=101', headers: bearer });
  await r.send('references teams, unknown parameter', { method: 'GET', url: '/v1/references/teams?colour=red', headers: bearer });
  await r.send('references teams, gzip', { method: 'GET', url: '/v1/references/teams?page_size=100', headers: { ...bearer, 'accept-encoding': 'gzip' } });
  await r.send('references teams, free tier', { method: 'GET', url: '/v1/references/teams?page_size=3', headers: freeBearer });

  // Events, odds, history, stream, trends.
  const upcoming = await r.send('upcoming events', { method: 'POST', url: '/v1/events/upcoming-events', headers: bearer, payload: { page_size: 3 } });
  await r.send('upcoming events, query parameter', { method: 'POST', url: '/v1/events/upcoming-events?league_key=nba', headers: bearer, payload: {} });
  await r.send('upcoming events, bad timezone', { method: 'POST', url: '/v1/events/upcoming-events', headers: bearer, payload: { timezone: 'Mars/Olympus' } });
  const historical = await r.send('historical events', { method: 'GET', url: '/v1/historical/events?page_size=3', headers: bearer });
  await r.send('historical events, free tier', { method: 'GET', url: '/v1/historical/events?page_size=3', headers: key(free) });
  await r.send('historical events, unknown team', { method: 'GET', url: '/v1/historical/events?team_id=999999', headers: bearer });
  const eventId = firstOf(upcoming.json, 'id') ?? 1;
  const pastEventId = firstOf(historical.json, 'id') ?? 1;
  const leagueId = firstOf(historical.json, 'league_id') ?? 1;
  await r.send('odds of an event', { method: 'POST', url: '/v1/odds/upcoming-odds-by-event', headers: bearer, payload: { event_id: eventId, page_size: 3 } });
  await r.send('odds of an event, american', { method: 'POST', url: '/v1/odds/upcoming-odds-by-event', headers: bearer, payload: { event_id: eventId, page_size: 2, odds_format: 'american' } });
  await r.send('odds of an unknown event', { method: 'POST', url: '/v1/odds/upcoming-odds-by-event', headers: bearer, payload: { event_id: 999999 } });
  await r.send('odds, unknown operator key', { method: 'POST', url: '/v1/odds/upcoming-odds-by-event', headers: bearer, payload: { event_id: eventId, operator_keys: ['nobody'] } });
  await r.send('price history', { method: 'POST', url: '/v1/odds/history-by-event', headers: bearer, payload: { event_id: pastEventId, page_size: 3 } });
  await r.send('price history, free tier', { method: 'POST', url: '/v1/odds/history-by-event', headers: freeBearer, payload: { event_id: pastEventId } });
  await r.send('price history, free tier without a body', { method: 'POST', url: '/v1/odds/history-by-event', headers: freeBearer });
  await r.send('price history, no credentials', { method: 'POST', url: '/v1/odds/history-by-event', payload: { event_id: pastEventId } });
  await r.send('history file json', { method: 'GET', url: `/v1/historical/odds/${pastEventId}.json`, headers: bearer });
  const csv = await r.send('history file csv', { method: 'GET', url: `/v1/historical/odds/${pastEventId}.csv?odds_format=decimal`, headers: bearer });
  await r.send('history file csv, current etag', { method: 'GET', url: `/v1/historical/odds/${pastEventId}.csv?odds_format=decimal`, headers: { ...bearer, 'if-none-match': String(csv.headers.etag) } });
  await r.send('history file csv, gzip', { method: 'GET', url: `/v1/historical/odds/${pastEventId}.csv`, headers: { ...bearer, 'accept-encoding': 'gzip' } });
  await r.send('history file, unknown event', { method: 'GET', url: '/v1/historical/odds/999999.json', headers: bearer });
  await r.send('history file, free tier', { method: 'GET', url: `/v1/historical/odds/${pastEventId}.json`, headers: key(free) });
  await r.send('history file HEAD', { method: 'HEAD', url: `/v1/historical/odds/${pastEventId}.json`, headers: bearer });
  await r.send('league export csv', { method: 'GET', url: `/v1/historical/odds.csv?league_id=${leagueId}`, headers: bearer });
  await r.send('league export ndjson', { method: 'GET', url: `/v1/historical/odds.json?league_id=${leagueId}`, headers: bearer });
  await r.send('league export, no league', { method: 'GET', url: '/v1/historical/odds.json', headers: bearer });
  await r.send('league export, free tier', { method: 'GET', url: `/v1/historical/odds.csv?league_id=${leagueId}`, headers: freeBearer });
  await r.stream('odds stream', { method: 'GET', url: `/v1/stream/odds?event_ids=${eventId}`, headers: bearer });
  await r.stream('odds stream, enterprise', { method: 'GET', url: '/v1/stream/odds', headers: key(enterprise) });
  await r.send('odds stream, free tier', { method: 'GET', url: '/v1/stream/odds', headers: key(free) });
  await r.send('odds stream, unknown event', { method: 'GET', url: '/v1/stream/odds?event_ids=999999', headers: bearer });
  await r.send('odds stream, bad ids', { method: 'GET', url: '/v1/stream/odds?event_ids=a', headers: bearer });
  await r.send('odds stream HEAD', { method: 'HEAD', url: '/v1/stream/odds', headers: bearer });
  const flows = await r.send('flows', { method: 'POST', url: '/v1/trends/flows', headers: bearer, payload: { page_size: 3 } });
  await r.send('flows, page_size 26', { method: 'POST', url: '/v1/trends/flows', headers: bearer, payload: { page_size: 26 } });
  await r.send('mixed flows', { method: 'POST', url: '/v1/trends/mixed-flows', headers: bearer, payload: { page_size: 3 } });
  await r.send('mixed flows, unknown league key', { method: 'POST', url: '/v1/trends/mixed-flows', headers: bearer, payload: { league_keys: ['nowhere'] } });
  const flowId = firstOf(flows.json, 'id') ?? 1;
  await r.send('flows by id', { method: 'POST', url: '/v1/trends/flows-by-id', headers: bearer, payload: { flow_ids: [flowId, 999999] } });
  await r.send('flows by id, none', { method: 'POST', url: '/v1/trends/flows-by-id', headers: bearer, payload: { flow_ids: [] } });
  await r.send('leagues with flows', { method: 'GET', url: '/v1/trends/leagues-with-available-flows?page_size=3', headers: bearer });
  await r.send('flow graph', { method: 'GET', url: `/v1/trends/flow-graph-data/${flowId}`, headers: bearer });
  await r.send('flow graph, unknown flow', { method: 'GET', url: '/v1/trends/flow-graph-data/999999', headers: bearer });
  await r.send('flow graph, not an id', { method: 'GET', url: '/v1/trends/flow-graph-data/abc', headers: bearer });

  // Limits: a per-minute override, a daily quota, and the account routes' minute.
  await r.send('admin: limit a client to 3 a minute', { method: 'PATCH', url: `/admin/v1/clients/${limited.id}`, headers: admin, payload: { rate_limit_per_minute: 3 } });
  await r.send('admin: a quota of 2 a day', { method: 'PATCH', url: `/admin/v1/clients/${quota.id}`, headers: admin, payload: { daily_quota: 2 } });
  for (let call = 1; call <= 4; call += 1) await r.send(`limited client, data call ${call}`, { method: 'GET', url: '/v1/references/sports', headers: key(limited) });
  await r.send('limited client, account call over the minute', { method: 'GET', url: '/v1/account/config', headers: key(limited) });
  await r.send('limited client, usage over the minute', { method: 'GET', url: '/v1/account/usage', headers: key(limited) });
  for (let call = 1; call <= 3; call += 1) await r.send(`quota client, data call ${call}`, { method: 'GET', url: '/v1/references/countries', headers: key(quota) });
  await r.send('quota client, account call past the quota', { method: 'GET', url: '/v1/account/config', headers: key(quota) });
  await r.send('quota client, price history past the quota (free tier)', { method: 'POST', url: '/v1/odds/history-by-event', headers: key(quota), payload: { event_id: pastEventId } });
  await r.send('quota client, usage', { method: 'GET', url: '/v1/account/usage', headers: key(quota) });

  // The admin API.
  await r.send('admin: no token', { method: 'GET', url: '/admin/v1/clients' });
  await r.send('admin: wrong token', { method: 'GET', url: '/admin/v1/clients', headers: { authorization: 'Bearer wrong' } });
  const onboarded = await r.send('admin: onboard', { method: 'POST', url: '/admin/v1/clients', headers: admin, payload: { name: 'Onboarded', tier: 'free', auth_method: 'api_key' } });
  await r.send('admin: onboard, bad tier', { method: 'POST', url: '/admin/v1/clients', headers: admin, payload: { name: 'x', tier: 'gold', auth_method: 'api_key' } });
  await r.send('admin: clients', { method: 'GET', url: '/admin/v1/clients?page_size=3', headers: admin });
  await r.send('admin: one client', { method: 'GET', url: `/admin/v1/clients/${pro.id}`, headers: admin });
  await r.send('admin: unknown client', { method: 'GET', url: '/admin/v1/clients/nobody', headers: admin });
  await r.send('admin: empty patch', { method: 'PATCH', url: `/admin/v1/clients/${pro.id}`, headers: admin, payload: {} });
  await r.send('admin: disable', { method: 'PATCH', url: `/admin/v1/clients/${free.id}`, headers: admin, payload: { disabled: true } });
  await r.send('disabled client call', { method: 'GET', url: '/v1/account/config', headers: key(free) });
  await r.send('admin: client usage', { method: 'GET', url: `/admin/v1/clients/${pro.id}/usage`, headers: admin });
  // One more call than the limited client, so that the two are not tied (ties are ordered by random id).
  await r.send('enterprise: one more call', { method: 'GET', url: '/v1/account/config', headers: key(enterprise) });
  await r.send('admin: top usage', { method: 'GET', url: '/admin/v1/usage', headers: admin });
  await r.send('admin: api keys', { method: 'GET', url: `/admin/v1/clients/${pro.id}/api-keys`, headers: admin });
  await r.send('admin: secrets', { method: 'GET', url: `/admin/v1/clients/${pro.id}/secrets`, headers: admin });
  const onboardedId = field(onboarded.json, 'client_id');
  const onboardedKeys = await r.send('admin: api keys of the onboarded client', { method: 'GET', url: `/admin/v1/clients/${onboardedId}/api-keys`, headers: admin });
  await r.send('admin: delete its last api key', { method: 'DELETE', url: `/admin/v1/clients/${onboardedId}/api-keys/${firstOf(onboardedKeys.json, 'key_code')}`, headers: admin });
  await r.send('admin: delete an unknown secret', { method: 'DELETE', url: `/admin/v1/clients/${onboardedId}/secrets/nope`, headers: admin });
  await r.send('admin: reset credentials', { method: 'POST', url: `/admin/v1/clients/${onboardedId}/credentials`, headers: admin });
  await r.send('admin: offboard', { method: 'DELETE', url: `/admin/v1/clients/${onboardedId}`, headers: admin });
  await r.send('admin: change an offboarded client', { method: 'PATCH', url: `/admin/v1/clients/${onboardedId}`, headers: admin, payload: { tier: 'pro' } });
  await r.send('admin: import, bad item', { method: 'POST', url: '/admin/v1/import', headers: admin, payload: { sports: [{ id: 'x' }] } });
  await r.send('admin: import, nothing', { method: 'POST', url: '/admin/v1/import', headers: admin, payload: {} });
  await r.send('admin: unknown method', { method: 'PUT', url: '/admin/v1/clients', headers: admin });

  // Last: what the requests above were counted as.
  await r.send('usage after the calls', { method: 'GET', url: '/v1/account/usage', headers: bearer });
  await r.send('metrics', { method: 'GET', url: '/metrics' });
};

/** A top-level string field of a JSON answer ('' when absent: the next request then shows it). */
function field(json: unknown, name: string): string {
  if (typeof json !== 'object' || json === null || !(name in json)) return '';
  const value: unknown = (json as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : String(value);
}

/** A field of a page's first result. */
function firstOf(json: unknown, name: string): number | string | undefined {
  if (typeof json !== 'object' || json === null || !('results' in json) || !Array.isArray(json.results)) return undefined;
  const first: unknown = json.results[0];
  if (typeof first !== 'object' || first === null || !(name in first)) return undefined;
  const value: unknown = (first as Record<string, unknown>)[name];
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}
