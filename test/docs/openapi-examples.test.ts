import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/modules/demo/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { generatorMoments, MOMENT_SCALE } from '../helpers/demo-clock.js';
import { adminHeaders } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { textOf } from '../helpers/bodies.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

interface ExampleRequest {
  method: 'GET' | 'POST';
  path: string;
  query: Record<string, string>;
  body: unknown;
  admin: boolean;
  /** The media type of the 200 answer. */
  media: string;
}

/**
 * The request "Try it out" in /docs sends for each read operation: the media type's example as
 * the body, and the parameters that carry an example or a default. An operation with a path
 * parameter without an example is left out: its example would name one client, and a client's id
 * is made at onboarding (`GET /admin/v1/clients` lists them).
 */
function exampleRequests(doc: Json): ExampleRequest[] {
  const requests: ExampleRequest[] = [];
  for (const [template, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item) || !/^\/(v1|admin\/v1)\//.test(template)) continue;
    for (const method of ['get', 'post'] as const) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const tags = Array.isArray(operation.tags) ? operation.tags : [];
      // Reads only: the token endpoints, the admin API's, the account's and the webhooks' POSTs write (a
      // new client, an import, a new key, secret or webhook endpoint); the token endpoints need credentials of their own.
      const writes = method === 'post' && (template.startsWith('/admin/') || template.startsWith('/v1/account/') || template.startsWith('/v1/webhooks'));
      // A quote calls the client's own check endpoint, which only the client registers (412 without one).
      const callsOut = template === '/v1/trends/flows/quote';
      if (tags.includes('authentication') || writes || callsOut) continue;
      const query: Record<string, string> = {};
      let path = template;
      for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
        if (!isObject(parameter) || (parameter.in !== 'query' && parameter.in !== 'path')) continue;
        const schema = isObject(parameter.schema) ? parameter.schema : {};
        const value = parameter.example ?? schema.example ?? schema.default;
        if (value === undefined) continue;
        if (parameter.in === 'path') path = path.replace(`{${String(parameter.name)}}`, encodeURIComponent(String(value)));
        else query[String(parameter.name)] = String(value);
      }
      if (path.includes('{')) continue;
      const body = isObject(operation.requestBody) && isObject(operation.requestBody.content) ? operation.requestBody.content['application/json'] : undefined;
      const ok = isObject(operation.responses) && isObject(operation.responses['200']) ? operation.responses['200'] : {};
      const media = Object.keys(isObject(ok.content) ? ok.content : {})[0] ?? 'application/json';
      requests.push({ method: method === 'get' ? 'GET' : 'POST', path, query, body: isObject(body) ? body.example : undefined, admin: path.startsWith('/admin/'), media });
    }
  }
  return requests;
}

/**
 * Every read operation has an example request that answers 200 with results on the demo
 * dataset, made at any hour of the day (the document's examples are fixed, the dataset moves
 * with the clock). The browser test (docs-page.test.ts) proves that /docs sends these requests.
 */
describe.each([
  { name: 'just after midnight UTC', now: Date.parse('2031-05-06T00:00:01Z'), scale: 0.1 },
  { name: 'at noon UTC', now: Date.parse('2031-05-06T12:00:00Z'), scale: 0.1 },
  { name: 'just before midnight UTC', now: Date.parse('2031-05-06T23:59:59Z'), scale: 0.1 },
  // The unusual days of a year, at the smallest scale the suites make the demo at.
  ...generatorMoments(MOMENT_SCALE).map((m) => ({ ...m, name: `on ${m.name}` })),
])('the examples of /openapi.json on the demo dataset made $name', ({ now, scale }) => {
  let t: Harness;
  let apiKey: string;
  beforeAll(async () => {
    t = await harness({ dialect: 'sqlite', clock: manualClock(now) });
    // A small part of the demo dataset, with its competitions: the examples must hold at any scale.
    await loadDemoData(t.ctx, { scale, competitions: true });
    // The steam moves and drops of the demo's price history are found after its imports, by their processor.
    await t.ctx.oddsMoves?.run();
    // Enterprise: every example answers, the signals' too.
    ({ apiKey } = await t.client({ tier: 'enterprise' }));
    // The client's own webhook endpoints are listed like its keys: it has one.
    expect((await t.as({ apiKey }).post('/v1/webhooks', { url: 'https://hooks.example.com/in', event_types: ['odds.changed'] })).statusCode).toBe(201);
  }, 60_000);
  afterAll(async () => t.close());

  it('every POST list has an example body; every read answers 200 with results', async () => {
    const doc = (await t.anonymous.get('/openapi.json')).json<Json>();
    const requests = exampleRequests(doc);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /v1/events/upcoming-events',
        'POST /v1/odds/upcoming-odds-by-event',
        'POST /v1/trends/flows',
        'POST /v1/trends/mixed-flows',
        'POST /v1/trends/flows-by-id',
        'GET /v1/trends/flow-graph-data/1',
        'GET /v1/references/teams',
      ]),
    );
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /v1/historical/events', 'POST /v1/odds/history-by-event', 'GET /v1/historical/odds/1.csv', 'GET /v1/historical/odds.json', 'GET /v1/stream/odds']),
    );
    for (const request of requests) {
      const where = `${request.method} ${request.path}`;
      if (request.method === 'POST') expect(request.body, `${where} has no example body`).toEqual(expect.any(Object));
      const options = {
        method: request.method,
        url: request.path,
        query: request.query,
        headers: request.admin ? adminHeaders : { 'x-api-key': apiKey },
        ...(request.body === undefined ? {} : { payload: request.body as Json }),
      };
      // An event stream never ends: its first bytes say it is open.
      const res = request.media === 'text/event-stream' ? await t.anonymous.eventStream(options) : await t.anonymous.request(options);
      expect(res.statusCode, `${where}: ${res.body}`).toBe(200);
      const text = textOf(res);
      if (request.media === 'text/event-stream') {
        expect(text, where).toMatch(/^retry: \d+\n/);
      } else if (request.media === 'text/csv' || request.media === 'application/x-ndjson') {
        // A header row (CSV) and at least one change.
        const lines = text.split('\n').filter((line) => line.trim() !== '');
        expect(lines.length, `${where} answered an empty file`).toBeGreaterThan(request.media === 'text/csv' ? 1 : 0);
      } else {
        const body = JSON.parse(text) as Json;
        for (const list of ['results', 'games']) if (list in body) expect((body[list] as unknown[]).length, `${where} answered an empty ${list}`).toBeGreaterThan(0);
        if ('changes' in body) expect((body.changes as unknown[]).length, `${where} answered an empty history`).toBeGreaterThan(0);
      }
    }
  });
});
