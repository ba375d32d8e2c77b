import { createHmac } from 'node:crypto';
import { keyId } from '../../src/modules/auth/keyring.js';
import { TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from '../helpers/app.js';
import type { Caller, Harness, TokenPair } from '../helpers/harness.js';
import type { FuzzSetup } from './openapi-arbitraries.js';
import { type Json, type Operation, operationsOf } from './openapi-operations.js';

/** The scale of the demo dataset the fuzzed app holds: big enough for every filter to find rows, small enough to load in a second. */
export const FUZZ_DEMO_SCALE = 0.05;
const HINTS_PER_FIELD = 20;

/**
 * Prepares a test app that holds the demo dataset (at FUZZ_DEMO_SCALE) for fuzzing: a client
 * like the demo client (its API key and an access token, so that requests reach the handlers),
 * refresh tokens of both flows to rotate, clients the admin routes may change (never the one the
 * requests authenticate with, so that disabling or re-keying it cannot turn the rest of the run
 * into 401s), and the ids and keys of the dataset as hints for the generators.
 */
export async function prepareFuzzing(t: Harness): Promise<{ operations: Operation[]; setup: FuzzSetup }> {
  const demo = await t.client({ name: 'Demo client', authMethod: 'both', tier: 'pro' });
  const { access_token: accessToken } = await t.login(demo);
  const refreshTokens = async (login: () => Promise<TokenPair>): Promise<string[]> => {
    const tokens: string[] = [];
    for (let i = 0; i < 10; i += 1) tokens.push((await login()).refresh_token);
    return tokens;
  };
  const apiKeyRefresh = await refreshTokens(() => t.login(demo));
  const oauthRefresh = await refreshTokens(() => t.oauthLogin(demo));
  const targets = [
    await t.client({ name: 'Target api_key', authMethod: 'api_key', tier: 'free' }),
    await t.client({ name: 'Target oauth', authMethod: 'oauth', tier: 'enterprise' }),
  ];

  const byField = new Map<string, Array<string | number>>([
    ...(await referenceHints(t.as(demo))),
    ...(await eventHints(t)),
    // Zones with half- and quarter-hour offsets, the date line, and daylight-saving days below;
    // then names as clients write them: lower case, legacy links, offsets, unknown ones.
    ['timezone', ['UTC', 'America/New_York', 'Europe/London', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'Etc/GMT+12', 'utc', 'US/Pacific', 'EST5EDT', '+05:30', 'Etc/Unknown']],
    ['tenant_id', [demo.tenantId, ...targets.map((c) => c.tenantId)]],
    // The demo client first; the targets' credentials are refused (flow not enabled, disabled, rotated) or not.
    ['client_id', [demo.clientId, ...targets.map((c) => c.clientId)]],
    ['client_secret', [demo.clientSecret, ...targets.map((c) => c.clientSecret)]],
  ]);
  aliases(byField, { home_team_id: 'team_id', away_team_id: 'team_id', focus_entity_id: 'player_id', leg_id: 'flow_id' });
  byField.get('event_date')?.push('2026-03-08', '2026-03-29', '2026-10-04', '2026-11-01');
  // Import items that update rows which exist (every table's ids start at 1).
  byField.set('id', [1, 2, 3, 5, 8, 13]);
  const setup: FuzzSetup = {
    credentials: {
      apiKey: demo.apiKey,
      accessToken,
      adminToken: TEST_ADMIN_TOKEN,
      otherApiKeys: targets.map((c) => c.apiKey),
      oddTokens: oddTokens(demo.clientId, demo.tenantId, t.clock.now()),
    },
    hint(operation, where, field) {
      // Only the targets may be changed: the requests authenticate as the demo client throughout.
      if (where === 'path' && field === 'client_id') return targets.map((c) => c.clientId);
      // Each refresh endpoint gets its own flow's tokens, and a few of the other's (refused, changing nothing).
      if (field === 'refresh_token') {
        const [own, other] = operation.path === '/v1/oauth/refresh' ? [oauthRefresh, apiKeyRefresh] : [apiKeyRefresh, oauthRefresh];
        return [...own, ...other.slice(0, 3)];
      }
      return byField.get(field) ?? [];
    },
  };
  return { operations: operationsOf(t.app.swagger() as Json), setup };
}

/** Fields named differently from the list whose values they take. */
function aliases(byField: Map<string, Array<string | number>>, names: Record<string, string>): void {
  for (const [alias, field] of Object.entries(names)) byField.set(alias, byField.get(field) ?? []);
}

/** Ids and keys (plain and qualified) of the reference lists, read through the API. */
async function referenceHints(demo: Caller): Promise<Array<[string, Array<string | number>]>> {
  const list = async (name: string): Promise<Json[]> => {
    const res = await demo.get<{ results?: unknown }>(`/v1/references/${name}?page_size=${HINTS_PER_FIELD}`);
    const results = res.json().results;
    return Array.isArray(results) ? (results as Json[]) : [];
  };
  const hints: Array<[string, Array<string | number>]> = [];
  for (const [name, entity] of [
    ['sports', 'sport'],
    ['leagues', 'league'],
    ['teams', 'team'],
    ['players', 'player'],
    ['operators', 'operator'],
    ['betting-markets', 'betting_market'],
  ] as const) {
    const rows = await list(name);
    hints.push([`${entity}_id`, rows.map((r) => Number(r.id))]);
    hints.push([`${entity}_key`, rows.flatMap((r) => [r.key, r.qualified_key].filter((k): k is string => typeof k === 'string'))]);
  }
  return hints;
}

/** Event ids, and the days (UTC) on which events start. */
async function eventHints(t: Harness): Promise<Array<[string, Array<string | number>]>> {
  const db = t.ctx.database.db;
  const rows = await db.selectFrom('events').select(['id', 'start_time']).orderBy('id').limit(HINTS_PER_FIELD).execute();
  const flows = await db.selectFrom('flows').select('id').orderBy('id').limit(HINTS_PER_FIELD).execute();
  const days = rows.map((r) => new Date(Number(r.start_time)).toISOString().slice(0, 10));
  return [
    ['event_id', rows.map((r) => Number(r.id))],
    ['flow_id', flows.map((r) => Number(r.id))],
    ['event_date', days],
    ['event_start_date_from', days],
    ['event_start_date_to', days],
  ];
}

/**
 * Access tokens signed with the service's own key, as a leaked key or a bug in issuing would
 * produce them: claims of the wrong type, out of range, or naming no client. Verification must
 * refuse them (or, for claims within range, accept them) without a 5xx.
 */
function oddTokens(clientId: string, tenantId: string, at: number): string[] {
  // Signed by hand: a JWT library would refuse to write most of these claims.
  const part = (value: Json) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  const header = part({ alg: 'HS256', typ: 'at+jwt', kid: keyId(TEST_JWT_SECRET) });
  const sign = (claims: Json) => {
    const content = `${header}.${part(claims)}`;
    return `${content}.${createHmac('sha256', TEST_JWT_SECRET).update(content).digest('base64url')}`;
  };
  // Issued by the app's clock: the claims that vary are the odd ones, never the time.
  const now = Math.floor(at / 1000);
  const valid = { client_id: clientId, tenant_id: tenantId, tier: 'pro', iss: 'sports-data-api', sub: clientId, aud: 'sports-data-api', iat: now, exp: now + 900, jti: 'fuzz' };
  const variants: Json[] = [
    { client_id: 'not-a-uuid', sub: 'not-a-uuid' },
    { client_id: '00000000-0000-0000-0000-000000000000', sub: '00000000-0000-0000-0000-000000000000' },
    { tenant_id: '00000000-0000-0000-0000-000000000000' },
    { client_id: `${clientId}\u0000`, sub: `${clientId}\u0000` },
    { tier: 'platinum' },
    { exp: 1e308 },
    { exp: -1 },
    { exp: String(now + 900) },
    { iat: -1e308 },
    { jti: 5 },
    { aud: ['sports-data-api', 'other'] },
    { iss: 'someone-else' },
    { client_id: { $ne: null } },
  ];
  return variants.map((variant) => sign({ ...valid, ...variant }));
}
