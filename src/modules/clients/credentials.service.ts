import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError, validationError } from '../../platform/errors.js';
import { isUuid } from '../../platform/uuid.js';
import { iso } from '../../shared/wire.js';
import { type AuditActor, LOCAL_OPERATOR, recordAudit } from '../audit/index.js';
import { type AccountCredentialKind, flowEnabled } from '../auth/index.js';
import { changeAccounts } from './account-change.js';
import type { CredentialUsage } from './credential-usage.js';
import { createCredentialsRepository, type ListedCredential } from './credentials.repository.js';
import { newCredential } from './new-credential.js';

/**
 * A client's several API keys and client secrets (decision 0100): listed without secrets, created up
 * to the cap, deleted one at a time — by the client itself (/v1/account, and the portal through it)
 * or by an operator (admin API, CLI), through the same operations. Each change takes who makes it,
 * for the audit log; in-process callers (the CLI) are the operator.
 */
export interface CredentialsService {
  /** The codes of a client's API keys or client secrets that are not deleted, oldest first; 404 for no client. */
  listedCodes(clientId: string, kind: AccountCredentialKind): Promise<string[]>;
  /** Listed credentials by code (never the credentials). */
  listed(codes: readonly string[]): Promise<ReadonlyMap<string, ListedCredential>>;
  /** A new API key, working at once beside the others, up to MAX_ACTIVE_CREDENTIALS active ones. */
  createApiKey(clientId: string, input: { name: string; expiresAt: number | null }, actor?: AuditActor): Promise<CreatedCredential>;
  /** A new client secret, working at once beside the others, up to MAX_ACTIVE_CREDENTIALS active ones. */
  createSecret(clientId: string, input: { name: string }, actor?: AuditActor): Promise<CreatedCredential>;
  /**
   * Deletes one API key or client secret. Its refresh-token families end in the same transaction;
   * access tokens minted from it stop on this node before the answer, elsewhere within the poll.
   */
  delete(clientId: string, kind: AccountCredentialKind, code: string, actor?: AuditActor): Promise<void>;
}

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

interface CredentialsDeps {
  db: Kysely<Schema>;
  clock: Clock;
  changes: ChangeFeed;
  usage: CredentialUsage;
}

/**
 * Every change runs locked against the client row, so the cap and the last-credential rule hold
 * under concurrent requests, and a login with a credential being deleted either finishes before
 * (its session is ended here) or fails.
 */
export function createCredentialsService(deps: CredentialsDeps): CredentialsService {
  return {
    listedCodes: (clientId, kind) => listedCodes(deps, clientId, kind),
    listed: (codes) => createCredentialsRepository(deps.db).listed(codes),
    createApiKey: (clientId, input, actor = LOCAL_OPERATOR) => create(deps, clientId, 'api_key', input.name, input.expiresAt, actor),
    createSecret: (clientId, input, actor = LOCAL_OPERATOR) => create(deps, clientId, 'client_secret', input.name, null, actor),
    delete: (clientId, kind, code, actor = LOCAL_OPERATOR) => remove(deps, clientId, kind, code, actor),
  };
}

async function listedCodes(deps: CredentialsDeps, clientId: string, kind: AccountCredentialKind): Promise<string[]> {
  const repository = createCredentialsRepository(deps.db);
  if (!isUuid(clientId) || !(await repository.clientExists(clientId))) throw new ApiError('NOT_FOUND', 'no client with this client_id');
  // This node's uses not yet written: a client reading its keys sees its own last call.
  await deps.usage.flush();
  return repository.listedCodes(clientId, kind);
}

async function create(
  deps: CredentialsDeps,
  clientId: string,
  kind: AccountCredentialKind,
  name: string,
  expiresAt: number | null,
  actor: AuditActor,
): Promise<CreatedCredential> {
  const now = deps.clock.now();
  if (expiresAt !== null && expiresAt <= now) throw validationError('expires_at', 'future', 'expires_at must be in the future');
  return changeAccounts(deps, async (trx) => {
    const credentials = createCredentialsRepository(trx);
    const client = isUuid(clientId) ? await credentials.lockClient(clientId, 'update') : undefined;
    if (!client) throw new ApiError('NOT_FOUND', 'no client with this client_id');
    if (client.deletedAt !== null) throw new ApiError('CONFLICT', 'this client has been deleted');
    if ((await credentials.countActive(clientId, kind, now)) >= MAX_ACTIVE_CREDENTIALS) {
      throw new ApiError('CONFLICT', `this account already has ${MAX_ACTIVE_CREDENTIALS} active ${NOUN[kind]}s, the most it may have; delete one first`);
    }
    const { plaintext, row } = newCredential({ clientId, kind, name, now, expiresAt });
    await credentials.insert(row);
    const after = { [AUDIT[kind].code]: row.code, name, expires_at: expiresAt === null ? null : iso(expiresAt) };
    await recordAudit(trx, { clientId, action: AUDIT[kind].created, actor, at: now, before: null, after });
    return { credential: row, plaintext };
  });
}

async function remove(deps: CredentialsDeps, clientId: string, kind: AccountCredentialKind, code: string, actor: AuditActor): Promise<void> {
  const now = deps.clock.now();
  await changeAccounts(deps, async (trx) => {
    const credentials = createCredentialsRepository(trx);
    const client = isUuid(clientId) ? await credentials.lockClient(clientId, 'update') : undefined;
    if (!client) throw new ApiError('NOT_FOUND', 'no client with this client_id');
    const credential = isUuid(code) ? await credentials.findListed(clientId, kind, code) : undefined;
    if (!credential) throw new ApiError('NOT_FOUND', `no ${NOUN[kind]} with this code`);
    const active = credential.expiresAt === null || credential.expiresAt > now;
    if (active && flowEnabled(client.authMethod, FLOW[kind]) && (await credentials.countActive(clientId, kind, now)) <= 1) {
      throw new ApiError('CONFLICT', 
        `this is the last active ${NOUN[kind]} of an account whose auth_method (${client.authMethod}) enables the ${FLOW[kind]} flow; ` +
          `create another ${NOUN[kind]} first`,
      );
    }
    await credentials.markDeleted({ code }, now);
    await credentials.revokeRefreshTokens({ credentialCode: code }, kind === 'api_key' ? 'key_deleted' : 'secret_deleted', now);
    await recordAudit(trx, { clientId, action: AUDIT[kind].deleted, actor, at: now, before: { [AUDIT[kind].code]: code, deleted_at: null }, after: { [AUDIT[kind].code]: code, deleted_at: iso(now) } });
  });
}
