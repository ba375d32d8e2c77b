import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SECURITY, CLIENT_SECURITY, type RoutePolicy, tiersWith } from '../../src/modules/policy/index.js';
import { ERROR_STATUS } from '../../src/platform/errors.js';
import { STANDARD_ENDPOINT } from '../../src/platform/http/strict-input.js';
import type { App } from '../../src/platform/http/types.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { type AddedRoute, recordRoutes } from '../helpers/routes.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const RATE_LIMIT_HEADERS = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * Routes whose URLs say one thing and whose policies another: every answer and every line of the
 * document must follow the policy. An admin-looking path serving clients, an account-looking path
 * serving anyone, a `_keys` field that declares no 404 or 409.
 */
async function decoys(app: App): Promise<void> {
  const answer = { 200: Type.Object({ ok: Type.Boolean() }) };
  const ok = async () => ({ ok: true });
  app.get(
    '/admin/v1/decoy-data',
    {
      config: { policy: { auth: 'client', tier: 'basics', limit: 'data', usage: 'references', cache: 'data' } },
      schema: { tags: ['references'], summary: 'decoy', querystring: Type.Object({ team_keys: Type.Optional(Type.String()) }), response: answer },
    },
    ok,
  );
  app.get('/v1/account/decoy-public', { config: { policy: { auth: 'none', cache: 'no-store' } }, schema: { tags: ['operations'], summary: 'decoy', response: answer } }, ok);
  app.post(
    '/v1/decoy-admin/:thing_id',
    {
      config: { policy: { auth: 'admin', cache: 'no-store', errors: ['CONFLICT'] } },
      schema: { tags: ['admin'], summary: 'decoy', params: Type.Object({ thing_id: Type.String() }), response: answer },
    },
    ok,
  );
  app.get(
    '/v1/references/decoy-paid',
    { config: { policy: { auth: 'client', tier: 'odds-stream', limit: 'account', usage: 'trends', cache: 'no-store' } }, schema: { tags: ['trends'], summary: 'decoy', response: answer } },
    ok,
  );
}

describe.each(DIALECTS)('route policies (%s)', (dialect) => {
  let t: Harness;
  let routes: AddedRoute[];
  let doc: Json;
  beforeAll(async () => {
    ({ built: t, routes } = await recordRoutes(() => harness({ dialect, routes: decoys })));
    doc = (await t.anonymous.get('/openapi.json')).json<Json>();
  });
  afterAll(async () => t.close());

  const operation = (method: string, url: string) => obj(obj(obj(doc.paths)[url.replace(/:(\w+)/g, '{$1}')])[method.toLowerCase()]);
  const statuses = (method: string, url: string) => Object.keys(obj(operation(method, url).responses));
  const headersOf = (method: string, url: string, status: string) => Object.keys(obj(obj(obj(operation(method, url).responses)[status]).headers));
  const usageOf = async (apiKey: string) => {
    const usage = await t.as({ apiKey }).get('/v1/account/usage');
    return usage.json<{ days: Array<{ by_group: Record<string, number> }> }>().days.at(-1)?.by_group;
  };

  it('a route without a policy stops the start-up, in one line naming it', async () => {
    const forgotten = async (app: App) => {
      app.get('/v1/forgotten', { schema: { tags: ['trends'], summary: 'forgotten' } }, async () => ({}));
    };
    const failed: unknown = await harness({ dialect, routes: forgotten }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    const message = failed instanceof Error ? failed.message : '';
    expect(message).toMatch(/^GET \/v1\/forgotten has no policy: declare config.policy/);
    expect(message).not.toContain('\n');
  });

  it('a route that names its own security in its schema stops the start-up too: the policy decides it', async () => {
    const own = async (app: App) => {
      const schema: FastifySchema = { tags: ['trends'], summary: 'own', security: CLIENT_SECURITY };
      app.get('/v1/own-security', { config: { policy: { auth: 'none', cache: 'no-store' } }, schema }, async () => ({}));
    };
    await expect(harness({ dialect, routes: own })).rejects.toThrow(/^GET \/v1\/own-security names its security or tiers in its schema/);
  });

  it('documents each route as its policy says, whatever its path and its field names', () => {
    expect(operation('GET', '/admin/v1/decoy-data').security).toEqual(CLIENT_SECURITY);
    expect(statuses('GET', '/admin/v1/decoy-data')).toEqual(expect.arrayContaining(['401', '429']));
    // An admin-looking path, a `team_keys` field: neither makes a 403, 404 or 409 the policy does not declare.
    for (const status of ['403', '404', '409']) expect(statuses('GET', '/admin/v1/decoy-data')).not.toContain(status);
    expect(headersOf('GET', '/admin/v1/decoy-data', '200')).toEqual(expect.arrayContaining(RATE_LIMIT_HEADERS));

    expect(operation('GET', '/v1/account/decoy-public').security).toBeUndefined();
    for (const status of ['401', '403', '404', '429']) expect(statuses('GET', '/v1/account/decoy-public')).not.toContain(status);
    expect(headersOf('GET', '/v1/account/decoy-public', '200')).toEqual([]);

    expect(operation('POST', '/v1/decoy-admin/:thing_id').security).toEqual(ADMIN_SECURITY);
    expect(statuses('POST', '/v1/decoy-admin/:thing_id')).toEqual(expect.arrayContaining(['401', '404', '409']));
    // Wrong admin tokens count as failed logins of their address: past the limit, a 429.
    expect(statuses('POST', '/v1/decoy-admin/:thing_id')).toContain('429');
    expect(obj(obj(operation('POST', '/v1/decoy-admin/:thing_id').responses)['409']).$ref).toBe('#/components/responses/Conflict');

    expect(operation('GET', '/v1/references/decoy-paid')['x-required-tiers']).toEqual(['pro', 'enterprise']);
    expect(statuses('GET', '/v1/references/decoy-paid')).toEqual(expect.arrayContaining(['401', '403', '429']));
    // What the document is told is not published.
    expect(JSON.stringify(doc)).not.toContain('x-answers');
  });

  it('enforces each route as its policy says, whatever its path', async () => {
    const free = await t.client({ tier: 'free' });
    const pro = await t.client({ tier: 'pro' });

    expect((await t.anonymous.get('/admin/v1/decoy-data')).statusCode).toBe(401);
    const data = await t.as({ apiKey: free.apiKey }).get('/admin/v1/decoy-data');
    expect(data.statusCode).toBe(200);
    expect(data.headers['cache-control']).toBe('private, no-cache');
    expect(data.headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=5000;w=86400');

    const open = await t.anonymous.get('/v1/account/decoy-public');
    expect(open.statusCode).toBe(200);
    expect(open.headers['cache-control']).toBe('no-store');
    expect(open.headers.ratelimit).toBeUndefined();

    expect((await t.as({ apiKey: pro.apiKey }).post('/v1/decoy-admin/1')).statusCode).toBe(401);
    expect((await t.admin.post('/v1/decoy-admin/1')).statusCode).toBe(200);

    // Refused for its tier before it is charged: no rate-limit fields, nothing counted.
    const refused = await t.as({ apiKey: free.apiKey }).get('/v1/references/decoy-paid');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: 'the odds stream is for the pro and enterprise tiers; this client is on the free tier' } });
    expect(refused.headers.ratelimit).toBeUndefined();
    const paid = await t.as({ apiKey: pro.apiKey }).get('/v1/references/decoy-paid');
    expect(paid.statusCode).toBe(200);
    expect(paid.headers['cache-control']).toBe('no-store');
    // Charged against the minute only, as its `account` limit says.
    expect(paid.headers['ratelimit-policy']).toBe('"minute";q=600;w=60');

    // Counted in the groups the policies name (the usage call itself counts under account).
    expect(await usageOf(free.apiKey)).toEqual({ references: 1, events: 0, odds: 0, trends: 0, results: 0, account: 1 });
    expect(await usageOf(pro.apiKey)).toEqual({ references: 0, events: 0, odds: 0, trends: 1, results: 0, account: 1 });
  });

  it('documents every route of the app as its policy says: security, tiers, error responses, headers', () => {
    const documented = routes.filter((route) => route.method !== 'HEAD' && route.options.schema?.hide !== true);
    expect(documented.length).toBeGreaterThan(50);
    for (const { method, url, options } of documented) {
      const where = `${method} ${url}`;
      const policy: RoutePolicy | undefined = options.config?.policy;
      if (policy === undefined) throw new Error(`${where} has no policy`);
      const op = operation(method, url);
      const codes = statuses(method, url);
      const declared = (policy.errors ?? []).map((code) => String(ERROR_STATUS[code]));
      expect(codes, where).toEqual(expect.arrayContaining(declared));
      const success = codes.filter((status) => /^[23]/.test(status));
      if (policy.auth === 'client') {
        expect(op.security, where).toEqual(CLIENT_SECURITY);
        expect(codes, where).toEqual(expect.arrayContaining(['401', '429']));
        const tiers = tiersWith(policy.tier);
        // A field with a tier rule of its own (as_of) makes the operation answer 403 too.
        const gatedField = Object.values(policy.fields ?? {}).some((entitlement) => tiersWith(entitlement).length < 3);
        if (tiers.length < 3) {
          expect(op['x-required-tiers'], where).toEqual(tiers);
          expect(codes, where).toContain('403');
        } else {
          expect(op['x-required-tiers'], where).toBeUndefined();
          if (gatedField) expect(codes, where).toContain('403');
          else expect(codes, where).not.toContain('403');
        }
        for (const status of success) expect(headersOf(method, url, status), `${where} ${status}`).toEqual(expect.arrayContaining(RATE_LIMIT_HEADERS));
      } else {
        expect(op['x-required-tiers'], where).toBeUndefined();
        for (const status of success) expect(headersOf(method, url, status), `${where} ${status}`).not.toContain('RateLimit');
        if (policy.auth === 'admin') {
          expect(op.security, where).toEqual(ADMIN_SECURITY);
          expect(codes, where).toEqual(expect.arrayContaining(['401', '404']));
          expect(codes, where).toContain('429');
        } else {
          expect(op.security, where).toEqual(policy.auth === 'none' ? policy.security : undefined);
          // A standard endpoint documents its own errors, in its standard's format.
          const standard = op[STANDARD_ENDPOINT] !== undefined;
          if (!standard && !declared.includes('401')) expect(codes, where).not.toContain('401');
          if (!standard && !declared.includes('429')) expect(codes, where).not.toContain('429');
        }
      }
    }
  });

  it('gives each route the steps its policy needs and no others', () => {
    for (const { method, url, options } of routes) {
      const policy = options.config?.policy;
      const steps = options.onRequest === undefined ? 0 : Array.isArray(options.onRequest) ? options.onRequest.length : 1;
      const expected = policy?.auth === 'client' ? (tiersWith(policy.tier).length < 3 ? 4 : 3) : policy?.auth === 'admin' || policy?.auth === 'session' ? 1 : 0;
      expect(steps, `${method} ${url}`).toBe(expected);
    }
  });
});
