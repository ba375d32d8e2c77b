import { type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { ClientCredentialsTable, ClientsTable, Schema } from '../../platform/db/schema.js';
import {
  type AccountCredential,
  type AuthMethod,
  type ClientAccount,
  type FlowVocabulary,
  isAccountCredentialKind,
  isAuthMethod,
  isFlowVocabulary,
  isTier,
  type Tier,
} from '../auth/index.js';

/**
 * Queries on clients and tenants. Made on `db` for reads, or on the locked transaction of a change
 * (clients.service) for what the change reads and writes.
 */
export interface ClientsRepository {
  /** The client with its credentials that are not deleted (at most the caps, plus expired ones). */
  findById(id: string): Promise<ClientAccount | undefined>;
  /** A credential by digest, in whatever state (deleted, expired), with the digest it is stored under. */
  findCredentialByDigest(digest: string): Promise<{ credential: AccountCredential; digest: string } | undefined>;
  /** How many clients there are; with `search`, how many whose name contains it. */
  count(search?: string): Promise<number>;
  /** The ids of the clients, oldest first; with `search`, of those whose name contains it. */
  listedIds(search?: string): Promise<string[]>;
  /** Clients by id, each with its credentials that are not deleted. */
  listed(ids: readonly string[]): Promise<Map<string, ClientAccount>>;
  /** Whether a tenant with this id exists. */
  tenantExists(tenantId: string): Promise<boolean>;
  /** Stores a new tenant. */
  insertTenant(tenantId: string, now: number): Promise<void>;
  /** Stores a new client, enabled, at credential generation 1. */
  insert(client: NewClientRow): Promise<void>;
  /** Writes the fields a patch names. */
  update(id: string, patch: ClientPatch, now: number): Promise<void>;
  /** Sets the credential generation (an access token of an earlier one no longer works). */
  setGeneration(id: string, generation: number, now: number): Promise<void>;
  /** Marks the client deleted, at a new credential generation. The row stays. */
  markDeleted(id: string, generation: number, now: number): Promise<void>;
}

export type ClientRow = Selectable<ClientsTable>;
export type CredentialRow = Selectable<ClientCredentialsTable>;

export interface ClientPatch {
  authMethod?: AuthMethod;
  tier?: Tier;
  disabled?: boolean;
  /** null: back to the tier's default. */
  rateLimitPerMinute?: number | null;
  dailyQuota?: number | null;
  flowVocabulary?: FlowVocabulary;
}

/** A client as onboarding stores it. */
export interface NewClientRow {
  id: string;
  tenantId: string;
  name: string;
  tier: Tier;
  authMethod: AuthMethod;
  now: number;
}

export function toCredential(row: CredentialRow): AccountCredential {
  // The column is plain text: a value outside the vocabulary is a broken row, not a credential.
  if (!isAccountCredentialKind(row.kind)) throw new Error(`credential ${row.code} has an unknown kind`);
  return {
    code: row.code,
    clientId: row.client_id,
    kind: row.kind,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
  };
}

export function toAccount(row: ClientRow, credentials: readonly AccountCredential[]): ClientAccount {
  // The columns are plain text: a value outside the vocabulary is a broken row, not a tier.
  if (!isTier(row.tier) || !isAuthMethod(row.auth_method) || !isFlowVocabulary(row.flow_vocabulary)) {
    throw new Error(`client ${row.id} has an unknown tier, auth_method or flow_vocabulary`);
  }
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    tier: row.tier,
    authMethod: row.auth_method,
    disabled: Number(row.disabled) === 1,
    rateLimitPerMinute: row.rate_limit_per_minute === null ? null : Number(row.rate_limit_per_minute),
    dailyQuota: row.daily_quota === null ? null : Number(row.daily_quota),
    flowVocabulary: row.flow_vocabulary,
    deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
    credentialGeneration: Number(row.credential_generation),
    credentials: new Map(credentials.map((credential) => [credential.code, credential])),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function createClientsRepository(db: Kysely<Schema>): ClientsRepository {
  return { ...accountReads(db), ...accountChanges(db) };
}

/** The reads of accounts: by id, by credential digest, and the listings. */
function accountReads(db: Kysely<Schema>): Pick<ClientsRepository, 'findById' | 'findCredentialByDigest' | 'count' | 'listedIds' | 'listed'> {
  async function findById(id: string): Promise<ClientAccount | undefined> {
    const row = await db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const credentials = await db.selectFrom('client_credentials').selectAll().where('client_id', '=', id).where('deleted_at', 'is', null).execute();
    return toAccount(row, credentials.map(toCredential));
  }

  /**
   * The clients whose name contains `search`. lower() on both sides: SQLite's LIKE ignores the
   * case of ASCII letters only and PostgreSQL's none, so both compare the same way. The
   * wildcards of LIKE in the search are escaped: `50%` finds "50%", not every "50".
   */
  const named = (search: string | undefined) => {
    const query = db.selectFrom('clients');
    if (search === undefined) return query;
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
  };

  return {
    findById,

    async findCredentialByDigest(digest) {
      const row = await db.selectFrom('client_credentials').selectAll().where('digest', '=', digest).executeTakeFirst();
      return row && { credential: toCredential(row), digest: row.digest };
    },

    async count(search) {
      const row = await named(search)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async listedIds(search) {
      const rows = await named(search).select('id').orderBy('created_at').orderBy('id').execute();
      return rows.map((row) => row.id);
    },

    async listed(ids) {
      const rows = await db.selectFrom('clients').selectAll().where('id', 'in', ids).execute();
      if (rows.length === 0) return new Map();
      const credentials = await db
        .selectFrom('client_credentials')
        .selectAll()
        .where('client_id', 'in', rows.map((row) => row.id))
        .where('deleted_at', 'is', null)
        .execute();
      const byClient = new Map<string, AccountCredential[]>();
      for (const credential of credentials.map(toCredential)) byClient.set(credential.clientId, [...(byClient.get(credential.clientId) ?? []), credential]);
      return new Map(rows.map((row) => [row.id, toAccount(row, byClient.get(row.id) ?? [])]));
    },
  };
}

/** What onboarding and the changes to a client write, in the locked transaction of the change. */
function accountChanges(db: Kysely<Schema>): Pick<ClientsRepository, 'tenantExists' | 'insertTenant' | 'insert' | 'update' | 'setGeneration' | 'markDeleted'> {
  const updateClient = async (id: string, columns: Updateable<ClientsTable>) => {
    await db.updateTable('clients').set(columns).where('id', '=', id).execute();
  };

  return {
    async tenantExists(tenantId) {
      const tenant = await db.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
      return tenant !== undefined;
    },

    async insertTenant(tenantId, now) {
      await db.insertInto('tenants').values({ id: tenantId, created_at: now }).execute();
    },

    async insert(client) {
      await db
        .insertInto('clients')
        .values({
          id: client.id,
          tenant_id: client.tenantId,
          name: client.name,
          tier: client.tier,
          auth_method: client.authMethod,
          disabled: 0,
          credential_generation: 1,
          deleted_at: null,
          created_at: client.now,
          updated_at: client.now,
        })
        .execute();
    },

    update: (id, patch, now) => updateClient(id, patchColumns(patch, now)),
    setGeneration: (id, generation, now) => updateClient(id, { credential_generation: generation, updated_at: now }),
    markDeleted: (id, generation, now) => updateClient(id, { deleted_at: now, credential_generation: generation, updated_at: now }),
  };
}


/** The fields a patch names, as the account holds them, by their wire names (the audit log's before and after). */
export function patchedFields(patch: ClientPatch, account: ClientAccount): Record<string, string | number | boolean | null> {
  return {
    ...(patch.authMethod !== undefined ? { auth_method: account.authMethod } : {}),
    ...(patch.tier !== undefined ? { tier: account.tier } : {}),
    ...(patch.disabled !== undefined ? { disabled: account.disabled } : {}),
    ...(patch.rateLimitPerMinute !== undefined ? { rate_limit_per_minute: account.rateLimitPerMinute } : {}),
    ...(patch.dailyQuota !== undefined ? { daily_quota: account.dailyQuota } : {}),
    ...(patch.flowVocabulary !== undefined ? { flow_vocabulary: account.flowVocabulary } : {}),
  };
}

/** The column values of a patch, for an UPDATE. */
function patchColumns(patch: ClientPatch, now: number): Updateable<ClientsTable> {
  return {
    ...(patch.authMethod !== undefined ? { auth_method: patch.authMethod } : {}),
    ...(patch.tier !== undefined ? { tier: patch.tier } : {}),
    ...(patch.disabled !== undefined ? { disabled: patch.disabled ? 1 : 0 } : {}),
    ...(patch.rateLimitPerMinute !== undefined ? { rate_limit_per_minute: patch.rateLimitPerMinute } : {}),
    ...(patch.dailyQuota !== undefined ? { daily_quota: patch.dailyQuota } : {}),
    ...(patch.flowVocabulary !== undefined ? { flow_vocabulary: patch.flowVocabulary } : {}),
    updated_at: now,
  };
}
