import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Schema } from '../../platform/db/schema.js';
import type { AuditActor } from './audit.actor.js';

/** Reads and purges of the audit log; entries are written by recordAudit, in each change's own transaction. */
export interface AuditRepository {
  /** The ids of the entries, newest first; of one client when `clientId` is given. */
  ids(clientId: string | undefined): Promise<number[]>;
  /** Entries by id. */
  entries(ids: readonly number[]): Promise<Map<number, AuditEntry>>;
  /** Deletes entries written before `at` (epoch ms); returns how many. */
  purgeBefore(at: number): Promise<number>;
}

/** The kinds of change recorded, by who may make them: operators change accounts, either side their credentials; the service disables a webhook endpoint that is gone or never answered. */
export const AUDIT_ACTIONS = [
  'client.onboarded',
  'client.updated',
  'client.reset',
  'client.offboarded',
  'api_key.created',
  'api_key.deleted',
  'secret.created',
  'secret.deleted',
  'check_endpoint.set',
  'check_endpoint.deleted',
  'webhook.disabled',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Field values as the wire names them: never a credential, a digest or a token. */
export type AuditFields = Readonly<Record<string, string | number | boolean | null>>;

export interface AuditChange {
  clientId: string;
  action: AuditAction;
  actor: AuditActor;
  at: number;
  before: AuditFields | null;
  after: AuditFields | null;
}

export interface AuditEntry extends AuditChange {
  id: number;
}

/**
 * Records a change in the transaction that makes it: committed with it, or rolled back with it,
 * so that no change goes unrecorded and no failed change leaves an entry. Every writer of an
 * audited change calls this with its own `trx`.
 */
export async function recordAudit(trx: Kysely<Schema>, change: AuditChange): Promise<void> {
  const { actor } = change;
  await trx
    .insertInto('audit_log')
    .values({
      at: change.at,
      client_id: change.clientId,
      action: change.action,
      actor_type: actor.type,
      actor_via: actor.via,
      actor_client_id: actor.type === 'client' ? actor.clientId : null,
      actor_credential_code: actor.type === 'client' ? actor.credentialCode : null,
      actor_token_id: actor.type === 'client' ? actor.tokenId : null,
      source_address: actor.address,
      before: change.before === null ? null : JSON.stringify(change.before),
      after: change.after === null ? null : JSON.stringify(change.after),
    })
    .execute();
}

export function createAuditRepository(db: Kysely<Schema>): AuditRepository {
  const scoped = (clientId: string | undefined) => {
    const query = db.selectFrom('audit_log');
    return clientId === undefined ? query : query.where('client_id', '=', clientId);
  };

  return {
    async ids(clientId) {
      const rows = await scoped(clientId).select('id').orderBy('id', 'desc').execute();
      return rows.map((row) => Number(row.id));
    },

    async entries(ids) {
      const rows = await db.selectFrom('audit_log').selectAll().where('id', 'in', ids).execute();
      return new Map(rows.map((row) => [Number(row.id), toEntry(row)]));
    },

    async purgeBefore(at) {
      const result = await db.deleteFrom('audit_log').where('at', '<', at).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

function toEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: Number(row.id),
    at: Number(row.at),
    clientId: row.client_id,
    action: actionOf(row.action),
    actor: actorOf(row),
    before: fieldsOf(row.before),
    after: fieldsOf(row.after),
  };
}

// The columns are plain text: a value outside the vocabulary is a broken row, not an entry.
function actionOf(value: string): AuditAction {
  const action = AUDIT_ACTIONS.find((a) => a === value);
  if (action === undefined) throw new Error(`audit entry with an unknown action ${value}`);
  return action;
}

function actorOf(row: Selectable<AuditLogTable>): AuditActor {
  const address = row.source_address;
  if (row.actor_type === 'operator' && (row.actor_via === 'admin_api' || row.actor_via === 'cli')) return { type: 'operator', via: row.actor_via, address };
  if (row.actor_type === 'service' && row.actor_via === 'webhooks') return { type: 'service', via: 'webhooks', address: null };
  if (row.actor_type === 'client' && (row.actor_via === 'api_key' || row.actor_via === 'bearer') && row.actor_client_id !== null) {
    return {
      type: 'client',
      via: row.actor_via,
      clientId: row.actor_client_id,
      credentialCode: row.actor_credential_code,
      tokenId: row.actor_token_id,
      address,
    };
  }
  throw new Error(`audit entry ${row.id} has an unknown actor`);
}

function fieldsOf(json: string | null): AuditFields | null {
  if (json === null) return null;
  const value: unknown = JSON.parse(json);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('audit entry with fields that are not an object');
  const fields: Record<string, string | number | boolean | null> = {};
  for (const [name, field] of Object.entries(value)) {
    if (field === null || typeof field === 'string' || typeof field === 'number' || typeof field === 'boolean') fields[name] = field;
  }
  return fields;
}
