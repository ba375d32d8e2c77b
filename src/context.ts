import type { Config } from './config.js';
import { createAuthenticator, type Authenticator } from './platform/auth/authenticate.js';
import { createKeyring, type Keyring } from './platform/auth/keyring.js';
import { type ChangeFeed, createChangeFeed } from './platform/cache/change-feed.js';
import { withRedisFanOut } from './platform/cache/change-feed-redis.js';
import { type Clock, systemClock } from './platform/clock.js';
import { createDraining, type Draining } from './platform/lifecycle/draining.js';
import { createRedisLink, type RedisLink } from './platform/redis/redis-link.js';
import type { Database } from './platform/db/database.js';
import { type ClientDirectory, createClientDirectory } from './modules/clients/client-directory.js';
import { type ClientsService, createClientsService } from './modules/clients/clients.service.js';
import { createKeyResolver, type KeyResolver } from './modules/references/key-resolver.js';
import { createReadCache, type ReadCache } from './platform/cache/read-cache.js';

/**
 * The composition root's services, shared by the HTTP app and the CLI. Feature modules build
 * their own services from these.
 */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly clock: Clock;
  readonly changes: ChangeFeed;
  readonly keyring: Keyring;
  readonly clients: ClientsService;
  readonly directory: ClientDirectory;
  readonly authenticator: Authenticator;
  /** Sports-data reads, cached per data version (every import bumps it). */
  readonly readCache: ReadCache;
  readonly keys: KeyResolver;
  /** The pub/sub connection when REDIS_URL is set (readiness reports its state). */
  readonly redis: RedisLink | undefined;
  /** Set on SIGTERM: /readyz answers 503 while the node drains. */
  readonly draining: Draining;
}

export function createContext(deps: { config: Config; database: Database; clock?: Clock }): AppContext {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  // With REDIS_URL, changes reach the other nodes through pub/sub; the poll stays as the fallback.
  const redis = config.redisUrl === undefined ? undefined : createRedisLink(config.redisUrl);
  const polled = createChangeFeed(database.db, config.changePollMs);
  const changes = redis ? withRedisFanOut(polled, redis) : polled;
  const keyring = createKeyring({
    secrets: config.jwtSecrets,
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    ttlSeconds: config.accessTokenTtl,
    clock,
  });
  const clients = createClientsService({ db: database.db, clock, changes });
  const directory = createClientDirectory(clients.repository, changes);
  const authenticator = createAuthenticator({ keyring, clients: directory });
  const readCache = createReadCache(changes);
  const keys = createKeyResolver(database.db, readCache);
  const draining = createDraining();
  return { config, database, clock, changes, keyring, clients, directory, authenticator, readCache, keys, redis, draining };
}
