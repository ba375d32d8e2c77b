import type { Kysely, Selectable } from 'kysely';
import type { RefreshTokensTable, Schema } from '../../platform/db/schema.js';
import { type Flow, isFlow } from '../auth/index.js';

export type RefreshTokenRow = Selectable<RefreshTokensTable>;

/** A refresh token as stored: its digest, never the token. */
export interface StoredRefreshToken {
  digest: string;
  clientId: string;
  familyId: string;
  flow: Flow;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

function toStored(row: RefreshTokenRow): StoredRefreshToken {
  // The column is plain text: a value outside the vocabulary is a broken row, not a flow.
  if (!isFlow(row.flow)) throw new Error('a refresh token row has an unknown flow');
  return {
    digest: row.digest,
    clientId: row.client_id,
    familyId: row.family_id,
    flow: row.flow,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

function toRow(token: Omit<StoredRefreshToken, 'revokedAt'>): RefreshTokensTable {
  return {
    digest: token.digest,
    client_id: token.clientId,
    family_id: token.familyId,
    flow: token.flow,
    created_at: token.createdAt,
    expires_at: token.expiresAt,
    revoked_at: null,
  };
}

export function createTokensRepository(db: Kysely<Schema>) {
  return {
    async insert(token: Omit<StoredRefreshToken, 'revokedAt'>): Promise<void> {
      await db.insertInto('refresh_tokens').values(toRow(token)).execute();
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

    /** Revokes every still-active token descended from the same login. */
    async revokeFamily(familyId: string, now: number): Promise<void> {
      await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
    },

    /**
     * Revokes `digest` and stores `successor`, atomically. Returns false, changing nothing,
     * when the token was no longer active: another request rotated it first.
     */
    async rotate(digest: string, successor: Omit<StoredRefreshToken, 'revokedAt'>, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        // One conditional UPDATE: of two concurrent refreshes with one token, the database lets
        // exactly one flip revoked_at, on SQLite and PostgreSQL alike, across nodes
        // (RFC 9700 §4.14). A read-then-write would let both pass the read.
        const result = await trx
          .updateTable('refresh_tokens')
          .set({ revoked_at: now })
          .where('digest', '=', digest)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) return false;
        await trx.insertInto('refresh_tokens').values(toRow(successor)).execute();
        return true;
      });
    },
  };
}

export type TokensRepository = ReturnType<typeof createTokensRepository>;
