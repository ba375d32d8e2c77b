import { Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { iso } from '../../shared/wire.js';
import type { AuditActor } from './audit.actor.js';
import { AUDIT_ACTIONS, type AuditEntry } from './audit.repository.js';

export const AUDIT_PAGE_SIZE_MAX = 100;

const fields = (description: string) =>
  Type.Union([Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])), Type.Null()], { description });

const Actor = Type.Object(
  {
    type: Type.Enum(['operator', 'client', 'service'], { description: 'An operator (ADMIN_TOKEN or the CLI), the client itself, or the service on its own rules.' }),
    via: Type.Enum(['admin_api', 'cli', 'api_key', 'bearer', 'webhooks'], {
      description: 'How the actor called: the admin API, the CLI on the host, an API key, or an access token; `webhooks`: the webhook dispatcher.',
    }),
    client_id: Type.Union([Type.String(), Type.Null()], { description: 'The client that made the change; null for an operator.' }),
    credential_code: Type.Union([Type.String(), Type.Null()], {
      description: 'The key_code of the API key called with, or of the key or secret the access token was obtained with.',
    }),
    token_id: Type.Union([Type.String(), Type.Null()], { description: 'The id (`jti`) of the access token called with.' }),
    address: Type.Union([Type.String(), Type.Null()], { description: 'The source address of the request; null from the CLI.' }),
  },
  { additionalProperties: false, description: 'Who made the change.' },
);

export const AuditEntrySchema = Type.Object(
  {
    id: Type.Integer({ description: 'Increasing: a newer entry has a larger id.' }),
    at: Type.String({ format: 'date-time', description: 'When the change was made.' }),
    client_id: Type.String({ description: 'The client the change is about.' }),
    action: Type.Enum(AUDIT_ACTIONS, { description: 'What was done.' }),
    actor: Actor,
    before: fields('The fields the change touched, as they were; null when it created the thing.'),
    after: fields('The same fields as the change left them; never a credential, only its code.'),
  },
  { title: 'AuditEntry', additionalProperties: false },
);

export const AuditPage = PageOf(AuditEntrySchema, 'AuditPage');

export const AccountAuditQuery = Type.Object(pagingProperties(AUDIT_PAGE_SIZE_MAX), { additionalProperties: false });

export const AdminAuditQuery = Type.Object(
  { ...pagingProperties(AUDIT_PAGE_SIZE_MAX), client_id: Type.Optional(Type.String({ description: 'Only the entries about this client (UUID).' })) },
  { additionalProperties: false },
);

export function auditEntryView(entry: AuditEntry) {
  return {
    id: entry.id,
    at: iso(entry.at),
    client_id: entry.clientId,
    action: entry.action,
    actor: actorView(entry.actor),
    before: entry.before,
    after: entry.after,
  };
}

function actorView(actor: AuditActor) {
  if (actor.type === 'operator' || actor.type === 'service') return { type: actor.type, via: actor.via, client_id: null, credential_code: null, token_id: null, address: actor.address };
  return {
    type: actor.type,
    via: actor.via,
    client_id: actor.clientId,
    credential_code: actor.credentialCode,
    token_id: actor.tokenId,
    address: actor.address,
  };
}
