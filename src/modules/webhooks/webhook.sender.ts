import { Webhook } from 'standardwebhooks';
import type { Clock } from '../../platform/clock.js';
import type { AddressRules } from '../../platform/outbound/address-rules.js';
import { postBytes } from '../../platform/outbound/safe-request.js';
import type { AttemptOutcome, WebhookMessage } from './webhook.types.js';

/** How much of an answer an attempt keeps: the deliveries page shows it, and nothing needs more. */
export const RESPONSE_EXCERPT_BYTES = 1_024;

/** Sends one message, signed under each secret given (the newest first), and says what came back. */
export interface WebhookSender {
  send(url: string, secrets: readonly string[], message: WebhookMessage): Promise<AttemptOutcome>;
}

export interface WebhookSenderDeps {
  clock: Clock;
  rules: AddressRules;
  /** An answer must come within this (a 2xx within it is success). */
  timeoutMs: number;
}

/**
 * Signs as the Standard Webhooks specification writes it, with its own library: the headers
 * webhook-id, webhook-timestamp (seconds) and webhook-signature, one `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>` per secret, space-separated, so a receiver holding either secret during a
 * rotation verifies. The body is `{type, timestamp, data}`, serialized once and sent as signed.
 * The call goes through the outbound guard: no private address unless allowed, no redirect.
 */
export function createWebhookSender(deps: WebhookSenderDeps): WebhookSender {
  const { clock, rules, timeoutMs } = deps;
  return {
    async send(url, secrets, message) {
      const now = new Date(clock.now());
      const body = JSON.stringify({ type: message.type, timestamp: now.toISOString(), data: message.data });
      const signature = secrets.map((secret) => new Webhook(secret).sign(message.id, now, body)).join(' ');
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'sports-data-api-webhooks',
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      };
      const started = performance.now();
      const result = await postBytes(new URL(url), headers, Buffer.from(body, 'utf8'), { rules, timeoutMs, maxAnswerBytes: RESPONSE_EXCERPT_BYTES });
      const latencyMs = Math.round(performance.now() - started);
      const attemptedAt = now.getTime();
      if (result.kind === 'answered') {
        return { attemptedAt, statusCode: result.status, latencyMs, responseExcerpt: result.excerpt.toString('utf8'), error: null };
      }
      const error = result.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : result.reason;
      return { attemptedAt, statusCode: null, latencyMs, responseExcerpt: '', error };
    },
  };
}

/** A new signing secret: `whsec_` and 32 random bytes in base64, as the specification writes secrets. */
export function newWebhookSecret(random: (bytes: number) => Buffer): string {
  return `whsec_${random(32).toString('base64')}`;
}
