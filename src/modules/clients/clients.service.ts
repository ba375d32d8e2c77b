import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { isUuid } from '../../platform/uuid.js';
import { iso } from '../../shared/wire.js';
import { type AuditActor, type AuditFields, LOCAL_OPERATOR, recordAudit } from '../audit/index.js';
import type { AuthMethod, ClientAccount, Tier } from '../auth/index.js';
import { lockedTransaction } from '../../platform/db/locked-transaction.js';
import { changeAccounts } from './account-change.js';
import { type ClientPatch, type ClientsRepository, createClientsRepository, patchedFields } from './clients.repository.js';
import { createCredentialsRepository, type LockedClient } from './credentials.repository.js';
import { newCredential } from './new-credential.js';

/**
 * Onboarding and management of client accounts: the one place that writes them. Each change takes
 * who makes it, for the audit log; in-process callers (the CLI) are the operator.
 */
export interface ClientsService {
  /** Creates a client with fresh credentials. The credentials are returned here and never again. */
  create(input: NewClient, actor?: AuditActor): Promise<CreatedClient>;
  /**
   * Creates a client only when there is none yet (the demo client of a first start), else
   * returns undefined. Two nodes starting at once on one empty database must create one.
   */
  createFirst(input: NewClient): Promise<CreatedClient | undefined>;
  /** The client, deleted or not; 404 when there is none. */
  get(id: string): Promise<ClientAccount>;
  /** How many clients there are. */
  count(): Promise<number>;
  /** The ids of the clients, oldest first; with `search`, of those whose name contains it. */
  listedIds(search?: string): Promise<string[]>;
  /** Clients by id, each with its credentials that are not deleted. */
  listed(ids: readonly string[]): Promise<ReadonlyMap<string, ClientAccount>>;
  /** Changes auth_method, tier, disabled or the limit overrides; takes effect on every node's next request. */
  update(id: string, patch: ClientPatch, actor?: AuditActor): Promise<ClientAccount>;
  /**
   * The emergency reset: replaces every API key and client secret with one new pair, moves the
   * credential generation (every access token issued before stops at once) and revokes every
   * refresh token. Logins racing it either finish first, and their tokens are revoked here,
   * or wait for it and fail (the login's check runs under the same lock: tokens.repository).
   */
  rotateCredentials(id: string, actor?: AuditActor): Promise<CreatedClient>;
  /**
   * Offboards a client: every credential and refresh token ends at once, and every later call
   * answers 401 client_deleted. The row stays (soft delete), so that its usage history keeps
   * its client for billing; nothing but credentials and tokens is touched. Deleting a deleted
   * client changes nothing.
   */
  delete(id: string, actor?: AuditActor): Promise<void>;
}

export interface NewClient {
  name: string;
  tier: Tier;
  authMethod: AuthMethod;
  /** An existing tenant; a new tenant is created when absent. */
  tenantId?: string | undefined;
}

export interface ClientCredentials {
  apiKey: string;
  clientSecret: string;
}

/** An account with credentials shown once: a new client's, or a reset's. */
interface CreatedClient {
  account: ClientAccount;
  credentials: ClientCredentials;
}

interface ClientsDeps {
  db: Kysely<Schema>;
  clock: Clock;
  changes: ChangeFeed;
}

export function createClientsService(deps: ClientsDeps): ClientsService {
  const repository = createClientsRepository(deps.db);
  const get = (id: string) => requireClient(repository, id);
  return {
    create: (input, actor = LOCAL_OPERATOR) => create(deps, input, actor),
    createFirst: (input) => createFirst(deps, input),
    get,
    count: () => repository.count(),
    listedIds: (search) => repository.listedIds(search),
    listed: (ids) => repository.listed(ids),
    update: async (id, patch, actor = LOCAL_OPERATOR) => {
      await update(deps, id, patch, actor);
      return get(id);
    },
    rotateCredentials: async (id, actor = LOCAL_OPERATOR) => {
      const credentials = await rotateCredentials(deps, id, actor);
      return { account: await get(id), credentials };
    },
    delete: (id, actor = LOCAL_OPERATOR) => offboard(deps, id, actor),
  };
}

async function requireClient(repository: ClientsRepository, id: string): Promise<ClientAccount> {
  // A client_id that is not a UUID names no client. It never reaches the database: PostgreSQL
  // fails on text with U+0000, so a `%00` in an admin path would be a 500 (decision 0032).
  const account = isUuid(id) ? await repository.findById(id) : undefined;
  if (!account) throw new ApiError('NOT_FOUND', 'no client with this client_id');
  return account;
}

/** Locks a client that may still be changed: 404 unknown, 409 deleted. */
async function lockLiveClient(trx: Kysely<Schema>, id: string): Promise<LockedClient> {
  const client = isUuid(id) ? await createCredentialsRepository(trx).lockClient(id, 'update') : undefined;
  if (!client) throw new ApiError('NOT_FOUND', 'no client with this client_id');
  if (client.deletedAt !== null) throw new ApiError('CONFLICT', 'this client has been deleted; it can no longer be changed');
  return client;
}

const freshClient = (deps: ClientsDeps, input: NewClient, actor: AuditActor): FreshClient => ({ id: randomUUID(), input, now: deps.clock.now(), actor });

async function create(deps: ClientsDeps, input: NewClient, actor: AuditActor): Promise<CreatedClient> {
  const fresh = freshClient(deps, input, actor);
  const credentials = await changeAccounts(deps, (trx) => insertClient(trx, fresh));
  return { account: await requireClient(createClientsRepository(deps.db), fresh.id), credentials };
}

async function createFirst(deps: ClientsDeps, input: NewClient): Promise<CreatedClient | undefined> {
  const { db, changes } = deps;
  if ((await createClientsRepository(db).count()) > 0) return undefined;
  const fresh = freshClient(deps, input, LOCAL_OPERATOR);
  const credentials = await lockedTransaction(db, async (trx) => {
    // The bump writes first: it takes the counter's row lock (PostgreSQL) or the write lock
    // (SQLite) before the count is read, so a second node waits here and then counts the
    // first node's client. (A bump without a change only drops caches.)
    await changes.bump(trx, 'clients');
    if ((await createClientsRepository(trx).count()) > 0) return undefined;
    return insertClient(trx, fresh);
  });
  await changes.changed('clients');
  return credentials && { account: await requireClient(createClientsRepository(db), fresh.id), credentials };
}

async function update(deps: ClientsDeps, id: string, patch: ClientPatch, actor: AuditActor): Promise<void> {
  await changeAccounts(deps, async (trx) => {
    await lockLiveClient(trx, id);
    const now = deps.clock.now();
    const clients = createClientsRepository(trx);
    const before = await clients.findById(id);
    await clients.update(id, patch, now);
    const after = await clients.findById(id);
    if (before && after) {
      // The fields that changed: a PATCH that sets what was already there changes nothing, and records nothing.
      const [was, is] = [patchedFields(patch, before), patchedFields(patch, after)];
      const changed = Object.keys(is).filter((field) => is[field] !== was[field]);
      if (changed.length > 0) {
        const only = (fields: typeof is) => Object.fromEntries(changed.map((field) => [field, fields[field] ?? null]));
        await recordAudit(trx, { clientId: id, action: 'client.updated', actor, at: now, before: only(was), after: only(is) });
      }
    }
  });
}

async function rotateCredentials(deps: ClientsDeps, id: string, actor: AuditActor): Promise<ClientCredentials> {
  const now = deps.clock.now();
  return changeAccounts(deps, async (trx) => {
    const client = await lockLiveClient(trx, id);
    const credentials = createCredentialsRepository(trx);
    await createClientsRepository(trx).setGeneration(id, client.generation + 1, now);
    await credentials.markDeleted({ clientId: id }, now);
    await credentials.revokeRefreshTokens({ clientId: id }, 'reset', now);
    const pair = await issuePair(trx, id, 'operator reset', now);
    await recordAudit(trx, {
      clientId: id,
      action: 'client.reset',
      actor,
      at: now,
      before: { credential_generation: client.generation },
      after: { credential_generation: client.generation + 1, ...pair.codes },
    });
    return pair.credentials;
  });
}

async function offboard(deps: ClientsDeps, id: string, actor: AuditActor): Promise<void> {
  const now = deps.clock.now();
  await changeAccounts(deps, async (trx) => {
    const credentials = createCredentialsRepository(trx);
    const client = isUuid(id) ? await credentials.lockClient(id, 'update') : undefined;
    if (!client) throw new ApiError('NOT_FOUND', 'no client with this client_id');
    if (client.deletedAt !== null) return;
    await createClientsRepository(trx).markDeleted(id, client.generation + 1, now);
    await credentials.markDeleted({ clientId: id }, now);
    await credentials.revokeRefreshTokens({ clientId: id }, 'client_deleted', now);
    await recordAudit(trx, { clientId: id, action: 'client.offboarded', actor, at: now, before: { deleted_at: null }, after: { deleted_at: iso(now) } });
  });
}

interface FreshClient {
  id: string;
  input: NewClient;
  now: number;
  actor: AuditActor;
}

/** Inserts the client (and its tenant when new) and its first pair of credentials in the caller's transaction. */
async function insertClient(trx: Kysely<Schema>, fresh: FreshClient): Promise<ClientCredentials> {
  const { id, input, now, actor } = fresh;
  const clients = createClientsRepository(trx);
  let tenantId = input.tenantId;
  if (tenantId === undefined) {
    tenantId = randomUUID();
    await clients.insertTenant(tenantId, now);
  } else if (!(await clients.tenantExists(tenantId))) {
    throw new ApiError('NOT_FOUND', 'no tenant with this tenant_id');
  }
  await clients.insert({ id, tenantId, name: input.name, tier: input.tier, authMethod: input.authMethod, now });
  const pair = await issuePair(trx, id, 'onboarding', now);
  const after = { name: input.name, tenant_id: tenantId, tier: input.tier, auth_method: input.authMethod, ...pair.codes };
  await recordAudit(trx, { clientId: id, action: 'client.onboarded', actor, at: now, before: null, after });
  return pair.credentials;
}

/**
 * A new API key and client secret for a client, inserted in `trx`; the plaintexts are returned
 * once, and their public codes for the audit log.
 */
async function issuePair(trx: Kysely<Schema>, clientId: string, name: string, now: number): Promise<{ credentials: ClientCredentials; codes: AuditFields }> {
  const key = newCredential({ clientId, kind: 'api_key', name, now });
  const secret = newCredential({ clientId, kind: 'client_secret', name, now });
  const credentials = createCredentialsRepository(trx);
  await credentials.insert(key.row);
  await credentials.insert(secret.row);
  return { credentials: { apiKey: key.plaintext, clientSecret: secret.plaintext }, codes: { key_code: key.row.code, secret_code: secret.row.code } };
}
