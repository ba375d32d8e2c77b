import type { FastifyReply } from 'fastify';
import type { ReadCache } from '../cache/read-cache.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers with JSON rendered once per data version and kept in the read cache: a repeated
 * list request costs a cache lookup, not a query and a serialization. Kept as UTF-8 bytes, so
 * a hit does not even re-encode the text (a page of flows is ~15 KB). The renderer must build
 * exactly the documented shape (nothing strips extra fields from a pre-rendered body).
 */
export async function sendCachedJson(reply: FastifyReply, cache: ReadCache, key: string, render: () => Promise<unknown>): Promise<FastifyReply> {
  const body = cache.peek<Buffer>(key) ?? (await cache.get(key, async () => Buffer.from(JSON.stringify(await render()), 'utf8')));
  return reply.type(JSON_TYPE).send(body);
}
