import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { CounterStore } from '../../platform/counters/counter-store.js';
import { ApiError } from '../../platform/errors.js';
import type { OutboundLimits, OutboundResult } from '../../platform/outbound/safe-request.js';
import { postJson } from '../../platform/outbound/safe-request.js';
import { type CheckEndpoints, isOwnSandbox, type QuoteTarget } from './check-endpoints.js';
import type { Hydrated } from './hydrate.js';
import type { QuoteItem, QuoteResult } from './quotes.schemas.js';
import { sandboxQuote } from './sandbox.js';

/** Calls to one check endpoint at once, per quote request: a batch of 50 must not open 50 connections to a client's server. */
const PARALLEL_CALLS = 8;
/** The largest answer read from a check endpoint. */
export const MAX_ANSWER_BYTES = 256 * 1024;
const MINUTE_MS = 60_000;

/** What each outbound call is counted and timed as: how it ended, or `capped` when the client's cap refused it. */
export interface QuoteMetrics {
  outboundCall(outcome: OutboundResult['kind'] | 'capped', seconds: number): void;
}

export interface QuoteService {
  quote(clientId: string, items: readonly QuoteItem[], ownOrigins: readonly string[], log: FastifyBaseLogger): Promise<QuoteResult[]>;
}

export interface QuoteServiceDeps {
  endpoints: CheckEndpoints;
  hydrate: (items: readonly QuoteItem[]) => Promise<Hydrated[]>;
  counters: CounterStore;
  clock: Clock;
  outbound: OutboundLimits;
  callsPerMinute: number;
  metrics: QuoteMetrics;
}

/**
 * Quotes a batch through the client's check endpoint: each item hydrated from our data, then sent
 * (one call per item, or one call with the array when the endpoint takes several), each answer
 * passed back in input order with its own status, so that one bad answer spoils only its item.
 */
export function createQuoteService(deps: QuoteServiceDeps): QuoteService {
  const { endpoints, hydrate, counters, clock, outbound, callsPerMinute, metrics } = deps;

  /** One outbound call, counted against the client's own cap of the minute, timed, and logged without its credential. */
  async function call(clientId: string, target: QuoteTarget, body: unknown, log: FastifyBaseLogger): Promise<OutboundResult | { kind: 'capped' }> {
    const started = clock.now();
    const taken = await counters.take([{ key: `ob:m:${clientId}`, windowMs: MINUTE_MS, limit: callsPerMinute }], started);
    if (!taken.allowed) {
      metrics.outboundCall('capped', 0);
      log.warn({ client_id: clientId, outbound: endpointOf(target.url), outcome: 'capped' }, 'outbound call refused: the client reached its calls of the minute');
      return { kind: 'capped' };
    }
    const t0 = performance.now();
    const result = await postJson({ url: target.url, headers: target.headers, body }, outbound);
    const seconds = (performance.now() - t0) / 1000;
    metrics.outboundCall(result.kind, seconds);
    log.info(
      { client_id: clientId, outbound: endpointOf(target.url), outcome: result.kind, status: 'status' in result ? result.status : null, ms: Math.round(seconds * 1000) },
      'outbound call',
    );
    return result;
  }

  return {
    async quote(clientId, items, ownOrigins, log) {
      const target = await endpoints.target(clientId);
      if (target === undefined) {
        throw new ApiError('PRECONDITION_FAILED', 'no check endpoint is set: set one with POST /v1/account/check-endpoint first');
      }
      const hydrated = await hydrate(items);
      const results: QuoteResult[] = items.map((item, index) => {
        const h = hydrated[index];
        return h?.payload === undefined ? fail(item, 404, 'NOT_FOUND', h?.problem ?? 'unknown flow') : fail(item, 500, 'INTERNAL_ERROR', 'not sent');
      });
      const ready = hydrated.flatMap((h, index) => (h.payload === undefined ? [] : [{ index, payload: h.payload }]));
      if (ready.length === 0) return results;

      if (isOwnSandbox(target.url, ownOrigins)) {
        // Our own stand-in answers in process: no connection, so no outbound range needs opening for it.
        // One answer per payload either way: with allow_multiple the array's entries are these answers in order.
        for (const { index, payload } of ready) results[index] = ok(itemAt(items, index), sandboxQuote(payload));
        return results;
      }

      if (target.allowMultiple) {
        const answer = await call(clientId, target, ready.map((r) => r.payload), log);
        const bodies = answer.kind === 'answered' && Array.isArray(answer.body) && answer.body.length === ready.length ? answer.body : undefined;
        ready.forEach(({ index }, position) => {
          const item = itemAt(items, index);
          results[index] =
            bodies !== undefined
              ? ok(item, bodies[position])
              : answer.kind === 'answered'
                ? fail(item, 502, 'UPSTREAM_ERROR', `the endpoint did not answer an array of ${ready.length}`)
                : failure(item, answer);
        });
        return results;
      }

      await inParallel(ready, PARALLEL_CALLS, async ({ index, payload }) => {
        const item = itemAt(items, index);
        const answer = await call(clientId, target, payload, log);
        results[index] = answer.kind === 'answered' ? ok(item, answer.body) : failure(item, answer);
      });
      return results;
    },
  };
}

function itemAt(items: readonly QuoteItem[], index: number): QuoteItem {
  const item = items[index];
  if (item === undefined) throw new Error(`no quote item at ${index}`);
  return item;
}

function ok(item: QuoteItem, body: unknown): QuoteResult {
  return { flow_id: item.flow_id, flow_type: item.flow_type, status: 200, body };
}

function fail(item: QuoteItem, status: number, code: string, message: string): QuoteResult {
  return { flow_id: item.flow_id, flow_type: item.flow_type, status, body: { error: { code, message } } };
}

function failure(item: QuoteItem, answer: Exclude<OutboundResult, { kind: 'answered' }> | { kind: 'capped' }): QuoteResult {
  switch (answer.kind) {
    case 'timeout':
      return fail(item, 504, 'UPSTREAM_TIMEOUT', 'the check endpoint did not answer in time');
    case 'capped':
      return fail(item, 429, 'RATE_LIMIT_EXCEEDED', 'the calls to your check endpoint this minute reached their cap');
    case 'refused':
      return fail(item, 502, 'UPSTREAM_REFUSED', `not called: ${answer.reason}`);
    case 'unusable':
    case 'failed':
      return fail(item, 502, 'UPSTREAM_ERROR', answer.reason);
  }
}

/** What a log line shows of an endpoint: its origin and path; a query string may hold a credential. */
function endpointOf(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** Runs `work` over every entry, at most `limit` at a time. */
async function inParallel<T>(entries: readonly T[], limit: number, work: (entry: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const entry = entries[next++];
      if (entry !== undefined) await work(entry);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, worker));
}
