import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OnboardedClient } from '../../../test/helpers/clients.js';
import { type ClientEvent, SportsDataClient, SportsDataError } from '../src/index.js';
import { type Server, startServer } from './helpers/server.js';

type Fault = 'network' | 503 | 'hang';

/**
 * The real server behind a `fetch` that fails the first attempts of the given paths as told: a
 * network error, an answer 503 in the API's error shape, or no answer until aborted. The faults
 * are what a network or a proxy does; everything else is the server's.
 */
function faultyFetch(faults: Record<string, Fault[]>): { fetch: typeof fetch; attempts: string[] } {
  const attempts: string[] = [];
  const faulty: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    attempts.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    const fault = faults[url.pathname]?.shift();
    if (fault === 'network') throw new TypeError('fetch failed', { cause: new Error('connect ECONNRESET') });
    if (fault === 503) {
      const body = { error: { code: 'SERVICE_UNAVAILABLE', message: 'the node is shutting down', request_id: 'proxy-1' } };
      return new Response(JSON.stringify(body), { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' } });
    }
    if (fault === 'hang') {
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    }
    return fetch(input, init);
  };
  return { fetch: faulty, attempts };
}

describe('retries: reads after network errors, timeouts and 5xx, with backoff; never a POST that creates', () => {
  let server: Server;
  let client: OnboardedClient;
  beforeAll(async () => {
    server = await startServer();
    client = await server.t.client();
  });
  afterAll(async () => server.close());

  const clientWith = (faults: Record<string, Fault[]>, more: { timeoutMs?: number } = {}) => {
    const { fetch, attempts } = faultyFetch(faults);
    const events: ClientEvent[] = [];
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, fetch, retry: { baseDelayMs: 20 }, log: (e) => events.push(e), ...more });
    return { api, attempts, events };
  };

  it('a GET that meets a network error, then a 503, is sent again and succeeds', async () => {
    const { api, attempts, events } = clientWith({ '/v1/references/sports': ['network', 503] });
    expect((await api.references.sports()).total_count).toBe(0);
    expect(attempts.filter((a) => a === 'GET /v1/references/sports')).toHaveLength(3);
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries.map((e) => e.type === 'retry' && [e.attempt, e.code])).toEqual([
      [2, 'NETWORK_ERROR'],
      [3, 'SERVICE_UNAVAILABLE'],
    ]);
    // Jittered exponential backoff from 20 ms: 10–20 ms, then 20–40 ms.
    const delays = retries.map((e) => (e.type === 'retry' ? e.delayMs : -1));
    expect(delays[0]).toBeGreaterThanOrEqual(10);
    expect(delays[0]).toBeLessThanOrEqual(20);
    expect(delays[1]).toBeGreaterThanOrEqual(20);
    expect(delays[1]).toBeLessThanOrEqual(40);
  });

  it('a POST list is a read: retried too', async () => {
    const { api, attempts } = clientWith({ '/v1/events/upcoming-events': ['network'] });
    expect((await api.events.upcoming({ event_date: '2030-01-05' })).results).toEqual([]);
    expect(attempts.filter((a) => a === 'POST /v1/events/upcoming-events')).toHaveLength(2);
  });

  it('a POST that creates is not sent again after a network error: the key may exist', async () => {
    const { api, attempts } = clientWith({ '/v1/account/api-keys': ['network'] });
    const error = await api.account.apiKeys.create({ name: 'ci' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SportsDataError);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect((error as SportsDataError).message).toMatch(/POST \/v1\/account\/api-keys: fetch failed: connect ECONNRESET/);
    expect(attempts.filter((a) => a === 'POST /v1/account/api-keys')).toHaveLength(1);
  });

  it('an attempt past timeoutMs is a TIMEOUT; a read tries again, and gives up after maxRetries', async () => {
    const { api, attempts } = clientWith({ '/v1/account/config': ['hang', 'hang', 'hang'] }, { timeoutMs: 100 });
    const error = await api.account.config().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'TIMEOUT', message: 'GET /v1/account/config: no answer within 100 ms' });
    expect(attempts.filter((a) => a === 'GET /v1/account/config')).toHaveLength(3);

    // A call's own timeout wins over the client's.
    const patient = clientWith({ '/v1/account/config': ['hang', 'hang', 'hang'] }, { timeoutMs: 60_000 });
    const started = Date.now();
    await expect(patient.api.account.config({ timeoutMs: 50 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an abort during a backoff rejects with the abort reason', async () => {
    const { fetch } = faultyFetch({ '/v1/account/config': ['network'] });
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, fetch, retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 } });
    const controller = new AbortController();
    const call = api.account.config({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shutting down')), 100);
    await expect(call).rejects.toThrow('shutting down');
  });
});
