import type { Kysely, Selectable } from 'kysely';
import type { ClientsTable, Schema } from '../../platform/db/schema.js';
import { type AuthMethod, type ClientAccount, isAuthMethod, isTier, type Tier } from '../auth/index.js';

export type ClientRow = Selectable<ClientsTable>;

export interface ClientPatch {
  authMethod?: AuthMethod;
  tier?: Tier;
  disabled?: boolean;
  /** null: back to the tier's default. */
  rateLimitPerMinute?: number | null;
  dailyQuota?: number | null;
  apiKeyDigest?: string;
  clientSecretDigest?: string;
}

export function toAccount(row: ClientRow): ClientAccount {
  // The columns are plain text: a value outside the vocabulary is a broken row, not a tier.
  if (!isTier(row.tier) || !isAuthMethod(row.auth_method)) throw new Error(`client ${row.id} has an unknown tier or auth_method`);
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    tier: row.tier,
    authMethod: row.auth_method,
    disabled: Number(row.disabled) === 1,
    apiKeyDigest: row.api_key_digest,
    clientSecretDigest: row.client_secret_digest,
    rateLimitPerMinute: row.rate_limit_per_minute === null ? null : Number(row.rate_limit_per_minute),
    dailyQuota: row.daily_quota === null ? null : Number(row.daily_quota),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function createClientsRepository(db: Kysely<Schema>) {
  return {
    async findById(id: string): Promise<ClientAccount | undefined> {
      const row = await db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toAccount(row);
    },

    async findByApiKeyDigest(apiKeyDigest: string): Promise<ClientAccount | undefined> {
      const row = await db.selectFrom('clients').selectAll().where('api_key_digest', '=', apiKeyDigest).executeTakeFirst();
      return row && toAccount(row);
    },

    async count(): Promise<number> {
      const row = await db.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async list(offset: number, limit: number): Promise<ClientAccount[]> {
      const rows = await db.selectFrom('clients').selectAll().orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute();
      return rows.map(toAccount);
    },
  };
}

export type ClientsRepository = ReturnType<typeof createClientsRepository>;

/** The column values of a patch, for an UPDATE. */
export function patchColumns(patch: ClientPatch, now: number): Partial<ClientsTable> {
  return {
    ...(patch.authMethod !== undefined ? { auth_method: patch.authMethod } : {}),
    ...(patch.tier !== undefined ? { tier: patch.tier } : {}),
    ...(patch.disabled !== undefined ? { disabled: patch.disabled ? 1 : 0 } : {}),
    ...(patch.rateLimitPerMinute !== undefined ? { rate_limit_per_minute: patch.rateLimitPerMinute } : {}),
    ...(patch.dailyQuota !== undefined ? { daily_quota: patch.dailyQuota } : {}),
    ...(patch.apiKeyDigest !== undefined ? { api_key_digest: patch.apiKeyDigest } : {}),
    ...(patch.clientSecretDigest !== undefined ? { client_secret_digest: patch.clientSecretDigest } : {}),
    updated_at: now,
  };
}
