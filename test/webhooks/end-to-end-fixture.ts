import { Webhook } from 'standardwebhooks';
import { expect, vi } from 'vitest';
import { RETRY_DELAYS_MS, RETRY_JITTER } from '../../src/modules/webhooks/index.js';
import type { Caller, Harness } from '../helpers/harness.js';
import type { Received } from '../helpers/webhooks.js';

/** Past the latest a retry after `failures` failures can be due. */
export const pastRetry = (failures: number) => Math.ceil((RETRY_DELAYS_MS[failures - 1] ?? 0) * (1 + RETRY_JITTER)) + 1;

/** An endpoint as its client made it through POST /v1/webhooks: its id and the secret of that answer. */
export interface MadeEndpoint {
  id: string;
  secret: string;
}

export async function createEndpoint(client: Caller, url: string, eventTypes: string[]): Promise<MadeEndpoint> {
  const res = await client.post<MadeEndpoint>('/v1/webhooks', { url, event_types: eventTypes });
  expect(res.statusCode, res.body).toBe(201);
  const { id, secret } = res.json();
  return { id, secret };
}

/** What an import left, carried all the way: the board's changes stored, deliveries formed, then sent. */
export async function deliver(t: Harness): Promise<void> {
  await t.ctx.boardEvents.run();
  await t.ctx.webhookFormer.run();
  await t.ctx.webhooks.run();
}

export interface Body {
  type: string;
  timestamp: string;
  data: { sequence: number } & Record<string, unknown>;
}

export const bodyOf = (received: Received) => JSON.parse(received.body) as Body;
export const sequencesOf = (received: Received[]) => received.map((r) => bodyOf(r).data.sequence);
export const idsOf = (received: Received[]) => received.map((r) => String(r.headers['webhook-id']));

/**
 * The Standard Webhooks library's verify, as a receiver runs it at `at` (ms): the library
 * compares the message's timestamp with its own clock, which the test sets for the call.
 */
export function verifyAt(secret: string, received: Received, at: number, headers: Record<string, string> = received.headers as Record<string, string>): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(at);
    return new Webhook(secret).verify(received.body, headers);
  } finally {
    vi.useRealTimers();
  }
}
