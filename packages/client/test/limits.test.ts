import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientEvent, SportsDataClient, SportsDataError } from '../src/index.js';
import { type Captured, capturingFetch, runningClock, type Server, startServer } from './helpers/server.js';

/** A minute of the server's clock, `second` seconds in (the limiter counts fixed UTC minutes). */
const at = (minute: number, second: number) => Date.parse(`2030-01-15T12:${String(minute).padStart(2, '0')}:00Z`) + second * 1000;

/** The statuses of the data calls (the login aside). */
const sportsStatuses = (requests: Captured[]) => requests.filter((r) => r.url.endsWith('/v1/references/sports')).map((r) => r.status);

/**
 * The limits a client meets. The server's clock holds still at a chosen instant while a test
 * reads seconds off its answers (a busy machine would otherwise move them), and runs with real
 * time where a real wait of a second or two must end its minute; each test has its own client (an
 * operator's override of 2 requests a minute) and its own minute.
 */
describe('limits: RateLimit headers exposed, a 429 waited out, an AbortSignal ends the wait', () => {
  const clock = runningClock();
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ clock });
  });
  afterAll(async () => server.close());

  async function twoAMinute(): Promise<{ apiKey: string }> {
    const client = await server.t.client({ tier: 'pro' });
    await server.admin('PATCH', `/admin/v1/clients/${client.clientId}`, { rate_limit_per_minute: 2 });
    return client;
  }

  it('exposes the last RateLimit and X-RateLimit-* values it saw', async () => {
    clock.hold(at(0, 10));
    const { apiKey } = await twoAMinute();
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey, clock });
    expect(api.rateLimit).toBeUndefined();
    await api.references.sports();
    expect(api.rateLimit).toMatchObject({
      limit: 2,
      remaining: 1,
      resetSeconds: 50,
      closest: { name: 'minute', remaining: 1, resetSeconds: 50 },
      policies: [
        { name: 'minute', quota: 2, windowSeconds: 60 },
        { name: 'day', quota: 200_000, windowSeconds: 86_400 },
      ],
      retryAfterSeconds: undefined,
    });
    expect(api.rateLimit?.headers['ratelimit-policy']).toBe('"minute";q=2;w=60, "day";q=200000;w=86400');
  });

  it('a 429 with Retry-After is waited out and the call succeeds', async () => {
    clock.hold(at(1, 58.5));
    const { apiKey } = await twoAMinute();
    const events: ClientEvent[] = [];
    const { fetch, requests } = capturingFetch();
    // The clock runs from the 429 on: the client's real wait carries it into the next minute.
    const log = (e: ClientEvent) => {
      events.push(e);
      if (e.type === 'retry') clock.set(at(1, 58.5));
    };
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey, clock, fetch, log });
    await api.references.sports();
    await api.references.sports();
    const started = Date.now();
    const page = await api.references.sports();
    const waited = Date.now() - started;

    expect(page.results).toEqual([]);
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ type: 'retry', request: 'GET /v1/references/sports', attempt: 2, status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    // Retry-After: 2 (1.5 s of the minute were left, rounded up), stretched by at most 250 ms.
    expect(retry?.type === 'retry' && retry.delayMs).toBeGreaterThanOrEqual(2000);
    expect(waited).toBeGreaterThanOrEqual(1900);
    expect(sportsStatuses(requests)).toEqual([200, 200, 429, 200]);
    // The new minute's first answer, as the client saw it last.
    expect(api.rateLimit).toMatchObject({ limit: 2, remaining: 1 });
  });

  it('an AbortSignal cancels a call waiting out Retry-After, at once and without another request', async () => {
    clock.set(at(2, 20));
    const { apiKey } = await twoAMinute();
    const { fetch, requests } = capturingFetch();
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey, clock, fetch });
    await api.references.sports();
    await api.references.sports();
    const controller = new AbortController();
    const started = Date.now();
    const waiting = api.references.sports({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sportsStatuses(requests)).toEqual([200, 200, 429]);
  });

  it('a Retry-After beyond maxRetryAfterSeconds fails the call at once with the 429', async () => {
    clock.hold(at(3, 5));
    const { apiKey } = await twoAMinute();
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey, clock, maxRetryAfterSeconds: 10 });
    await api.references.sports();
    await api.references.sports();
    const started = Date.now();
    const error = await api.references.sports().catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(SportsDataError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfterSeconds: 55 });
    expect(api.rateLimit).toMatchObject({ remaining: 0, retryAfterSeconds: 55 });
  });
});
