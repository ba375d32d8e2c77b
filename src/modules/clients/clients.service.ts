import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/uuid.js';
import { type AuthMethod, type ClientAccount, digest, generateCredential, type Tier } from '../auth/index.js';
import { type ClientPatch, createClientsRepository, patchColumns } from './clients.repository.js';

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

  const newClient = (): FreshClient => ({
    id: randomUUID(),
    credentials: { apiKey: generateCredential('apiKey'), clientSecret: generateCredential('clientSecret') },
    now: clock.now(),
  });

  async function requireClient(id: string): Promise<ClientAccount> {
    // A client_id that is not a UUID names no client. It never reaches the database: PostgreSQL
    // fails on text with U+0000 (a `%00` in an admin path was a 500, issue 8).
    const account = isUuid(id) ? await repository.findById(id) : undefined;
    if (!account) throw notFound('no client with this client_id');
    return account;
  }

  return {
    /** Creates a client with fresh credentials. The credentials are returned here and never again. */
    async create(input: NewClient): Promise<{ account: ClientAccount; credentials: ClientCredentials }> {
      const fresh = newClient();
      await db.transaction().execute(async (trx) => {
        await insertClient(trx, input, fresh);
        await changes.bump(trx, 'clients');
      });
      await changes.changed('clients');
      return { account: await requireClient(fresh.id), credentials: fresh.credentials };
    },

    /**
     * Creates a client only when there is none yet (the demo client of a first start), else
     * returns undefined. Two nodes starting at once on one empty database must create one.
     */
    async createFirst(input: NewClient): Promise<{ account: ClientAccount; credentials: ClientCredentials } | undefined> {
      if ((await repository.count()) > 0) return undefined;
      const fresh = newClient();
      const created = await db.transaction().execute(async (trx) => {
        // The bump writes first: it takes the counter's row lock (PostgreSQL) or the write lock
        // (SQLite) before the count is read, so a second node waits here and then counts the
        // first node's client. (A bump without a change only drops caches.)
        await changes.bump(trx, 'clients');
        if ((await createClientsRepository(trx).count()) > 0) return false;
        await insertClient(trx, input, fresh);
        return true;
      });
      await changes.changed('clients');
      return created ? { account: await requireClient(fresh.id), credentials: fresh.credentials } : undefined;
    },

    get: requireClient,

    count: () => repository.count(),

    async list(page: number, pageSize: number): Promise<{ accounts: ClientAccount[]; total: number }> {
      const [accounts, total] = await Promise.all([repository.list((page - 1) * pageSize, pageSize), repository.count()]);
      return { accounts, total };
    },

    /** Changes auth_method, tier, disabled or the limit overrides; takes effect on every node's next request. */
    async update(id: string, patch: Pick<ClientPatch, 'authMethod' | 'tier' | 'disabled' | 'rateLimitPerMinute' | 'dailyQuota'>): Promise<ClientAccount> {
      await requireClient(id);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('clients').set(patchColumns(patch, clock.now())).where('id', '=', id).execute();
        await changes.bump(trx, 'clients');
      });
      await changes.changed('clients');
      return requireClient(id);
    },

    /**
     * Replaces both credentials and revokes every refresh token of the client: a leaked key or
     * secret, or a session started with one, stops working at once.
     */
    async rotateCredentials(id: string): Promise<{ account: ClientAccount; credentials: ClientCredentials }> {
      await requireClient(id);
      const now = clock.now();
      const credentials = { apiKey: generateCredential('apiKey'), clientSecret: generateCredential('clientSecret') };
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('clients')
          .set(patchColumns({ apiKeyDigest: digest(credentials.apiKey), clientSecretDigest: digest(credentials.clientSecret) }, now))
          .where('id', '=', id)
          .execute();
        await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('client_id', '=', id).where('revoked_at', 'is', null).execute();
        await changes.bump(trx, 'clients');
      });
      await changes.changed('clients');
      return { account: await requireClient(id), credentials };
    },
  };
}

interface FreshClient {
  id: string;
  credentials: ClientCredentials;
  now: number;
}

/** Inserts the client (and its tenant when new) inside the caller's transaction. */
async function insertClient(trx: Transaction<Schema>, input: NewClient, fresh: FreshClient): Promise<void> {
  const { id, credentials, now } = fresh;
  let tenantId = input.tenantId;
  if (tenantId === undefined) {
    tenantId = randomUUID();
    await trx.insertInto('tenants').values({ id: tenantId, created_at: now }).execute();
  } else {
    const tenant = await trx.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
    if (!tenant) throw notFound('no tenant with this tenant_id');
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
      api_key_digest: digest(credentials.apiKey),
      client_secret_digest: digest(credentials.clientSecret),
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export type ClientsService = ReturnType<typeof createClientsService>;
