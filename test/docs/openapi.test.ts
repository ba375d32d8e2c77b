import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_REASONS } from '../../src/modules/auth/index.js';
import { ADMIN_SECURITY, CLIENT_SECURITY } from '../../src/modules/policy/index.js';
import { ERROR_STATUS } from '../../src/platform/errors.js';
import { STANDARD_ENDPOINT } from '../../src/platform/http/strict-input.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { SPEC_ENDPOINTS } from './spec-endpoints.js';

type Json = Record<string, unknown>;

/** The /v1 operations that take no credential, as Odditt's do: the sandbox operator prices its input alone. */
const PUBLIC_V1 = ['POST /v1/trends/flows/quote-sandbox'];


/** The further endpoints: more data (docs/api.md) and operating the service (docs/operations.md). */
const DESIGN_OPERATIONS = [
  ['get', '/v1/references/leagues'],
  ['get', '/v1/references/players'],
  ['get', '/v1/references/operators'],
  ['get', '/v1/references/betting-markets'],
  ['post', '/v1/events/upcoming-events'],
  ['post', '/v1/odds/upcoming-odds-by-event'],
  ['post', '/admin/v1/clients'],
  ['get', '/admin/v1/clients'],
  ['get', '/admin/v1/clients/{client_id}'],
  ['patch', '/admin/v1/clients/{client_id}'],
  ['post', '/admin/v1/import'],
  ['get', '/healthz'],
  ['get', '/readyz'],
  ['get', '/metrics'],
  // The standard OAuth 2.0 endpoints.
  ['post', '/v1/oauth/token'],
  ['post', '/v1/oauth/revoke'],
  ['get', '/.well-known/oauth-authorization-server'],
] as const;

/** Several credentials per client (decision 0100): the client's own, and the operator's. */
const CREDENTIAL_OPERATIONS = [
  ['get', '/v1/account/api-keys'],
  ['post', '/v1/account/api-keys'],
  ['delete', '/v1/account/api-keys/{key_code}'],
  ['get', '/v1/account/secrets'],
  ['post', '/v1/account/secret'],
  ['delete', '/v1/account/secrets/{secret_code}'],
  ['get', '/admin/v1/clients/{client_id}/api-keys'],
  ['get', '/admin/v1/clients/{client_id}/secrets'],
  ['delete', '/admin/v1/clients/{client_id}/api-keys/{key_code}'],
  ['delete', '/admin/v1/clients/{client_id}/secrets/{secret_code}'],
  ['delete', '/admin/v1/clients/{client_id}'],
] as const;

/** page_size maxima (docs/api.md#lists-and-pagination): 25 on both flow endpoints, 100 on odds and on the rest. */
const PAGE_SIZE_MAXIMA = [
  ['post', '/v1/trends/flows', 25],
  ['post', '/v1/trends/mixed-flows', 25],
  ['post', '/v1/odds/upcoming-odds-by-event', 100],
  ['post', '/v1/events/upcoming-events', 100],
  ['post', '/v1/odds/history-by-event', 100],
  ['get', '/v1/historical/events', 100],
  ['get', '/v1/references/sports', 100],
  ['get', '/v1/references/leagues', 100],
  ['get', '/v1/references/teams', 100],
  ['get', '/v1/references/players', 100],
  ['get', '/v1/references/operators', 100],
  ['get', '/v1/references/betting-markets', 100],
] as const;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe.each(DIALECTS)('the OpenAPI document (%s)', (dialect) => {
  let t: Harness;
  let doc: Json;
  let operations: { method: string; path: string; op: Json }[];

  beforeAll(async () => {
    t = await harness({ dialect });
    const res = await t.anonymous.get('/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json<Json>();
    operations = Object.entries(obj(doc.paths)).flatMap(([path, item]) =>
      METHODS.filter((m) => obj(item)[m] !== undefined).map((method) => ({ method, path, op: obj(obj(item)[method]) })),
    );
  });
  afterAll(async () => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('has every endpoint of the contract and of operating the service, with its method', () => {
    const missing = [...SPEC_ENDPOINTS, ...DESIGN_OPERATIONS].filter(([method, path]) => obj(obj(doc.paths)[path])[method] === undefined);
    expect(missing.map(([m, p]) => `${m.toUpperCase()} ${p}`)).toEqual([]);
  });

  it('documents every credential endpoint: 409 CONFLICT on each change, 204 without a body, no credential in a listing', () => {
    const missing = CREDENTIAL_OPERATIONS.filter(([method, path]) => obj(obj(doc.paths)[path])[method] === undefined);
    expect(missing.map(([m, p]) => `${m.toUpperCase()} ${p}`)).toEqual([]);
    const responses = (method: string, path: string) => obj(obj(obj(obj(doc.paths)[path])[method]).responses);
    for (const [method, path] of CREDENTIAL_OPERATIONS) {
      const where = `${method.toUpperCase()} ${path}`;
      if (method !== 'get') expect(responses(method, path)['409'], where).toEqual({ $ref: '#/components/responses/Conflict' });
      if (method === 'delete') expect(obj(responses(method, path)['204']).content, where).toBeUndefined();
    }
    expect(obj(obj(obj(obj(obj(obj(doc.components).responses).Conflict).content)['application/json']).schema)).toBeDefined();
    // The items a listing shows: codes, names and previews, never a credential or a digest.
    const item = (path: string) => {
      const page = obj(obj(obj(obj(responses('get', path)['200']).content)['application/json']).schema);
      return Object.keys(obj(obj(obj(obj(page.properties).results).items).properties));
    };
    const items = [item('/v1/account/api-keys'), item('/v1/account/secrets')];
    expect(items[0]?.sort()).toEqual(['active', 'created_at', 'expires_at', 'key_code', 'last_used_at', 'name', 'preview']);
    expect(items[1]?.sort()).toEqual(['created_at', 'name', 'secret_code', 'secret_preview']);
  });

  it('hides the docs page, its assets and the document itself', () => {
    expect(Object.keys(obj(doc.paths)).filter((p) => p.startsWith('/docs') || p === '/openapi.json')).toEqual([]);
  });

  it('declares both client security schemes and the admin token, and every route uses the right one', () => {
    expect(obj(obj(doc.components).securitySchemes)).toMatchObject({
      ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      AdminToken: { type: 'http', scheme: 'bearer' },
    });
    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      if (path.startsWith('/admin/')) expect(op.security, where).toEqual(ADMIN_SECURITY);
      else if (PUBLIC_V1.includes(where)) expect(op.security, where).toBeUndefined();
      else if (path.startsWith('/v1/') && !list(op.tags).includes('authentication')) expect(op.security, where).toEqual(CLIENT_SECURITY);
    }
    expect(obj(obj(doc.paths)['/v1/auth/login']).post).toMatchObject({ security: [{ ApiKeyAuth: [] }] });
  });

  it('documents the error shape, and the error responses of every operation', () => {
    const error = obj(obj(obj(obj(obj(doc.components).schemas).Error).properties).error);
    const fields = obj(error.properties);
    expect(obj(fields.code).enum).toEqual(Object.keys(ERROR_STATUS));
    expect(obj(fields.reason).enum).toEqual([...UNAUTHORIZED_REASONS]);
    expect(obj(obj(fields.details).items)).toMatchObject({ required: ['field', 'rule'] });
    expect(error.required).toEqual(['code', 'message', 'request_id']);

    const unauthorized = obj(obj(obj(doc.components).responses).Unauthorized);
    expect(Object.keys(obj(unauthorized.headers))).toContain('WWW-Authenticate');
    expect(Object.keys(obj(obj(obj(obj(doc.components).responses).RateLimitExceeded).headers))).toContain('Retry-After');

    for (const { method, path, op } of operations) {
      const statuses = Object.keys(obj(op.responses));
      const where = `${method.toUpperCase()} ${path}: ${statuses.join(',')}`;
      expect(statuses, where).toContain('500');
      if (op[STANDARD_ENDPOINT] !== undefined) {
        // RFC 6749 §5.2's format for its own errors; only 408 and 431, written before any endpoint is known, in ours.
        for (const status of statuses.filter((s) => Number(s) >= 400 && s !== '408' && s !== '431')) {
          const schema = obj(obj(obj(obj(op.responses)[status]).content)['application/json']).schema;
          expect(obj(schema).title, `${where} ${status}`).toBe('OAuthError');
          expect(Object.keys(obj(obj(schema).properties)), `${where} ${status}`).toEqual(['error', 'error_description']);
        }
        continue;
      }
      if (PUBLIC_V1.includes(`${method.toUpperCase()} ${path}`)) expect(statuses, where).not.toContain('401');
      else if (path.startsWith('/v1/') || path.startsWith('/admin/')) expect(statuses, where).toContain('401');
      if (op.requestBody !== undefined || op.parameters !== undefined) expect(statuses, where).toEqual(expect.arrayContaining(['400', '422']));
      if (op.requestBody !== undefined) expect(statuses, where).toContain('413');
      if (path.startsWith('/admin/')) expect(statuses, where).toContain('404');
    }
    // Keys may name several records: the lookups document 409 AMBIGUOUS_LOOKUP.
    expect(Object.keys(obj(obj(obj(obj(doc.paths)['/v1/references/teams']).get).responses))).toEqual(expect.arrayContaining(['404', '409']));
  });

  it('shows the page_size maximum of every list endpoint', () => {
    for (const [method, path, max] of PAGE_SIZE_MAXIMA) {
      expect(pageSizeSchema(method, path), `${method.toUpperCase()} ${path}`).toMatchObject({ minimum: 1, maximum: max, default: 20 });
    }
  });

  it('shows fields with a default (page, page_size) as optional', () => {
    const teams = list(obj(obj(obj(doc.paths)['/v1/references/teams']).get).parameters).map((p) => obj(p));
    expect(teams.filter((p) => p.name === 'page' || p.name === 'page_size').map((p) => p.required)).toEqual([false, false]);
    const flows = obj(obj(obj(doc.paths)['/v1/trends/flows']).post);
    expect(obj(flows.requestBody).required).toBe(false);
    expect(list(obj(obj(obj(obj(flows.requestBody).content)['application/json']).schema).required)).not.toContain('page');
  });

  it('gives every operation a summary and a declared tag; every tag has a description', () => {
    const tags = list(doc.tags).map((tag) => obj(tag));
    expect(tags.map((tag) => tag.name)).toEqual(['authentication', 'account', 'references', 'events', 'odds', 'historical', 'results', 'signals', 'streams', 'webhooks', 'trends', 'admin', 'operations']);
    for (const tag of tags) expect(tag.description, String(tag.name)).toEqual(expect.any(String));
    const declared = new Set(tags.map((tag) => tag.name));
    const wrong = operations.filter(({ op }) => typeof op.summary !== 'string' || list(op.tags).length === 0 || !list(op.tags).every((tag) => declared.has(tag)));
    expect(wrong.map(({ method, path, op }) => `${method.toUpperCase()} ${path} ${JSON.stringify(op.tags)}`)).toEqual([]);
  });

  it('states the limits the server enforces: one over each documented page_size maximum is a 422 naming page_size', async () => {
    const { apiKey } = await t.client();
    for (const [method, path, max] of PAGE_SIZE_MAXIMA) {
      const headers = { 'x-api-key': apiKey };
      const res =
        method === 'get'
          ? await t.as({ headers }).request({ method: 'GET', url: path, query: { page_size: String(max + 1) } })
          : await t.as({ headers }).post(path, { page_size: max + 1 });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(422);
      expect(res.json<{ error: { details: unknown[] } }>().error.details, path).toContainEqual({ field: 'page_size', rule: 'maximum' });
    }
    const res = await t.admin.request({ method: 'GET', url: '/admin/v1/clients', query: { page_size: '0' } });
    expect(res.statusCode, res.body).toBe(422);
  });

  function pageSizeSchema(method: string, path: string): Json {
    const op = obj(obj(obj(doc.paths)[path])[method]);
    if (method === 'get') {
      const parameter = list(op.parameters).map((p) => obj(p)).find((p) => p.in === 'query' && p.name === 'page_size');
      return obj(parameter?.schema);
    }
    const schema = obj(obj(obj(obj(op.requestBody).content)['application/json']).schema);
    return obj(obj(schema.properties).page_size);
  }
});

function obj(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
