import fc from 'fast-check';
import { isRecord, type Json, type Operation, type Parameter } from './openapi-operations.js';
import {
  asJson,
  type Body,
  type FuzzCredentials,
  type Headers,
  malformedBody,
  oddCredentials,
  oddHeaders,
  percentEncode,
  validCredentials,
  wrongMediaType,
} from './request-parts.js';
import { boundaryValue, type Hint, jsonText, RawJson, validObject, validValue, wrongTypeValue } from './schema-values.js';

/**
 * fast-check arbitraries of whole HTTP requests, built from the operations of `/openapi.json`:
 * for each operation, requests whose inputs are valid (and authenticated, so that the handler
 * runs on real data), at the boundaries, of the wrong type, missing, unknown, malformed, or
 * sent with odd credentials and headers; and stray requests (wrong methods, unknown paths).
 */

export interface FuzzSetup {
  credentials: FuzzCredentials;
  /** Dataset values for an input of an operation (`where` is path, query or body). */
  hint(operation: Operation, where: Parameter['in'] | 'body', field: string): readonly (string | number)[];
}

export interface FuzzRequest {
  /** The operation the request was generated from (`GET /v1/references/leagues`), or `stray`. */
  operation: string;
  /** What is odd about it: `valid`, `boundary`, `wrong-type`, … (for the statistics). */
  kind: string;
  method: string;
  url: string;
  headers: Headers;
  payload?: string;
}

/** What every input of one request is drawn from. */
type Mode = 'valid' | 'boundary' | 'wrong-type';

/** Every operation equally often, plus stray requests. */
export function requestArbitrary(operations: readonly Operation[], setup: FuzzSetup): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...operations.map((operation) => operationRequest(operation, setup)), strayRequest(operations, setup));
}

export function operationRequest(operation: Operation, setup: FuzzSetup): fc.Arbitrary<FuzzRequest> {
  const credentials = validCredentials(operation, setup.credentials);
  const request = (kind: string, mode: Mode, headers: fc.Arbitrary<Headers>, body: fc.Arbitrary<Body | undefined>, query = queryOf(operation, setup, mode)) =>
    fc.record({ path: pathOf(operation, setup, mode), query, headers, body }).map(
      ({ path, query: q, headers: h, body: b }): FuzzRequest => ({
        operation: operation.id,
        kind,
        method: operation.method,
        url: path + q,
        headers: b?.contentType === undefined ? h : { ...h, 'content-type': b.contentType },
        ...(b ? { payload: b.payload } : {}),
      }),
    );
  const validBody = bodyOf(operation, setup, 'valid');
  const kinds: Array<fc.WeightedArbitrary<FuzzRequest>> = [
    { weight: 4, arbitrary: request('valid', 'valid', credentials, validBody) },
    { weight: 3, arbitrary: request('boundary', 'boundary', credentials, bodyOf(operation, setup, 'boundary')) },
    { weight: 2, arbitrary: request('wrong-type', 'wrong-type', credentials, bodyOf(operation, setup, 'wrong-type')) },
    { weight: 2, arbitrary: request('odd-credentials', 'valid', oddCredentials(setup.credentials), validBody) },
    { weight: 1, arbitrary: request('odd-headers', 'valid', fc.tuple(credentials, oddHeaders()).map(([c, h]) => ({ ...h, ...c })), validBody) },
    { weight: 1, arbitrary: request('odd-query', 'valid', credentials, validBody, fc.tuple(queryOf(operation, setup, 'valid'), oddQuery()).map(([q, odd]) => joinQuery(q, odd))) },
  ];
  const bodySchema = operation.body?.schema;
  if (bodySchema !== undefined) {
    const text = validObject(bodySchema, bodyHint(operation, setup)).map(jsonText);
    kinds.push(
      { weight: 2, arbitrary: request('malformed-body', 'valid', credentials, malformedBody()) },
      { weight: 1, arbitrary: request('media-type', 'valid', credentials, text.chain(wrongMediaType)) },
      { weight: 1, arbitrary: request('unknown-fields', 'valid', credentials, unknownFields(text).chain(asJson)) },
    );
    const required = Array.isArray(bodySchema.required) ? bodySchema.required.map(String) : [];
    if (required.length > 0) {
      const missing = fc.tuple(validObject(bodySchema, bodyHint(operation, setup)), fc.constantFrom(...required));
      const body = missing.map(([object, name]) => jsonText({ ...object, [name]: undefined })).chain(asJson);
      kinds.push({ weight: 1, arbitrary: request('missing-required', 'valid', credentials, body) });
    }
  } else {
    // An operation without a body, sent one anyway.
    kinds.push({ weight: 1, arbitrary: request('unexpected-body', 'valid', credentials, fc.oneof(malformedBody(), asJson('{"page":1}'))) });
  }
  return fc.oneof(...kinds);
}

function bodyHint(operation: Operation, setup: FuzzSetup): Hint {
  return (field) => setup.hint(operation, 'body', field);
}

/** The path with each parameter filled in, percent-encoded, or raw when the value is a raw text. */
function pathOf(operation: Operation, setup: FuzzSetup, mode: Mode): fc.Arbitrary<string> {
  const parameters = operation.parameters.filter((p) => p.in === 'path');
  const values = parameters.map((p) => {
    const valid = validValue(p.schema, p.name, (field) => setup.hint(operation, 'path', field)).map((v) => percentEncode(String(v)));
    if (mode === 'valid') return valid;
    const raw = ['..', '.', '%2F', '%00', '%', '%zz', '%C0%AF', 'a%2Fb', 'a'.repeat(100), 'a'.repeat(101), 'a'.repeat(5_000)];
    const odd = fc.oneof(
      boundaryValue(p.schema, p.name).map((v) => percentEncode(typeof v === 'string' ? v : jsonText(v))),
      fc.constantFrom(...raw),
    );
    return fc.oneof({ weight: 1, arbitrary: valid }, { weight: 2, arbitrary: odd });
  });
  return fc.tuple(...values).map((filled) => {
    let path = operation.path;
    parameters.forEach((p, i) => {
      path = path.replace(`{${p.name}}`, filled[i] ?? '');
    });
    return path;
  });
}

/** The query string (with its `?`, or empty) of the operation's query parameters. */
function queryOf(operation: Operation, setup: FuzzSetup, mode: Mode): fc.Arbitrary<string> {
  const pairs = operation.parameters
    .filter((p) => p.in === 'query')
    .map((p) => {
      const value = queryValue(p, mode, (field) => setup.hint(operation, 'query', field)).map((texts) => texts.map((t) => `${percentEncode(p.name)}=${t}`));
      return p.required ? value : fc.option(value, { nil: [], freq: 2 });
    });
  return fc.tuple(...pairs).map((lists) => joinQuery('', lists.flat().join('&')));
}

/** One query parameter as encoded texts: several when repeated (an array), one otherwise. */
function queryValue(parameter: Parameter, mode: Mode, hint: Hint): fc.Arbitrary<string[]> {
  const valid = validValue(parameter.schema, parameter.name, hint).map((v) => [queryText(v)]);
  if (mode === 'valid') return valid;
  const odd =
    mode === 'boundary'
      ? fc.oneof(boundaryValue(parameter.schema, parameter.name).map((v) => [queryText(v)]), fc.constantFrom(...queryEdges(parameter.schema)).map((t) => [t]))
      : wrongTypeValue(parameter.schema).map((v) => (Array.isArray(v) ? v.map(queryText) : [queryText(v)]));
  return fc.oneof({ weight: 1, arbitrary: valid }, { weight: 2, arbitrary: odd });
}

function queryText(value: unknown): string {
  if (value instanceof RawJson) return percentEncode(value.text);
  if (typeof value === 'string') return percentEncode(value);
  if (value === null) return '';
  return percentEncode(typeof value === 'object' ? jsonText(value) : String(value));
}

/** Texts a query string carries that no JSON value maps to. */
function queryEdges(schema: Json): string[] {
  if (schema.type !== 'integer' && schema.type !== 'number') return ['%', '%zz', '%ff', '%C0%AF', '+', 'a+b'];
  return ['', '1.0', '1.5', '01', '0x10', '1e2', '%205', '5%20', '+5', '-0', '%D9%A3', '1_0', 'true', '5,6', 'Infinity', '-Infinity', 'NaN', '1e308', '9223372036854775808', '1e19'];
}

/** Parameters no operation declares, repeated ones, and broken percent-encoding. */
function oddQuery(): fc.Arbitrary<string> {
  return fc.constantFrom('&', '&&&', '=', 'page', 'page=', 'page=1&page=2', '%=1', '%zz=1', 'a=%ff', 'a[b]=1', '__proto__=1', 'constructor[prototype]=1', `a=${'b'.repeat(5_000)}`, 'x=1#frag', ';a=b');
}

function joinQuery(query: string, extra: string): string {
  const parts = [query.replace(/^\?/, ''), extra].filter((p) => p.length > 0);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** The JSON body, when the operation documents one; an optional body is sometimes left out. */
function bodyOf(operation: Operation, setup: FuzzSetup, mode: Mode): fc.Arbitrary<Body | undefined> {
  const body = operation.body;
  if (body === undefined) return fc.constant(undefined);
  const hint = bodyHint(operation, setup);
  const object = mode === 'valid' ? validObject(body.schema, hint) : mixedObject(body.schema, hint, mode);
  const json = object.map(jsonText).chain(asJson);
  return body.required ? json : fc.option(json, { nil: undefined, freq: 5 });
}

/** An object of the schema where each field is valid, or odd in the way of the mode (nested objects too). */
function mixedObject(schema: Json, hint: Hint, mode: Exclude<Mode, 'valid'>): fc.Arbitrary<Json> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const s = isRecord(property) ? property : {};
    const items = isRecord(s.items) ? s.items : undefined;
    const odd =
      items?.type === 'object'
        ? fc.array(mixedObject(items, hint, mode), { minLength: 1, maxLength: 3 })
        : mode === 'boundary'
          ? boundaryValue(s, name)
          : wrongTypeValue(s);
    model[name] = fc.oneof({ weight: 2, arbitrary: validValue(s, name, hint) }, { weight: 1, arbitrary: odd });
  }
  const required = (Array.isArray(schema.required) ? schema.required : []).map(String).filter((name) => name in model);
  return fc.record(model, { requiredKeys: required });
}

/** A valid object's text with fields no schema declares, prototype keys, or a field twice. */
function unknownFields(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const extras = ['"unknown_field":1', '"__proto__":{"page_size":1}', '"constructor":{"prototype":{"x":1}}', '"":null', '"page":1,"page":"2"', '"a\\u0000b":1'];
  return fc.tuple(text, fc.constantFrom(...extras)).map(([t, extra]) => (t === '{}' ? `{${extra}}` : `{${extra},${t.slice(1)}`));
}

/** Requests no operation documents: other methods on known paths, and unknown or odd paths. */
export function strayRequest(operations: readonly Operation[], setup: FuzzSetup): fc.Arbitrary<FuzzRequest> {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'];
  const wrongMethod = fc.constantFrom(...operations).chain((operation) => {
    const taken = new Set(operations.filter((o) => o.path === operation.path).map((o) => o.method));
    const others = methods.filter((m) => !taken.has(m as Operation['method']) && !(m === 'HEAD' && taken.has('GET')));
    return fc.tuple(fc.constantFrom(...others), pathOf(operation, setup, 'valid'), validCredentials(operation, setup.credentials)).map(
      ([method, url, headers]): FuzzRequest => ({ operation: 'stray', kind: 'wrong-method', method, url, headers }),
    );
  });
  // HEAD is answered for every GET route by Fastify itself.
  const head = fc.constantFrom(...operations.filter((o) => o.method === 'GET')).chain((operation) =>
    fc.tuple(pathOf(operation, setup, 'valid'), fc.oneof(validCredentials(operation, setup.credentials), fc.constant({}))).map(
      ([url, headers]): FuzzRequest => ({ operation: 'stray', kind: 'head', method: 'HEAD', url, headers }),
    ),
  );
  const paths = [
    '/',
    '/v1',
    '/v1/',
    '/v2/references/sports',
    '/v1/references',
    '/v1/references/sports/1',
    '/V1/REFERENCES/SPORTS',
    '//v1//references//sports',
    '/v1/references/sports/..',
    '/v1/references/%2e%2e/account/config',
    '/v1/references/sports%00',
    '/v1/references/sports;a=b',
    '/admin/v1/clients//credentials',
    '/admin/v1/import/',
    '/docs',
    '/docs/',
    '/docs/json',
    '/docs/static/index.html',
    '/docs/../openapi.json',
    '/openapi.json',
    '/openapi.yaml',
    '/metrics',
    '/%',
    '/%zz',
    '/.env',
    `/${'a'.repeat(2_000)}`,
  ];
  const unknownPath = fc.tuple(fc.constantFrom(...methods.filter((m) => m !== 'TRACE')), fc.oneof(fc.constantFrom(...paths), fc.webPath())).map(
    ([method, url]): FuzzRequest => ({ operation: 'stray', kind: 'unknown-path', method, url: url.startsWith('/') ? url : `/${url}`, headers: { 'x-api-key': setup.credentials.apiKey } }),
  );
  return fc.oneof(wrongMethod, head, unknownPath);
}
