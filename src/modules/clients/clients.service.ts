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
import { type ClientPatch, createClientsRepository, patchColumns, patchedFields } from './clients.repository.js';
import { credentialsQueries as q, type LockedClient } from './credentials.repository.js';
import { newCredential } from './new-credential.js';

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

/** Onboarding and management of client accounts: the one place that writes them. */
export function createClientsService(deps: { db: Kysely<Schema>; clock: Clock; changes: ChangeFeed }) {
  const { db, clock, changes } = deps;
  const repository = createClientsRepository(db);

  const newClient = (input: NewClient, actor: AuditActor): FreshClient => ({ id: randomUUID(), input, now: clock.now(), actor });

  async function requireClient(id: string): Promise<ClientAccount> {
    // A client_id that is not a UUID names no client. It never reaches the database: PostgreSQL
    // fails on text with U+0000, so a `%00` in an admin path would be a 500 (decision 0032).
    const account = isUuid(id) ? await repository.findById(id) : undefined;
    if (!account) throw new ApiError('NOT_FOUND', 'no client with this client_id');
    return account;
  }

  /** Locks a client that may still be changed: 404 unknown, 409 deleted. */
  async function lockLiveClient(trx: Kysely<Schema>, id: string): Promise<LockedClient> {
    const client = isUuid(id) ? await q.lockClient(trx, id, 'update') : undefined;
    if (!client) throw new ApiError('NOT_FOUND', 'no client with this client_id');
    if (client.deletedAt !== null) throw new ApiError('CONFLICT', 'this client has been deleted; it can no longer be changed');
    return client;
  }

  return {
    /**
     * Creates a client with fresh credentials. The credentials are returned here and never again.
     * Each change takes who makes it, for the audit log; in-process callers (the CLI) are the operator.
     */
    async create(input: NewClient, actor: AuditActor = LOCAL_OPERATOR): Promise<{ account: ClientAccount; credentials: ClientCredentials }> {
      const fresh = newClient(input, actor);
      const credentials = await changeAccounts(deps, (trx) => insertClient(trx, fresh));
      return { account: await requireClient(fresh.id), credentials };
    },

    /**
     * Creates a client only when there is none yet (the demo client of a first start), else
     * returns undefined. Two nodes starting at once on one empty database must create one.
     */
    async createFirst(input: NewClient): Promise<{ account: ClientAccount; credentials: ClientCredentials } | undefined> {
      if ((await repository.count()) > 0) return undefined;
      const fresh = newClient(input, LOCAL_OPERATOR);
      const credentials = await lockedTransaction(db, async (trx) => {
        // The bump writes first: it takes the counter's row lock (PostgreSQL) or the write lock
        // (SQLite) before the count is read, so a second node waits here and then counts the
        // first node's client. (A bump without a change only drops caches.)
        await changes.bump(trx, 'clients');
        if ((await createClientsRepository(trx).count()) > 0) return undefined;
        return insertClient(trx, fresh);
      });
      await changes.changed('clients');
      return credentials && { account: await requireClient(fresh.id), credentials };
    },

    get: requireClient,

    count: () => repository.count(),

    /** A page of clients, oldest first; with `search`, those whose name contains it. */
    async list(page: number, pageSize: number, search?: string): Promise<{ accounts: ClientAccount[]; total: number }> {
      const [accounts, total] = await Promise.all([repository.list((page - 1) * pageSize, pageSize, search), repository.count(search)]);
      return { accounts, total };
    },

    /** Changes auth_method, tier, disabled or the limit overrides; takes effect on every node's next request. */
    async update(id: string, patch: ClientPatch, actor: AuditActor = LOCAL_OPERATOR): Promise<ClientAccount> {
      await changeAccounts(deps, async (trx) => {
        await lockLiveClient(trx, id);
        const now = clock.now();
        const before = await createClientsRepository(trx).findById(id);
        await trx.updateTable('clients').set(patchColumns(patch, now)).where('id', '=', id).execute();
        const after = await createClientsRepository(trx).findById(id);
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
      return requireClient(id);
    },

    /**
     * The emergency reset: replaces every API key and client secret with one new pair, moves the
     * credential generation (every access token issued before stops at once) and revokes every
     * refresh token. Logins racing it either finish first, and their tokens are revoked here,
     * or wait for it and fail (the login's check runs under the same lock: tokens.repository).
     */
    async rotateCredentials(id: string, actor: AuditActor = LOCAL_OPERATOR): Promise<{ account: ClientAccount; credentials: ClientCredentials }> {
      const now = clock.now();
      const credentials = await changeAccounts(deps, async (trx) => {
        const client = await lockLiveClient(trx, id);
        await trx.updateTable('clients').set({ credential_generation: client.generation + 1, updated_at: now }).where('id', '=', id).execute();
        await q.markDeleted(trx, { clientId: id }, now);
        await q.revokeRefreshTokens(trx, { clientId: id }, 'reset', now);
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
      return { account: await requireClient(id), credentials };
    },

    /**
     * Offboards a client: every credential and refresh token ends at once, and every later call
     * answers 401 client_deleted. The row stays (soft delete), so that its usage history keeps
     * its client for billing; nothing but credentials and tokens is touched. Deleting a deleted
     * client changes nothing.
     */
    async delete(id: string, actor: AuditActor = LOCAL_OPERATOR): Promise<void> {
      const now = clock.now();
      await changeAccounts(deps, async (trx) => {
        const client = isUuid(id) ? await q.lockClient(trx, id, 'update') : undefined;
        if (!client) throw new ApiError('NOT_FOUND', 'no client with this client_id');
        if (client.deletedAt !== null) return;
        await trx.updateTable('clients').set({ deleted_at: now, credential_generation: client.generation + 1, updated_at: now }).where('id', '=', id).execute();
        await q.markDeleted(trx, { clientId: id }, now);
        await q.revokeRefreshTokens(trx, { clientId: id }, 'client_deleted', now);
        await recordAudit(trx, { clientId: id, action: 'client.offboarded', actor, at: now, before: { deleted_at: null }, after: { deleted_at: iso(now) } });
      });
    },
  };
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
  let tenantId = input.tenantId;
  if (tenantId === undefined) {
    tenantId = randomUUID();
    await trx.insertInto('tenants').values({ id: tenantId, created_at: now }).execute();
  } else {
    const tenant = await trx.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
    if (!tenant) throw new ApiError('NOT_FOUND', 'no tenant with this tenant_id');
  }
  await trx
    .insertInto('clients')
    .values({
      id,
      tenant_id: tenantId,
      name: input.name,
      tier: input.tier,
      auth_method: input.authMethod,
      disabled: 0,
      credential_generation: 1,
      deleted_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
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
  await q.insert(trx, key.row);
  await q.insert(trx, secret.row);
  return { credentials: { apiKey: key.plaintext, clientSecret: secret.plaintext }, codes: { key_code: key.row.code, secret_code: secret.row.code } };
}

export type ClientsService = ReturnType<typeof createClientsService>;
