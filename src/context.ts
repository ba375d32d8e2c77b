import type { Config } from './config.js';
import { type Background, createBackground } from './platform/background.js';
import { type ChangeFeed, createChangeFeed } from './platform/cache/change-feed.js';
import { createReadCache, type ReadCache } from './platform/cache/read-cache.js';
import { type Clock, systemClock } from './platform/clock.js';
import type { Database } from './platform/db/database.js';
import { type Authenticator, createAuthenticator, createKeyring, type Keyring } from './modules/auth/index.js';
import {
  type ClientDirectory,
  type ClientsService,
  createClientDirectory,
  createClientsService,
  createCredentialsService,
  createCredentialUsage,
  type CredentialsService,
} from './modules/clients/index.js';
import { createKeyResolver, type KeyResolver } from './modules/references/index.js';
import { createPurgeJob } from './modules/tokens/index.js';

/**
 * The composition root's services, shared by the HTTP app (app.ts) and the CLI. Only the
 * composition root knows the whole context: each service and each feature's routes are
 * given exactly the dependencies they use.
 */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly clock: Clock;
  readonly changes: ChangeFeed;
  readonly keyring: Keyring;
  readonly clients: ClientsService;
  /** The API keys and client secrets of each client (self-service, admin API, CLI). */
  readonly credentials: CredentialsService;
  /** Client accounts by id and API-key digest, cached and current ('clients' counter). */
  readonly directory: ClientDirectory;
  readonly authenticator: Authenticator;
  /** Sports-data reads, cached per data version (every import bumps it). */
  readonly readCache: ReadCache;
  readonly keys: KeyResolver;
  /**
   * The process's background jobs (change-feed polling, refresh-token purge, credentials'
   * last-use writes). Started and
   * stopped by whoever owns the context and serves with it; building an app starts nothing.
   */
  readonly background: Background;
}

export function createContext(deps: { config: Config; database: Database; clock?: Clock }): AppContext {
  const { config, database } = deps;
  const { db } = database;
  const clock = deps.clock ?? systemClock;
  const changes = createChangeFeed(db);
  const keyring = createKeyring({
    secrets: config.jwtSecrets,
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    ttlSeconds: config.accessTokenTtl,
    clock,
  });
  const clients = createClientsService({ db, clock, changes });
  const usage = createCredentialUsage({ db, clock });
  const credentials = createCredentialsService({ db, clock, changes, usage });
  const directory = createClientDirectory({ db, changes });
  const authenticator = createAuthenticator({ keyring, accounts: directory, clock, used: usage.used });
  const readCache = createReadCache(changes);
  const keys = createKeyResolver({ db, cache: readCache });
  const background = createBackground([changes, createPurgeJob({ db, clock }), usage]);
  return { config, database, clock, changes, keyring, clients, credentials, directory, authenticator, readCache, keys, background };
}
