import type { Kysely, Selectable } from 'kysely';
import { locked, type LockMode } from '../../platform/db/locked-transaction.js';
import type { ClientCredentialsTable, Schema } from '../../platform/db/schema.js';
import { type AccountCredentialKind, type AuthMethod, isAccountCredentialKind, isAuthMethod, type RevocationReason } from '../auth/index.js';

/**
 * Queries on client_credentials (and the client row a change to them locks). Made on the locked
 * transaction of a change (clients.service, credentials.service) for the writes; the listings and
 * last_used_at read and write outside any.
 */
export interface CredentialsRepository {
  /** The client row, locked for a change to its credentials; undefined when there is none. */
  lockClient(clientId: string, mode: LockMode): Promise<LockedClient | undefined>;
  /** Whether a client with this id exists, deleted or not. */
  clientExists(clientId: string): Promise<boolean>;
  /** Credentials of a kind that are neither deleted nor expired at `now`. */
  countActive(clientId: string, kind: AccountCredentialKind, now: number): Promise<number>;
  /** Stores a new credential (its digest, never the credential). */
  insert(row: NewCredentialRow): Promise<void>;
  /** A credential of this client and kind that is not deleted (expired ones included). */
  findListed(clientId: string, kind: AccountCredentialKind, code: string): Promise<{ expiresAt: number | null } | undefined>;
  /** Deletes one credential, or every credential of a client. The row stays, so its digest still names it. */
  markDeleted(scope: { clientId: string } | { code: string }, now: number): Promise<void>;
  /** Revokes the still-active refresh tokens in scope, recording why. */
  revokeRefreshTokens(scope: TokenScope, reason: RevocationReason, now: number): Promise<void>;
  /** The codes of a client's credentials of a kind that are not deleted, oldest first. */
  listedCodes(clientId: string, kind: AccountCredentialKind): Promise<string[]>;
  /** Credentials by code, as their listings show them. */
  listed(codes: readonly string[]): Promise<Map<string, ListedCredential>>;
  /** Moves last_used_at forward to `at` (never back: another node may have written a later minute). */
  markUsed(code: string, at: number): Promise<void>;
}

/** A credential as its listings show it: never the credential, never its digest. */
export interface ListedCredential {
  code: string;
  clientId: string;
  kind: AccountCredentialKind;
  name: string;
  preview: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

export interface NewCredentialRow extends ListedCredential {
  digest: string;
}

/** The client row as a change to its credentials sees it, locked for that change. */
export interface LockedClient {
  authMethod: AuthMethod;
  deletedAt: number | null;
  generation: number;
}

/** Which refresh tokens a change ends: every one of a client, or the families one credential started. */
export type TokenScope = { clientId: string } | { credentialCode: string };

export function createCredentialsRepository(db: Kysely<Schema>): CredentialsRepository {
  return { ...changeQueries(db), ...listingQueries(db) };
}

/** The queries of a change to a client's credentials, in its locked transaction. */
function changeQueries(db: Kysely<Schema>): Omit<CredentialsRepository, 'clientExists' | 'listedCodes' | 'listed' | 'markUsed'> {
  return {
    async lockClient(clientId, mode) {
      const query = db.selectFrom('clients').select(['auth_method', 'deleted_at', 'credential_generation']).where('id', '=', clientId);
      const row = await locked(query, mode, db).executeTakeFirst();
      if (!row) return undefined;
      if (!isAuthMethod(row.auth_method)) throw new Error(`client ${clientId} has an unknown auth_method`);
      return { authMethod: row.auth_method, deletedAt: row.deleted_at === null ? null : Number(row.deleted_at), generation: Number(row.credential_generation) };
    },

    async countActive(clientId, kind, now) {
      const row = await db
        .selectFrom('client_credentials')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('client_id', '=', clientId)
        .where('kind', '=', kind)
        .where('deleted_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async insert(row) {
      await db
        .insertInto('client_credentials')
        .values({
          code: row.code,
          client_id: row.clientId,
          kind: row.kind,
          digest: row.digest,
          name: row.name,
          preview: row.preview,
          created_at: row.createdAt,
          expires_at: row.expiresAt,
          last_used_at: null,
          deleted_at: null,
        })
        .execute();
    },

    async findListed(clientId, kind, code) {
      const row = await listedOf(db, clientId, kind).select('expires_at').where('code', '=', code).executeTakeFirst();
      return row && { expiresAt: row.expires_at === null ? null : Number(row.expires_at) };
    },

    async markDeleted(scope, now) {
      let query = db.updateTable('client_credentials').set({ deleted_at: now }).where('deleted_at', 'is', null);
      query = 'code' in scope ? query.where('code', '=', scope.code) : query.where('client_id', '=', scope.clientId);
      await query.execute();
    },

    async revokeRefreshTokens(scope, reason, now) {
      let query = db.updateTable('refresh_tokens').set({ revoked_at: now, revoked_reason: reason }).where('revoked_at', 'is', null);
      query = 'clientId' in scope ? query.where('client_id', '=', scope.clientId) : query.where('credential_code', '=', scope.credentialCode);
      await query.execute();
    },
  };
}

/** The listings and last_used_at, read and written outside any change. */
function listingQueries(db: Kysely<Schema>): Pick<CredentialsRepository, 'clientExists' | 'listedCodes' | 'listed' | 'markUsed'> {
  return {
    async clientExists(clientId) {
      const row = await db.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst();
      return row !== undefined;
    },

    async listedCodes(clientId, kind) {
      const rows = await listedOf(db, clientId, kind).select('code').orderBy('created_at').orderBy('code').execute();
      return rows.map((row) => row.code);
    },

    async listed(codes) {
      const rows = await db.selectFrom('client_credentials').selectAll().where('code', 'in', codes).execute();
      return new Map(rows.map((row) => [row.code, toListed(row)]));
    },

    async markUsed(code, at) {
      await db
        .updateTable('client_credentials')
        .set({ last_used_at: at })
        .where('code', '=', code)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
    },
  };
}

/** A client's credentials of a kind that are not deleted: those its listings show. */
function listedOf(db: Kysely<Schema>, clientId: string, kind: AccountCredentialKind) {
  return db.selectFrom('client_credentials').where('client_id', '=', clientId).where('kind', '=', kind).where('deleted_at', 'is', null);
}

function toListed(row: Selectable<ClientCredentialsTable>): ListedCredential {
  if (!isAccountCredentialKind(row.kind)) throw new Error(`credential ${row.code} has an unknown kind`);
  return {
    code: row.code,
    clientId: row.client_id,
    kind: row.kind,
    name: row.name,
    preview: row.preview,
    createdAt: Number(row.created_at),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}
