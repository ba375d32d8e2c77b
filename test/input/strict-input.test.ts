import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDARD_ENDPOINT } from '../../src/platform/http/strict-input.js';
import { operationsOf, type Operation as DocumentOperation, type Parameter } from '../fuzz/openapi-operations.js';
import { DIALECTS } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { type Caller, type Harness, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

type Json = Record<string, unknown>;

interface Operation {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  op: Json;
}

const UNKNOWN = 'zz_unknown';

/**
 * The source imports, whose body is the source's own format (decision 0303): a body they read, sent
 * where the walk sends `{}`. Their query is strict as every other; a field of their body is the
 * source's, not ours, so they are left out of the unknown-body-field walk.
 */
const OWN_FORMAT: ReadonlyMap<string, { payload: string; contentType: string }> = new Map([
  ['POST /admin/v1/import/football-data', { payload: '', contentType: 'text/csv' }],
  ['POST /admin/v1/import/the-odds-api', { payload: '[]', contentType: 'application/json' }],
]);

/**
 * Ways of writing a number that are not decimal digits. Query strings and paths are text that
 * validation once coerced as JavaScript does (`Number('0x5')` is 5), so each of these was read as
 * an integer: `/v1/historical/odds/1e3.csv` was event 1000.
 */
const NOT_DECIMAL = ['1e1', '1E1', '0x5', '0b11', '0o7', '+3', '3.0', '1_0', 'Infinity', '-Infinity', '١'];
/** The same with blanks, which a header value cannot begin or end with (HTTP trims them). */
const WITH_BLANKS = [' 3', '3 ', '\t3', '1 0'];
/** And with line breaks, in a query string (in a path the router may not match them: a 404, methods-and-cors.test.ts). */
const WITH_LINE_BREAKS = ['3\n', '\r3'];

/**
 * An unknown or misplaced parameter, in the query or in the body of any endpoint, is
 * a 422 naming it — walked over every operation of the document, so a new endpoint is covered
 * without being listed. The standard OAuth endpoints follow RFC 6749 §3.2 instead (their tests).
 */
describe.each(DIALECTS)('strict input on every endpoint, and JSON bodies only (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  let operations: Operation[];
  let document: Json;
  let enterprise: Caller;

  beforeAll(async () => {
    t = await harness({ dialect });
    // Enterprise: every operation is open to it, the signals' too, so each answers on its input.
    client = await t.client({ authMethod: 'both', tier: 'enterprise' });
    enterprise = t.as(await t.client({ tier: 'enterprise', name: 'Many requests' }));
    const doc = (await t.anonymous.get<Json>('/openapi.json')).json();
    document = doc;
    operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      (['get', 'post', 'patch'] as const).flatMap((m) => {
        const op = (item as Json)[m];
        return op === undefined ? [] : [{ method: m.toUpperCase() as Operation['method'], path, op: op as Json }];
      }),
    );
  });
  afterAll(async () => t.close());

  const ours = () => operations.filter((o) => o.op[STANDARD_ENDPOINT] === undefined);

  /** What a refusal says, without the request id: two answers that say the same are equal. */
  interface Refusal {
    status: number;
    error: Json;
  }

  /**
   * `o` with `parameter` set to `value` as it is written into the request (escaped, unless `raw`),
   * every other parameter of its path well-formed. The enterprise client: this walk sends more
   * requests than a pro client's minute allows.
   */
  async function refusalWith(o: DocumentOperation, parameter: Parameter, value: string, raw = false): Promise<Refusal> {
    const written = raw ? value : encodeURIComponent(value);
    // The other path parameters well-formed: an enum's first value (a flow type), else 1.
    const wellFormedPath = (name: string) => {
      const schema = o.parameters.find((p) => p.in === 'path' && p.name === name)?.schema;
      return Array.isArray(schema?.enum) ? String(schema.enum[0]) : '1';
    };
    const path = o.path
      .replace(`{${parameter.name}}`, written)
      .replace('{client_id}', client.clientId)
      .replace(/\{([^}]+)\}/g, (_all, name: string) => wellFormedPath(name));
    // Every other required query parameter well-formed: what is refused is the one under test.
    const required = o.parameters.filter((p) => p.in === 'query' && p.required && p.name !== parameter.name).map((p) => `${p.name}=${String(p.schema.example ?? 1)}`);
    const tested = parameter.in === 'query' ? [`${parameter.name}=${written}`] : [];
    const query = tested.length + required.length > 0 ? `?${[...tested, ...required].join('&')}` : '';
    const caller = o.security === 'admin' ? t.admin : enterprise;
    const headers = parameter.in === 'header' ? { [parameter.name]: value } : {};
    const options = { method: o.method, url: `${path}${query}`, headers, ...(o.method === 'GET' || o.method === 'DELETE' ? {} : { payload: {} }) };
    // A stream that were opened would never end by itself: read its head only.
    const res = o.eventStream ? await caller.eventStream(options) : await caller.request(options);
    const body = JSON.parse(res.body || '{}') as { error?: Json };
    const { request_id: _requestId, ...error } = body.error ?? {};
    return { status: res.statusCode, error };
  }

  /** `o` at a well-formed path, so that what is refused is the query or the body under test; its caller. */
  function wellFormed(o: Operation): { url: string; caller: Caller } {
    const url = o.path.replace('{client_id}', client.clientId).replace(/\{[^}]+\}/g, '1');
    return { url, caller: url.startsWith('/admin/') ? t.admin : t.as(client) };
  }

  it('an unknown query parameter → 422 naming it, on every operation', async () => {
    expect(ours().length).toBeGreaterThan(15);
    for (const o of ours()) {
      const { url, caller } = wellFormed(o);
      const own = OWN_FORMAT.get(`${o.method} ${o.path}`);
      const body = own ? { headers: { 'content-type': own.contentType }, payload: own.payload } : o.method === 'GET' ? {} : { payload: {} };
      const res = await caller.request({ method: o.method, url: `${url}?${UNKNOWN}=1`, ...body });
      const error = expectError(res, 422, 'VALIDATION_ERROR', UNKNOWN);
      expect(error.message, `${o.method} ${o.path}`).toContain(UNKNOWN);
    }
  });

  it('an integer in a query string, a path or a header is decimal digits: written any other way it is a 400, as "abc" is', async () => {
    const integers = operationsOf(document).flatMap((o) => o.parameters.filter((p) => p.schema.type === 'integer').map((p) => ({ o, p })));
    // Paging, the reference filters, the history files' event and league, a flow, the stream's Last-Event-ID.
    expect(integers.map(({ p }) => `${p.in} ${p.name}`)).toEqual(
      expect.arrayContaining(['query page', 'query page_size', 'query sport_id', 'query league_id', 'path event_id', 'path fact_flow_id', 'header last-event-id']),
    );
    for (const { o, p } of integers) {
      const where = `${o.id} ${p.in} ${p.name}`;
      const notAnInteger = await refusalWith(o, p, 'abc');
      expect(notAnInteger.status, where).toBe(400);
      expect(notAnInteger.error, where).toMatchObject({ code: 'BAD_REQUEST', message: `${p.name} must be integer` });
      expect(notAnInteger.error.details, where).toContainEqual({ field: p.name, rule: 'type' });
      const values = [...NOT_DECIMAL, ...(p.in === 'header' ? [] : WITH_BLANKS), ...(p.in === 'query' ? WITH_LINE_BREAKS : [])];
      for (const value of values) expect(await refusalWith(o, p, value), `${where} = ${JSON.stringify(value)}`).toEqual(notAnInteger);
      // `+` in a query string is a blank: `?page=+3` is " 3".
      if (p.in === 'query') expect(await refusalWith(o, p, '+3', true), `${where} = +3 unescaped`).toEqual(notAnInteger);
      // Digits past the declared bound are an integer out of range: a 422 naming the bound.
      if (typeof p.schema.maximum === 'number') {
        const tooLarge = await refusalWith(o, p, String(p.schema.maximum + 1));
        expect(tooLarge.status, where).toBe(422);
        expect(tooLarge.error, where).toMatchObject({ code: 'VALIDATION_ERROR', message: `${p.name} must be at most ${p.schema.maximum}` });
      }
    }
  });

  it('decimal digits stay an integer, leading zeros included; a minus sign makes one below the minimum, a 422', async () => {
    const page = await t.as(client).get<Json>('/v1/references/sports?page_size=05&page=001');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ page: 1, page_size: 5 });
    const negative = await t.as(client).get('/v1/references/sports?page_size=-3');
    expect(expectError(negative, 422, 'VALIDATION_ERROR', { field: 'page_size', rule: 'minimum' }).message).toBe('page_size must be at least 1');
  });

  it('a body field in the query string of a POST list → 422 saying it belongs in the body', async () => {
    const res = await t.as(client).post('/v1/events/upcoming-events?league_key=nba');
    const error = expectError(res, 422, 'VALIDATION_ERROR', { field: 'league_key', rule: 'additionalProperties' });
    expect(error.message).toBe('league_key is not a query parameter: this endpoint reads it from the JSON body');
    for (const url of ['/v1/trends/flows?page=2', '/v1/trends/mixed-flows?page_size=5', '/v1/odds/upcoming-odds-by-event?event_id=1']) {
      const field = url.split('?')[1]?.split('=')[0] ?? '';
      const answer = await t.as(client).post(url, { event_id: 1 });
      expect(expectError(answer, 422, 'VALIDATION_ERROR', field).message, url).toContain('JSON body');
    }
  });

  it('an unknown body field → 422 naming it, on every operation with a body', async () => {
    const withBody = ours().filter((o) => o.method !== 'GET' && o.path !== '/v1/oauth/login' && !OWN_FORMAT.has(`${o.method} ${o.path}`));
    expect([...OWN_FORMAT.keys()].every((key) => ours().some((o) => `${o.method} ${o.path}` === key))).toBe(true);
    expect(withBody.length).toBeGreaterThan(8);
    const arrayBodies = new Set(operationsOf(document).filter((o) => o.body?.schema.type === 'array').map((o) => `${o.method} ${o.path}`));
    for (const o of withBody) {
      const { url, caller } = wellFormed(o);
      // A body that is a list (a quote's items) is refused for the unknown field of its item.
      const list = arrayBodies.has(`${o.method} ${o.path}`);
      const res = await caller.request({ method: o.method, url, payload: list ? [{ [UNKNOWN]: 1 }] : { [UNKNOWN]: 1 } });
      expectError(res, 422, 'VALIDATION_ERROR', { field: list ? `[0].${UNKNOWN}` : UNKNOWN, rule: 'additionalProperties' });
    }
  });

  it('an endpoint without a body takes none, or {}; anything else is refused', async () => {
    const me = t.as(client);
    expect((await me.post('/v1/auth/login')).statusCode).toBe(200);
    expect((await me.post('/v1/auth/login', {})).statusCode).toBe(200);
    expectError(await me.post('/v1/auth/login', { client_id: client.clientId }), 422, 'VALIDATION_ERROR', 'client_id');
    const notAnObject = await me.raw('POST', '/v1/auth/login', '[1]');
    expectError(notAnObject, 400, 'BAD_REQUEST', { field: 'body', rule: 'type' });
  });

  it('a GET with a body (filters sent the wrong way) → 422 naming the body', async () => {
    const res = await t.as(client).request({ method: 'GET', url: '/v1/references/teams', payload: { league_key: 'nba' } });
    expect(expectError(res, 422, 'VALIDATION_ERROR', { field: 'body', rule: 'absent' }).message).toBe(
      'GET takes no body: send the parameters in the query string',
    );
    expect((await t.anonymous.get('/healthz', { 'content-length': '0' })).statusCode).toBe(200);
  });

  it('GET lists: an unknown parameter beside known ones is still named', async () => {
    const res = await t.as(client).get('/v1/references/teams?league_key=nba&leauge_id=3');
    expectError(res, 422, 'VALIDATION_ERROR', 'leauge_id');
  });

  it('/v1/oauth/login ignores unknown fields, but grant_type must be client_credentials', async () => {
    const secretWith = (extra: Json) => ({ client_id: client.clientId, client_secret: client.clientSecret, ...extra });
    expect((await t.anonymous.post('/v1/oauth/login', secretWith({ scope: 'x', audience: 'y' }))).statusCode).toBe(200);
    expect((await t.anonymous.post('/v1/oauth/login', secretWith({ grant_type: 'client_credentials' }))).statusCode).toBe(200);
    for (const grant_type of ['refresh_token', 'password', '']) {
      const error = expectError(await t.anonymous.post('/v1/oauth/login', secretWith({ grant_type })), 422, 'VALIDATION_ERROR', { field: 'grant_type', rule: 'const' });
      expect(error.message).toBe('grant_type must be "client_credentials"');
    }
    expectError(await t.anonymous.post('/v1/oauth/login', secretWith({ grant_type: 5 })), 400, 'BAD_REQUEST', 'grant_type');
  });

  it('the refresh endpoints refuse unknown fields', async () => {
    for (const url of ['/v1/auth/refresh', '/v1/oauth/refresh']) {
      const res = await t.anonymous.post(url, { refresh_token: 'sdr_x', grant_type: 'refresh_token' });
      expectError(res, 422, 'VALIDATION_ERROR', { field: 'grant_type', rule: 'additionalProperties' });
    }
  });

  it('a CSV body is read by the football-data import only: every other operation with a body says to send JSON (decision 0303)', async () => {
    const others = ours().filter((o) => o.method !== 'GET' && `${o.method} ${o.path}` !== 'POST /admin/v1/import/football-data');
    expect(others.some((o) => o.path === '/admin/v1/mapping/aliases')).toBe(true);
    for (const o of others) {
      const { url, caller } = wellFormed(o);
      const res = await caller.raw(o.method, url, 'a,b\n1,2\n', 'text/csv');
      expect(expectError(res, 400, 'BAD_REQUEST').message, `${o.method} ${o.path}`).toBe('send the body as application/json');
    }
  });

  it('text/plain gets the same help as a form-encoded body: send it as application/json', async () => {
    const cases: Array<[string, string]> = [
      ['/v1/trends/flows', '{"page":1}'],
      ['/v1/events/upcoming-events', 'page=1'],
      ['/v1/oauth/login', `{"client_id":"${client.clientId}"}`],
      ['/v1/auth/refresh', 'sdr_x'],
    ];
    for (const [url, payload] of cases) {
      const answers = [];
      for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded']) {
        const res = await t.as(client).raw('POST', url, payload, type);
        answers.push(expectError(res, 400, 'BAD_REQUEST').message);
      }
      expect(new Set(answers), url).toEqual(new Set(['send the body as application/json']));
    }
  });
});
