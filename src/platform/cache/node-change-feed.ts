import type { Kysely } from 'kysely';
import type { BackgroundJobs } from '../background.js';
import type { Schema } from '../db/schema.js';
import type { RedisLink } from '../redis/redis-link.js';
import { type ChangeFeed, createChangeFeed } from './change-feed.js';
import { withRedisFanOut } from './change-feed-redis.js';

/**
 * A serving process's change feed, owned by its background: the database poll, and with REDIS_URL
 * the fan-out through pub/sub (the poll stays as the fallback), whose start and stop also start
 * and stop the Redis link.
 */
export function createNodeChangeFeed(deps: { db: Kysely<Schema>; pollMs: number; redis: RedisLink | undefined; background: BackgroundJobs }): ChangeFeed {
  const polled = createChangeFeed(deps.db, deps.pollMs);
  return deps.background.own(deps.redis ? withRedisFanOut(polled, deps.redis) : polled);
}
