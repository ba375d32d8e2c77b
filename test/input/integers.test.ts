import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { referenceDataset } from '../fixtures/references.js';
import { type Caller, type Harness, harness } from '../helpers/harness.js';
import { onboardClient } from '../helpers/clients.js';
import { importDataset } from '../helpers/data.js';
import { injectEventStream } from '../helpers/event-stream-inject.js';

/**
 * Query strings are coerced to numbers, and "Infinity" coerced to Infinity
 * passed as an integer (`page_size=Infinity` answered 200 with `"page_size":null`, the admin
 * list's `page=1e308` a 500). Every integer is finite and inside its declared range, or 422.
 * An integer is written in decimal digits: "Infinity" and "1e308" are not one (400), while
 * digits too many for any bound are still out of range (422).
 */

type Json = Record<string, unknown>;

/** The largest page a client may ask for: far past any real list, small enough for every offset. */
const MAX_PAGE = 1_000_000;

function expect422(res: { statusCode: number; body: string; json: <T>() => T }, field: string): void {
  expect(res.statusCode, res.body).toBe(422);
  const { error } = res.json<{ error: { code: string; details: Array<{ field: string }> } }>();
  expect(error.code).toBe('VALIDATION_ERROR');
  expect(error.details.map((d) => d.field)).toContain(field);
}

function expect400(res: { statusCode: number; body: string; json: <T>() => T }, field: string): void {
  expect(res.statusCode, res.body).toBe(400);
  const { error } = res.json<{ error: { code: string; message: string; details: Array<{ field: string; rule: string }> } }>();
  expect(error).toMatchObject({ code: 'BAD_REQUEST', message: `${field} must be integer` });
  expect(error.details).toEqual([{ field, rule: 'type' }]);
}

describe.each(DIALECTS)('integers in query strings are finite and in range (%s)', (dialect) => {
  let t: Harness;
  let client: Caller;
  let apiKey: string;

  beforeAll(async () => {
    t = await harness({ dialect });
    await importDataset(t, { ...referenceDataset() });
    apiKey = (await onboardClient(t)).apiKey;
    client = t.as({ apiKey });
  });
  afterAll(async () => t.close());

  it.each(['9223372036854775808', '1'.padEnd(400, '0'), '-1'.padEnd(400, '0')])('page_size=%s and page=%s on a reference list → 422', async (value) => {
    expect422(await client.get(`/v1/references/sports?page_size=${value}`), 'page_size');
    expect422(await client.get(`/v1/references/sports?page=${value}`), 'page');
  });

  // Not decimal digits: not an integer at all, whatever JavaScript would make of it (strict-input.test.ts walks every parameter).
  it.each(['Infinity', '-Infinity', '1e308', '-1e308'])('page_size=%s and page=%s on a reference list → 400, as for any value that is not an integer', async (value) => {
    expect400(await client.get(`/v1/references/sports?page_size=${value}`), 'page_size');
    expect400(await client.get(`/v1/references/sports?page=${value}`), 'page');
  });

  it('sport_id=Infinity does not list every league: 400', async () => {
    for (const value of ['Infinity', '-Infinity', '1e308']) expect400(await client.get(`/v1/references/leagues?sport_id=${value}`), 'sport_id');
    expect422(await client.get(`/v1/references/leagues?sport_id=${'9'.repeat(400)}`), 'sport_id');
  });

  it.each(['1'.padEnd(400, '0'), '9223372036854775808'])('the admin list: page=%s → 422, not 500', async (value) => {
    expect422(await t.admin.get(`/admin/v1/clients?page=${value}`), 'page');
    expect422(await t.admin.get(`/admin/v1/clients?page_size=${value}`), 'page_size');
  });

  it.each(['Infinity', '1e308', '-Infinity'])('the admin list: page=%s → 400, not 500', async (value) => {
    expect400(await t.admin.get(`/admin/v1/clients?page=${value}`), 'page');
    expect400(await t.admin.get(`/admin/v1/clients?page_size=${value}`), 'page_size');
  });

  it('Last-Event-ID is an id like any other, at most 2^53 − 1: past it 422 naming the header, not a stream that never sends', async () => {
    const resume = (lastEventId: string) =>
      injectEventStream(t.app, { method: 'GET', url: '/v1/stream/odds', headers: { 'x-api-key': apiKey, 'last-event-id': lastEventId } });
    // 2^53 and 10^16 − 1 were read as ids no change will ever reach; 10^16 broke the header's pattern.
    for (const value of ['9007199254740992', '9999999999999999', '10000000000000000', '99999999999999999999']) {
      const res = await resume(value);
      expect(res.statusCode, value).toBe(422);
      const { error } = JSON.parse(res.body) as { error: { code: string; message: string; details: Array<{ field: string; rule: string }> } };
      expect(error, value).toMatchObject({ code: 'VALIDATION_ERROR', message: 'last-event-id must be at most 9007199254740991' });
      expect(error.details, value).toEqual([{ field: 'last-event-id', rule: 'maximum' }]);
    }
    expect((await resume('0')).statusCode).toBe(200);
    // Within the bound but past every change: the same 422, with the newest change's id as the bound.
    const ahead = await resume('9007199254740991');
    expect(ahead.statusCode).toBe(422);
    expect((JSON.parse(ahead.body) as { error: { details: unknown } }).error.details).toEqual([{ field: 'last-event-id', rule: 'maximum' }]);
  });

  it(`page is at most ${MAX_PAGE}: past the end is an empty page up to it, 422 beyond`, async () => {
    const last = await client.get(`/v1/references/sports?page=${MAX_PAGE}`);
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json<{ results: unknown[]; page: number }>()).toMatchObject({ results: [], page: MAX_PAGE });
    expect422(await client.get(`/v1/references/sports?page=${MAX_PAGE + 1}`), 'page');

    const lastClients = await t.admin.get(`/admin/v1/clients?page=${MAX_PAGE}&page_size=100`);
    expect(lastClients.statusCode, lastClients.body).toBe(200);
    expect422(await t.admin.get(`/admin/v1/clients?page=${MAX_PAGE + 1}`), 'page');

    const headers = { 'x-api-key': apiKey };
    for (const url of ['/v1/trends/flows', '/v1/events/upcoming-events']) {
      expect((await t.app.inject({ method: 'POST', url, headers, payload: { page: MAX_PAGE } })).statusCode, url).toBe(200);
      expect422(await t.app.inject({ method: 'POST', url, headers, payload: { page: MAX_PAGE + 1 } }), 'page');
    }
  });

  it('the document gives every integer a client sends a finite minimum and maximum', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<Json>();
    const schemas = obj(obj(doc.components).schemas);
    const unbounded: string[] = [];
    for (const [path, item] of Object.entries(obj(doc.paths))) {
      for (const [method, operation] of Object.entries(obj(item))) {
        const op = obj(operation);
        for (const parameter of list(op.parameters).map(obj)) {
          walk(parameter.schema, `${method} ${path} ${String(parameter.name)}`, schemas, unbounded);
        }
        for (const media of Object.values(obj(obj(op.requestBody).content))) walk(obj(media).schema, `${method} ${path} body`, schemas, unbounded);
      }
    }
    expect(unbounded).toEqual([]);
    // The bound is documented by the schema itself.
    const sports = list(obj(obj(obj(doc.paths)['/v1/references/sports']).get).parameters).map(obj);
    expect(obj(sports.find((p) => p.name === 'page')?.schema)).toMatchObject({ minimum: 1, maximum: MAX_PAGE });
  });
});

/** Collects every integer schema without a finite minimum and maximum, following $refs and nesting. */
function walk(schema: unknown, where: string, schemas: Json, found: string[], seen = new Set<unknown>()): void {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return;
  seen.add(schema);
  const s = schema as Json;
  if (typeof s.$ref === 'string') walk(schemas[s.$ref.replace('#/components/schemas/', '')], where, schemas, found, seen);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('integer') && !(Number.isFinite(s.minimum) && Number.isFinite(s.maximum))) found.push(where);
  for (const [key, value] of Object.entries(s)) {
    if (key === 'properties') for (const [name, property] of Object.entries(obj(value))) walk(property, `${where}.${name}`, schemas, found, seen);
    else if (['items', 'anyOf', 'oneOf', 'allOf'].includes(key)) {
      for (const sub of Array.isArray(value) ? value : [value]) walk(sub, `${where}[]`, schemas, found, seen);
    }
  }
}

function obj(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
