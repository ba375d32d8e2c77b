import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError, validationError } from '../../platform/errors.js';
import { offsetOf, type Paging } from '../../platform/pagination.js';
import { isUuid } from '../../platform/uuid.js';
import { iso } from '../../shared/wire.js';
import { type AuditActor, LOCAL_OPERATOR, recordAudit } from '../audit/index.js';
import { type AccountCredentialKind, flowEnabled } from '../auth/index.js';
import { changeAccounts } from './account-change.js';
import type { CredentialUsage } from './credential-usage.js';
import { credentialsQueries as q, type ListedCredential } from './credentials.repository.js';
import { newCredential } from './new-credential.js';

/** At most this many active (not deleted, not expired) credentials of each kind per client. */
export const MAX_ACTIVE_CREDENTIALS = 10;

const NOUN: Record<AccountCredentialKind, string> = { api_key: 'API key', client_secret: 'client secret' };
const FLOW = { api_key: 'api_key', client_secret: 'oauth' } as const;
/** What the audit log calls a change of each kind, and the name of its public code. */
const AUDIT = {
  api_key: { created: 'api_key.created', deleted: 'api_key.deleted', code: 'key_code' },
  client_secret: { created: 'secret.created', deleted: 'secret.deleted', code: 'secret_code' },
} as const;

export interface CreatedCredential {
  credential: ListedCredential;
  /** The credential itself: shown in this answer only. */
  plaintext: string;
}

/**
 * A client's several API keys and client secrets (decision 0100): listed without secrets, created up
 * to the cap, deleted one at a time — by the client itself (/v1/account) or by an operator
 * (admin API, CLI). Every change runs locked against the client row, so the cap and the
 * last-credential rule hold under concurrent requests, and a login with a credential being
 * deleted either finishes before (its session is ended here) or fails.
 */
export function createCredentialsService(deps: { db: Kysely<Schema>; clock: Clock; changes: ChangeFeed; usage: CredentialUsage }) {
  const { db, clock, usage } = deps;

  async function requireClient(clientId: string): Promise<void> {
    const row = isUuid(clientId) ? await db.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst() : undefined;
    if (!row) throw new ApiError('NOT_FOUND', 'no client with this client_id');
  }

  async function list(clientId: string, kind: AccountCredentialKind, paging: Paging): Promise<{ items: ListedCredential[]; total: number }> {
    await requireClient(clientId);
    // This node's uses not yet written: a client reading its keys sees its own last call.
    await usage.flush();
    return q.page(db, clientId, kind, offsetOf(paging), paging.page_size);
  }

  async function create(clientId: string, kind: AccountCredentialKind, name: string, expiresAt: number | null, actor: AuditActor): Promise<CreatedCredential> {
    const now = clock.now();
    if (expiresAt !== null && expiresAt <= now) throw validationError('expires_at', 'future', 'expires_at must be in the future');
    return changeAccounts(deps, async (trx) => {
      const client = isUuid(clientId) ? await q.lockClient(trx, clientId, 'update') : undefined;
      if (!client) throw new ApiError('NOT_FOUND', 'no client with this client_id');
      if (client.deletedAt !== null) throw new ApiError('CONFLICT', 'this client has been deleted');
      if ((await q.countActive(trx, clientId, kind, now)) >= MAX_ACTIVE_CREDENTIALS) {
        throw new ApiError('CONFLICT', `this account already has ${MAX_ACTIVE_CREDENTIALS} active ${NOUN[kind]}s, the most it may have; delete one first`);
      }
      const { plaintext, row } = newCredential({ clientId, kind, name, now, expiresAt });
      await q.insert(trx, row);
      const after = { [AUDIT[kind].code]: row.code, name, expires_at: expiresAt === null ? null : iso(expiresAt) };
      await recordAudit(trx, { clientId, action: AUDIT[kind].created, actor, at: now, before: null, after });
      return { credential: row, plaintext };
    });
  }

  /**
   * Deletes one credential. Its refresh-token families end in the same transaction; access
   * tokens minted from it stop on this node before the answer, elsewhere within the poll.
   */
  async function remove(clientId: string, kind: AccountCredentialKind, code: string, actor: AuditActor): Promise<void> {
    const now = clock.now();
    await changeAccounts(deps, async (trx) => {
      const client = isUuid(clientId) ? await q.lockClient(trx, clientId, 'update') : undefined;
      if (!client) throw new ApiError('NOT_FOUND', 'no client with this client_id');
      const credential = isUuid(code) ? await q.findListed(trx, clientId, kind, code) : undefined;
      if (!credential) throw new ApiError('NOT_FOUND', `no ${NOUN[kind]} with this code`);
      const active = credential.expiresAt === null || credential.expiresAt > now;
      if (active && flowEnabled(client.authMethod, FLOW[kind]) && (await q.countActive(trx, clientId, kind, now)) <= 1) {
        throw new ApiError('CONFLICT', 
          `this is the last active ${NOUN[kind]} of an account whose auth_method (${client.authMethod}) enables the ${FLOW[kind]} flow; ` +
            `create another ${NOUN[kind]} first`,
        );
      }
      await q.markDeleted(trx, { code }, now);
      await q.revokeRefreshTokens(trx, { credentialCode: code }, kind === 'api_key' ? 'key_deleted' : 'secret_deleted', now);
      await recordAudit(trx, { clientId, action: AUDIT[kind].deleted, actor, at: now, before: { [AUDIT[kind].code]: code, deleted_at: null }, after: { [AUDIT[kind].code]: code, deleted_at: iso(now) } });
    });
  }

  return {
    listApiKeys: (clientId: string, paging: Paging) => list(clientId, 'api_key', paging),
    listSecrets: (clientId: string, paging: Paging) => list(clientId, 'client_secret', paging),
    // Each change takes who makes it, for the audit log; in-process callers (the CLI) are the operator.
    createApiKey: (clientId: string, input: { name: string; expiresAt: number | null }, actor: AuditActor = LOCAL_OPERATOR) =>
      create(clientId, 'api_key', input.name, input.expiresAt, actor),
    createSecret: (clientId: string, input: { name: string }, actor: AuditActor = LOCAL_OPERATOR) => create(clientId, 'client_secret', input.name, null, actor),
    deleteApiKey: (clientId: string, code: string, actor: AuditActor = LOCAL_OPERATOR) => remove(clientId, 'api_key', code, actor),
    deleteSecret: (clientId: string, code: string, actor: AuditActor = LOCAL_OPERATOR) => remove(clientId, 'client_secret', code, actor),
  };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
