import { WEBHOOK_PAYLOADS, payloadSchemaOf } from './webhook.payloads.js';

const HEADERS = {
  'webhook-id': "The message's id (`msg_…`): the same on every attempt of it; a receiver that has seen it may skip it.",
  'webhook-timestamp': 'When this attempt was signed, in seconds since 1970; a receiver refuses one far from its own clock.',
  'webhook-signature': 'One `v1,<base64 HMAC-SHA256>` per secret signing now, separated by spaces: two during the day after a rotation.',
};

/**
 * The OpenAPI 3.1 `webhooks` of the document: one operation per kind of message, the request this
 * service makes to a client's endpoint, with its body's schema and the Standard Webhooks headers.
 */
export function webhookOperations(): Record<string, unknown> {
  return Object.fromEntries(
    (Object.keys(WEBHOOK_PAYLOADS) as Array<keyof typeof WEBHOOK_PAYLOADS>).map((type) => [
      type,
      {
        post: {
          tags: ['webhooks'],
          summary: `A \`${type}\` message`,
          description: WEBHOOK_PAYLOADS[type].description,
          parameters: Object.entries(HEADERS).map(([name, description]) => ({ in: 'header', name, required: true, description, schema: { type: 'string' } })),
          requestBody: { required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(payloadSchemaOf(type))) as unknown } } },
          responses: { '2XX': { description: 'Received: any 2xx within the timeout. Anything else is a failure, retried (never for `webhook.test`).' } },
        },
      },
    ]),
  );
}
