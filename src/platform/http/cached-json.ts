import type { FastifyReply } from 'fastify';
import type { ReadCache } from '../cache/read-cache.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers with JSON rendered once per data version and kept in the read cache: a repeated
 * list request costs a cache lookup, not a query and a serialization. The renderer must build
 * exactly the documented shape (nothing strips extra fields from a pre-rendered string).
 */
export async function sendCachedJson(reply: FastifyReply, cache: ReadCache, key: string, render: () => Promise<unknown>): Promise<FastifyReply> {
  const body = cache.peek<string>(key) ?? (await cache.get(key, async () => JSON.stringify(await render())));
  return reply.type(JSON_TYPE).send(body);
}
