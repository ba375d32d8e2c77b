import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { LruCache } from '../../platform/cache/lru.js';
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
 * Signs as the Standard Webhooks specification writes it: the headers webhook-id,
 * webhook-timestamp (seconds) and webhook-signature, one `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>` per secret, space-separated, so a receiver holding either secret during a
 * rotation verifies. The body is `{type, timestamp, data}`, built once around the stored data's
 * text and sent as signed. The call goes through the outbound guard: no private address unless
 * allowed, no redirect.
 */
export function createWebhookSender(deps: WebhookSenderDeps): WebhookSender {
  const { clock, rules, timeoutMs } = deps;
  const keys = keptKeys();
  return {
    async send(url, secrets, message) {
      const now = new Date(clock.now());
      const body = `{"type":${JSON.stringify(message.type)},"timestamp":"${now.toISOString()}","data":${message.dataJson}}`;
      const timestamp = String(Math.floor(now.getTime() / 1000));
      // Encoded once: the same bytes are signed and sent.
      const bytes = Buffer.from(body, 'utf8');
      const signature = secrets.map((secret) => signatureOf(keys(secret), message.id, timestamp, bytes)).join(' ');
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'sports-data-api-webhooks',
        'webhook-id': message.id,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      };
      const started = performance.now();
      const result = await postBytes(new URL(url), headers, bytes, { rules, timeoutMs, maxAnswerBytes: RESPONSE_EXCERPT_BYTES });
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

/**
 * One `v1,` signature, as the Standard Webhooks libraries compute it (the secret's base64 after
 * `whsec_` is the key). Node's own HMAC rather than the `standardwebhooks` package's signer, a
 * SHA-256 in JavaScript: the same text, a tenth of the time on a delivery of a few hundred
 * changes (docs/architecture.md, bench/signing.ts). The package verifies every delivery in the tests.
 */
export function signatureOf(secret: string | KeyObject, id: string, timestamp: string, body: string | Buffer): string {
  const key = typeof secret === 'string' ? keyOf(secret) : secret;
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

/** The HMAC key a secret names. */
function keyOf(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64'));
}

/** The keys of the secrets in use, each made once: a key made per signature was a third of signing's time. */
function keptKeys(): (secret: string) => KeyObject {
  const kept = new LruCache<string, KeyObject>(KEYS_KEPT);
  return (secret) => kept.getOrMake(secret, keyOf);
}

/** Keys kept: a current and a previous secret for each of a few hundred endpoints. */
const KEYS_KEPT = 1_024;

/** A new signing secret: `whsec_` and 32 random bytes in base64, as the specification writes secrets. */
export function newWebhookSecret(random: (bytes: number) => Buffer): string {
  return `whsec_${random(32).toString('base64')}`;
}
