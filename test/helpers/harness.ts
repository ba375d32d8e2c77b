import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { type AppContext, createContext } from '../../src/context.js';
import type { AuthMethod, Tier } from '../../src/modules/auth/index.js';
import { adminHeaders, buildTestApp, type TestApp, type TestAppOptions } from './app.js';
import { onboardClient, type OnboardedClient } from './clients.js';
import { importDataset } from './data.js';
import { type InjectedAnswer, injectEventStream } from './event-stream-inject.js';
import type { Item, PageBody } from './responses.js';

/**
 * The one way a test talks to the app: `const h = await harness({ dialect })`, then
 * `h.as(client).get<T>(url)`, `h.admin.post(url, body)`, `h.login(client)`. Every answer goes
 * through the real app (`app.inject`) and is checked against /openapi.json by buildTestApp.
 */

/** An answer whose `json()` is typed as the route's body; still a plain inject response. */
export interface Answer<T = unknown> extends Omit<LightMyRequestResponse, 'json'> {
  json<U = T>(): U;
}

/** The error shape (docs/api.md#errors), for `json<ErrorBody>()` on an answer that failed. */
export interface ErrorBody {
  error: { code: string; message: string; request_id: string; reason?: string; details?: Array<{ field: string; rule?: string }> };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
export type Headers = Record<string, string>;

/** Who calls: a client's API key (an onboarded client is one), an access token, or headers as they are. */
export type Credential = { apiKey: string } | { accessToken: string } | { headers: Headers };

/** The calls of one caller. A body is sent as JSON; `request` sends anything else (raw bytes, forms). */
export interface Caller {
  readonly headers: Headers;
  get<T = unknown>(url: string, headers?: Headers): Promise<Answer<T>>;
  post<T = unknown>(url: string, body?: unknown, headers?: Headers): Promise<Answer<T>>;
  put<T = unknown>(url: string, body?: unknown, headers?: Headers): Promise<Answer<T>>;
  patch<T = unknown>(url: string, body?: unknown, headers?: Headers): Promise<Answer<T>>;
  delete<T = unknown>(url: string, headers?: Headers): Promise<Answer<T>>;
  /** A body sent as it is (malformed JSON, a form, bytes) with this content type. */
  raw<T = unknown>(method: Method, url: string, payload: string | Buffer, contentType?: string): Promise<Answer<T>>;
  /** Any request, with this caller's headers under the request's own. */
  request<T = unknown>(options: InjectOptions): Promise<Answer<T>>;
  /**
   * A request to an operation that answers an event stream, which never ends by itself: the
   * answer's head, and the whole of an error or the first chunk of a stream.
   */
  eventStream(options: InjectOptions): Promise<InjectedAnswer>;
  /** A call that must answer 200: its body. GET without a body, POST with one. */
  ok<T = unknown>(url: string, body?: unknown): Promise<T>;
  /** A list page that must answer 200. GET without a body, POST with one. */
  page<T = Item>(url: string, body?: unknown): Promise<PageBody<T>>;
  /**
   * Every id a list has, in order, following its pages of `pageSize`: by query string
   * without a body (GET lists), in the body with one (POST lists).
   */
  allIds(url: string, body?: Record<string, unknown>, pageSize?: number): Promise<number[]>;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_at: string;
  expires_in: number;
}

export interface Harness extends TestApp {
  /** The operator, with the admin token. */
  readonly admin: Caller;
  /** No credential at all. */
  readonly anonymous: Caller;
  as(credential: Credential): Caller;
  /** Onboards a client through the service the admin API and the CLI use (default: pro, both flows). */
  client(options?: { tier?: Tier; authMethod?: AuthMethod; name?: string }): Promise<OnboardedClient>;
  /** POST /v1/auth/login with the client's API key; asserts 200 and returns the pair. */
  login(client: { apiKey: string }): Promise<TokenPair>;
  /** POST /v1/oauth/login with the client's id and secret; asserts 200 and returns the pair. */
  oauthLogin(client: { clientId: string; clientSecret: string }): Promise<TokenPair>;
  /** Loads a dataset through POST /admin/v1/import; the upserted counts. */
  import(dataset: Record<string, unknown[]>): Promise<Record<string, number>>;
  /** A second context over the same database, as another node has: its changes reach this app only through the change feed. */
  otherNode(): AppContext;
}

export type HarnessOptions = TestAppOptions;

export async function harness(options: HarnessOptions): Promise<Harness> {
  return harnessOf(await buildTestApp(options));
}

/** The harness around an app a test built itself. */
export function harnessOf(t: TestApp): Harness {
  const as = (credential: Credential): Caller => callerOf(t, headersOf(credential));
  return Object.assign(t, {
    admin: callerOf(t, adminHeaders),
    anonymous: callerOf(t, {}),
    as,
    client: (options: { tier?: Tier; authMethod?: AuthMethod; name?: string } = {}) => onboardClient(t, options),
    login: async (client: { apiKey: string }) => pairOf(await as(client).post('/v1/auth/login')),
    oauthLogin: async (client: { clientId: string; clientSecret: string }) =>
      pairOf(await callerOf(t, {}).post('/v1/oauth/login', { client_id: client.clientId, client_secret: client.clientSecret })),
    import: (dataset: Record<string, unknown[]>) => importDataset(t, dataset),
    otherNode: () => createContext({ config: t.config, database: t.database }),
  });
}

function headersOf(credential: Credential): Headers {
  if ('apiKey' in credential) return { 'x-api-key': credential.apiKey };
  if ('accessToken' in credential) return { authorization: `Bearer ${credential.accessToken}` };
  return credential.headers;
}

function pairOf(res: Answer): TokenPair {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TokenPair>();
}

function callerOf(t: TestApp, own: Headers): Caller {
  const withOwn = (options: InjectOptions): InjectOptions => ({ ...options, headers: { ...own, ...(options.headers as Headers | undefined) } });
  const request = async <T>(options: InjectOptions): Promise<Answer<T>> => {
    const res: Answer<T> = await t.app.inject(withOwn(options));
    return res;
  };
  const send = <T>(method: Method, url: string, body: unknown, headers: Headers = {}) =>
    request<T>(
      body === undefined
        ? { method, url, headers }
        : { method, url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) },
    );
  const ok = async <T>(url: string, body?: unknown): Promise<T> => {
    const res = await send<T>(body === undefined ? 'GET' : 'POST', url, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const page = <T = Item>(url: string, body?: unknown) => ok<PageBody<T>>(url, body);
  return {
    headers: own,
    get: (url, headers) => send('GET', url, undefined, headers),
    post: (url, body, headers) => send('POST', url, body, headers),
    put: (url, body, headers) => send('PUT', url, body, headers),
    patch: (url, body, headers) => send('PATCH', url, body, headers),
    delete: (url, headers) => send('DELETE', url, undefined, headers),
    raw: (method, url, payload, contentType = 'application/json') => request({ method, url, headers: { 'content-type': contentType }, payload }),
    request,
    eventStream: (options) => injectEventStream(t.app, withOwn(options)),
    ok,
    page,
    async allIds(url, body, pageSize = 100) {
      const ids: number[] = [];
      for (let p = 1; ; p++) {
        const sep = url.includes('?') ? '&' : '?';
        const res = body === undefined ? await page(`${url}${sep}page=${p}&page_size=${pageSize}`) : await page(url, { ...body, page: p, page_size: pageSize });
        ids.push(...res.results.map((r) => r.id));
        if (p >= res.total_pages) return ids;
      }
    },
  };
}

/** The read suites' start: a harness with a dataset loaded, and one client calling with its API key. */
export interface Reader extends Caller {
  t: Harness;
  apiKey: string;
  close(): Promise<void>;
}

export async function reader(options: HarnessOptions & { dataset: Record<string, unknown[]> }): Promise<Reader> {
  const { dataset, ...appOptions } = options;
  const t = await harness(appOptions);
  await t.import(dataset);
  const { apiKey } = await t.client();
  return { ...t.as({ apiKey }), t, apiKey, close: () => t.close() };
}

/**
 * A harness (or reader) built before a suite's tests and closed after them, in one line inside a
 * describe: `const h = forSuite(() => harness({ dialect }))`. Read it only inside a test or a hook.
 */
export function forSuite<T extends { close(): Promise<void> }>(build: () => Promise<T>, timeout?: number): T {
  let built: T | undefined;
  beforeAll(async () => {
    built = await build();
  }, timeout);
  afterAll(async () => built?.close());
  const target = {};
  return new Proxy(target as T, {
    get(_target, key) {
      if (built === undefined) throw new Error('the suite has not started');
      return Reflect.get(built, key);
    },
  });
}
