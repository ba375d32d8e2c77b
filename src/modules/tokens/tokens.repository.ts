import type { Kysely, Selectable } from 'kysely';
import { locked, lockedTransaction } from '../../platform/db/locked-transaction.js';
import type { RefreshTokensTable, Schema } from '../../platform/db/schema.js';
import { type Flow, isFlow, isRevocationReason, type RevocationReason } from '../auth/index.js';

/** Refresh tokens as stored (their digests), and the transactions that start and extend a session. */
export interface TokensRepository {
  /** Starts a family (a login): stores its first token if the session may go on; else why not. */
  startFamily(token: NewRefreshToken, now: number): Promise<LiveSession | { end: SessionEnd }>;
  /** The stored token with this digest, if any. */
  findByDigest(digest: string): Promise<StoredRefreshToken | undefined>;
  /** Deletes refresh tokens that expired before `before`; returns how many rows went. */
  purgeExpired(before: number): Promise<number>;
  /** Revokes every still-active token descended from the same login, recording why. */
  revokeFamily(familyId: string, reason: RevocationReason, now: number): Promise<void>;
  /** Revokes `stored` and stores `successor`, atomically, if the session may go on; `raced` if another request rotated it first. */
  rotate(stored: StoredRefreshToken, successor: NewRefreshToken, now: number): Promise<LiveSession | { end: SessionEnd } | 'raced'>;
}

export type RefreshTokenRow = Selectable<RefreshTokensTable>;

/** A refresh token as stored: its digest, never the token. */
export interface StoredRefreshToken {
  digest: string;
  clientId: string;
  familyId: string;
  flow: Flow;
  /** The credential whose login started the family (null: a row from before credentials had codes). */
  credentialCode: string | null;
  /** The client's credential generation when the family started. */
  generation: number;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** Null when revoked before reasons were kept (handled as a rotation: decision 0104). */
  revokedReason: RevocationReason | null;
}

export type NewRefreshToken = Omit<StoredRefreshToken, 'revokedAt' | 'revokedReason' | 'generation'>;

/**
 * Why a session can no longer go on, found inside the transaction that would have extended it:
 * the client was deleted, its credentials were reset, or the credential that started the
 * session was deleted or has expired.
 */
export type SessionEnd = 'client_deleted' | 'reset' | 'key_deleted' | 'secret_deleted' | 'credential_expired';

/** A session that may go on: the client's current generation and the credential that started it. */
export interface LiveSession {
  generation: number;
  credentialCode: string;
}

function toStored(row: RefreshTokenRow): StoredRefreshToken {
  // The columns are plain text: a value outside the vocabulary is a broken row.
  if (!isFlow(row.flow)) throw new Error('a refresh token row has an unknown flow');
  if (row.revoked_reason !== null && !isRevocationReason(row.revoked_reason)) throw new Error('a refresh token row has an unknown revoked_reason');
  return {
    digest: row.digest,
    clientId: row.client_id,
    familyId: row.family_id,
    flow: row.flow,
    credentialCode: row.credential_code,
    generation: Number(row.generation),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    revokedReason: row.revoked_reason,
  };
}

function toRow(token: NewRefreshToken, generation: number): RefreshTokensTable {
  return {
    digest: token.digest,
    client_id: token.clientId,
    family_id: token.familyId,
    flow: token.flow,
    credential_code: token.credentialCode,
    generation,
    created_at: token.createdAt,
    expires_at: token.expiresAt,
    revoked_at: null,
    revoked_reason: null,
  };
}

/**
 * Whether the session a credential started may go on, read under a share lock of the client row:
 * a reset, a key deletion or an offboarding holds that row's update lock while it ends sessions,
 * so this either runs after it (and sees the change) or before it (and its token is then
 * revoked by it). A login that checked a cached credential and then inserted without this is
 * how sessions outlived a reset (decision 0103). Returns the live session, or why it ended.
 */
async function sessionMayGoOn(
  trx: Kysely<Schema>,
  source: { clientId: string; credentialCode: string | null; generation?: number },
  now: number,
): Promise<LiveSession | { end: SessionEnd }> {
  const client = await locked(trx.selectFrom('clients').select(['credential_generation', 'deleted_at']).where('id', '=', source.clientId), 'share', trx).executeTakeFirst();
  if (!client || client.deleted_at !== null) return { end: 'client_deleted' };
  const generation = Number(client.credential_generation);
  if (source.generation !== undefined && source.generation !== generation) return { end: 'reset' };
  const code = source.credentialCode;
  if (code === null) return { end: 'key_deleted' };
  const credential = await trx
    .selectFrom('client_credentials')
    .select(['kind', 'expires_at', 'deleted_at'])
    .where('code', '=', code)
    .where('client_id', '=', source.clientId)
    .executeTakeFirst();
  if (!credential || credential.deleted_at !== null) return { end: credential?.kind === 'client_secret' ? 'secret_deleted' : 'key_deleted' };
  if (credential.expires_at !== null && Number(credential.expires_at) <= now) return { end: 'credential_expired' };
  return { generation, credentialCode: code };
}

export function createTokensRepository(db: Kysely<Schema>): TokensRepository {
  return {
    /**
     * Starts a family (a login): inserts its first token if, under the lock, the credential is
     * still active and the client not deleted. Returns the generation the session belongs to.
     */
    async startFamily(token: NewRefreshToken, now: number): Promise<LiveSession | { end: SessionEnd }> {
      return lockedTransaction(db, async (trx) => {
        const state = await sessionMayGoOn(trx, token, now);
        if ('end' in state) return state;
        await trx.insertInto('refresh_tokens').values(toRow(token, state.generation)).execute();
        return state;
      });
    },

    async findByDigest(digest: string): Promise<StoredRefreshToken | undefined> {
      const row = await db.selectFrom('refresh_tokens').selectAll().where('digest', '=', digest).executeTakeFirst();
      return row && toStored(row);
    },

    /**
     * Deletes refresh tokens that expired before `before`. An expired token can never be
     * refreshed, so its row (revoked or not) no longer serves rotation or reuse detection.
     * Returns how many rows went.
     */
    async purgeExpired(before: number): Promise<number> {
      const result = await db.deleteFrom('refresh_tokens').where('expires_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Revokes every still-active token descended from the same login, recording why. */
    async revokeFamily(familyId: string, reason: RevocationReason, now: number): Promise<void> {
      await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now, revoked_reason: reason })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /**
     * Revokes `stored` and stores `successor`, atomically, if the session may go on (checked under
     * the client's lock, as a login is). `raced`, changing nothing: the token was no longer
     * active, another request rotated it first.
     */
    async rotate(stored: StoredRefreshToken, successor: NewRefreshToken, now: number): Promise<LiveSession | { end: SessionEnd } | 'raced'> {
      return lockedTransaction(db, async (trx) => {
        const state = await sessionMayGoOn(trx, stored, now);
        if ('end' in state) return state;
        // One conditional UPDATE: of two concurrent refreshes with one token, the database lets
        // exactly one flip revoked_at, on SQLite and PostgreSQL alike, across nodes
        // (RFC 9700 §4.14). A read-then-write would let both pass the read.
        const result = await trx
          .updateTable('refresh_tokens')
          .set({ revoked_at: now, revoked_reason: 'rotated' })
          .where('digest', '=', stored.digest)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) return 'raced';
        await trx.insertInto('refresh_tokens').values(toRow(successor, state.generation)).execute();
        return state;
      });
    },
  };
}
