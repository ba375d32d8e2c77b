import fc from 'fast-check';
import type { Operation } from './openapi-operations.js';

/**
 * Headers and bodies that are odd independently of any schema: credentials of the wrong shape
 * or twice, headers a proxy or a careless client sends, JSON that does not parse, bodies of the
 * wrong media type. Header values are what Node's HTTP parser can hand over (Latin-1, no CR,
 * LF or NUL, no surrounding blanks); two headers of one name arrive joined by ", ", except
 * Authorization, of which Node keeps the first.
 */

export interface FuzzCredentials {
  /** The API key of a real client (auth_method both), so that data calls reach the handlers. */
  apiKey: string;
  /** An access token of the same client. */
  accessToken: string;
  adminToken: string;
  /** API keys of other clients, which the run may disable, re-key or move to another auth_method. */
  otherApiKeys: readonly string[];
  /** Access tokens signed with the service's own key but carrying odd claims. */
  oddTokens: readonly string[];
}

export type Headers = Record<string, string>;

/** The credential that reaches an operation's handler. */
export function validCredentials(operation: Pick<Operation, 'security'>, credentials: FuzzCredentials): fc.Arbitrary<Headers> {
  switch (operation.security) {
    case 'client':
      return fc.constantFrom<Headers>({ 'x-api-key': credentials.apiKey }, { authorization: `Bearer ${credentials.accessToken}` });
    case 'api-key-only':
      return fc.constant({ 'x-api-key': credentials.apiKey });
    case 'admin':
      return fc.constant({ authorization: `Bearer ${credentials.adminToken}` });
    case 'none':
      return fc.constant({});
  }
}

/** Credentials that are missing, malformed, of the wrong kind, or sent twice. */
export function oddCredentials(credentials: FuzzCredentials): fc.Arbitrary<Headers> {
  const { apiKey, accessToken, adminToken } = credentials;
  const flipped = (s: string) => `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`;
  const authorizations = [
    '',
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    `bearer ${accessToken}`,
    `Bearer  ${accessToken}`,
    `Bearer ${accessToken} extra`,
    `Bearer ${flipped(accessToken)}`,
    `Bearer ${accessToken.split('.').slice(0, 2).join('.')}.`,
    'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4In0.',
    'Bearer a.b.c',
    `Bearer ${'A'.repeat(8_000)}`,
    `Bearer ${adminToken}`,
    `Bearer ${apiKey}`,
    `Bearer ${accessToken}, Bearer ${accessToken}`,
    ...credentials.oddTokens.map((token) => `Bearer ${token}`),
  ];
  const apiKeys = [
    '',
    'sdk_',
    flipped(apiKey),
    apiKey.toUpperCase(),
    `${apiKey}x`,
    apiKey.slice(0, -1),
    `${apiKey}, ${apiKey}`,
    `sds_${apiKey.slice(4)}`,
    accessToken,
    'x'.repeat(5_000),
    ...credentials.otherApiKeys,
  ];
  return fc.oneof(
    fc.constant({}),
    fc.constantFrom(...authorizations).map((authorization) => ({ authorization })),
    fc.constantFrom(...apiKeys).map((key) => ({ 'x-api-key': key })),
    headerText(200).map((authorization) => ({ authorization })),
    headerText(200).map((key) => ({ 'x-api-key': key })),
    fc.constant({ 'x-api-key': apiKey, authorization: `Bearer ${accessToken}` }),
    fc.constant({ 'x-api-key': apiKey, authorization: `Bearer ${adminToken}` }),
  );
}

/** Headers besides the credentials that clients, proxies and scanners send. */
export function oddHeaders(): fc.Arbitrary<Headers> {
  const values: Record<string, string[]> = {
    'x-request-id': ['', 'abc', 'x'.repeat(2_000), 'id with spaces', 'é\u00ff', '../../', '00000000-0000-0000-0000-000000000000'],
    accept: ['text/html', 'application/xml', '*/*', 'application/json;q=0', '', 'garbage/////'],
    'accept-encoding': ['gzip, br', 'identity;q=0', '*;q=0', 'x'.repeat(500)],
    'if-none-match': ['*', '"abc"', 'W/"x"', ''],
    'if-modified-since': ['Thu, 01 Jan 1970 00:00:00 GMT', 'yesterday'],
    range: ['bytes=0-10', 'bytes=-1', 'lines=1-2'],
    origin: ['https://evil.example', 'null'],
    cookie: ['a=b; c=d', '='.repeat(100)],
    'x-forwarded-for': ['1.2.3.4, 5.6.7.8', 'not an ip'],
    'x-forwarded-proto': ['gopher'],
    host: ['', 'example.com:99999', 'a'.repeat(300)],
    expect: ['100-continue', 'nonsense'],
    'x-http-method-override': ['DELETE'],
  };
  const entries = Object.entries(values).map(([name, options]) => fc.constantFrom(...options).map((value): [string, string] => [name, value]));
  return fc.uniqueArray(fc.oneof(...entries), { minLength: 1, maxLength: 4, selector: ([name]) => name }).map((pairs) => Object.fromEntries(pairs));
}

/** Latin-1 text as a header value can carry. */
export function headerText(maxLength: number): fc.Arbitrary<string> {
  const char = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c));
  return fc.string({ unit: char, maxLength }).map((s) => s.trim());
}

export interface Body {
  payload: string;
  contentType: string | undefined;
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'];

/** A JSON text sent as JSON (the media type in one of the forms clients write it). */
export function asJson(text: string): fc.Arbitrary<Body> {
  return fc.constantFrom(...JSON_TYPES).map((contentType) => ({ payload: text, contentType }));
}

/** Bodies that are not JSON, not whole, not an object, too large or too deep. */
export function malformedBody(): fc.Arbitrary<Body> {
  const texts = [
    '{',
    '{"page":',
    '{"a":1,}',
    "{'a':1}",
    '{a:1}',
    'undefined',
    'NaN',
    '[]',
    '"text"',
    '42',
    'null',
    'true',
    '{"a":1}{"b":2}',
    '{"a":1} trailing',
    '\ufeff{}',
    '\u0000',
    '{"a":"\u0000"}',
    '{"a":"\\ud800"}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"page":1,"page":2}',
    '{"a":1e999}',
    '[' .repeat(10_000) + ']'.repeat(10_000),
    '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
    ' ',
    '\n\n',
  ];
  return fc.oneof(
    fc.constantFrom(...texts).chain(asJson),
    fc.string({ maxLength: 50 }).chain(asJson),
    fc.constant({ payload: `{"x":"${'a'.repeat(1024 * 1024)}"}`, contentType: 'application/json' }),
  );
}

/** A well-formed JSON body under a media type that is not JSON, or none. */
export function wrongMediaType(text: string): fc.Arbitrary<Body> {
  const types = [
    undefined,
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/json-patch+json',
    'application/jsonx',
    'application/json;;',
    'application/json; charset=utf-16',
    '*/*',
    '',
  ];
  return fc.constantFrom(...types).map((contentType) => ({ payload: text, contentType }));
}

/** Percent-encodes every byte outside RFC 3986's unreserved set; lone surrogates become U+FFFD first. */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
