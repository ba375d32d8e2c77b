import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import { lockedTransaction } from '../../platform/db/locked-transaction.js';
import type { Schema, WebhookEndpointsTable } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { type UncachedList, uncachedList } from '../../platform/lists/uncached-lists.js';
import { urlRedactor } from '../../platform/logging.js';
import type { SecretCipher } from '../../platform/secret-cipher.js';
import { DAY_MS } from '../../platform/time.js';
import { iso } from '../../shared/wire.js';
import { type AuditActor, type AuditAction, type AuditFields, recordAudit } from '../audit/index.js';
import { newWebhookSecret } from './webhook.sender.js';
import type { CreatedWebhook, NewWebhookBody, Webhook, WebhookChangeBody } from './webhook.schemas.js';
import { webhookView } from './webhook.schemas.js';
import type { WebhookEndpoint } from './webhook.types.js';
import { webhookManagement, type WebhookManagementRepository } from './webhook-management.repository.js';
import { webhookUrl, type WebhookUrlRules } from './webhook-urls.js';

/** How long the secret a rotation replaces keeps signing beside the new one: a day to deploy the new one. */
export const PREVIOUS_SECRET_SIGNS_MS = DAY_MS;

/** A client's webhook endpoints: made, listed, changed, deleted and their secrets rotated, each change audited. */
export interface WebhookEndpointsService {
  /** The client's endpoints not deleted, oldest first. */
  readonly list: UncachedList<{ clientId: string }, Webhook>;
  /** The client's endpoint; 404 when it is another client's, deleted or none. */
  get(clientId: string, id: string): Promise<WebhookEndpoint>;
  /** Makes an endpoint and its secret, shown this once; 409 past `cap` endpoints (null: no cap). */
  create(clientId: string, body: NewWebhookBody, cap: number | null, actor: AuditActor): Promise<CreatedWebhook>;
  /** Changes what the body names; re-enabling makes its waiting messages due at once, their retries afresh. */
  update(clientId: string, id: string, body: WebhookChangeBody, actor: AuditActor): Promise<Webhook>;
  remove(clientId: string, id: string, actor: AuditActor): Promise<void>;
  /** A new secret, shown this once; the one it replaces signs beside it for PREVIOUS_SECRET_SIGNS_MS. */
  rotateSecret(clientId: string, id: string, actor: AuditActor): Promise<{ id: string; secret: string; previous_secret_expires_at: string }>;
  /** The secrets a message to the endpoint is signed with now: the current one first, then the previous while it still signs. */
  signingSecrets(endpoint: WebhookEndpoint): string[];
}

export interface WebhookEndpointsDeps {
  db: Kysely<Schema>;
  clock: Clock;
  cipher: SecretCipher;
  urls: WebhookUrlRules;
}

/** An endpoint's id: `ep_` and 16 random bytes (base64url). */
const newEndpointId = () => `ep_${randomBytes(16).toString('base64url')}`;

/** What the operations share: the deps, the owned-endpoint read and one audited change in its transaction. */
interface Scope extends WebhookEndpointsDeps {
  repository: WebhookManagementRepository;
  owned(repo: WebhookManagementRepository, clientId: string, id: string): Promise<WebhookEndpoint>;
  change<T>(clientId: string, actor: AuditActor, work: (repo: WebhookManagementRepository, audit: Audit) => Promise<T>): Promise<T>;
}

type Audit = (action: AuditAction, before: AuditFields | null, after: AuditFields | null) => Promise<void>;

export function createWebhookEndpoints(deps: WebhookEndpointsDeps): WebhookEndpointsService {
  const { db, clock, cipher } = deps;
  const scope: Scope = {
    ...deps,
    repository: webhookManagement(db),
    async owned(repo, clientId, id) {
      const endpoint = await repo.ownedBy(clientId, id);
      if (endpoint === undefined) throw new ApiError('NOT_FOUND', 'no webhook endpoint with this id');
      return endpoint;
    },
    change: (clientId, actor, work) =>
      lockedTransaction(db, (trx) => work(webhookManagement(trx), (action, before, after) => recordAudit(trx, { clientId, action, actor, at: clock.now(), before, after }))),
  };

  return {
    list: uncachedList({
      name: 'webhooks',
      ids: ({ clientId }) => scope.repository.idsOf(clientId),
      async items(ids) {
        const now = clock.now();
        return new Map([...(await scope.repository.byIds(ids))].map(([id, endpoint]) => [id, webhookView(endpoint, now)]));
      },
    }),
    get: (clientId, id) => scope.owned(scope.repository, clientId, id),
    create: (clientId, body, cap, actor) => createEndpoint(scope, clientId, body, cap, actor),
    update: (clientId, id, body, actor) => updateEndpoint(scope, clientId, id, body, actor),
    remove: (clientId, id, actor) =>
      scope.change(clientId, actor, async (repo, audit) => {
        const before = await scope.owned(repo, clientId, id);
        const now = clock.now();
        await repo.update(id, { deleted_at: now, enabled: 0, updated_at: now });
        await audit('webhook.deleted', auditedOf(before), null);
      }),
    rotateSecret: (clientId, id, actor) => rotateSecret(scope, clientId, id, actor),
    signingSecrets(endpoint) {
      const { previousSecretSealed: previous, previousSecretExpiresAt: until } = endpoint;
      const stillSigns = previous !== null && until !== null && until > clock.now();
      return [cipher.open(endpoint.secretSealed), ...(stillSigns ? [cipher.open(previous)] : [])];
    },
  };
}

async function createEndpoint(scope: Scope, clientId: string, body: NewWebhookBody, cap: number | null, actor: AuditActor): Promise<CreatedWebhook> {
  const url = await webhookUrl(body.url, scope.urls);
  const secret = newWebhookSecret(randomBytes);
  const now = scope.clock.now();
  const enabled = body.enabled ?? true;
  const row: WebhookEndpointsTable = {
    id: newEndpointId(),
    client_id: clientId,
    url: url.href,
    description: body.description ?? '',
    event_types: JSON.stringify(body.event_types),
    filters: JSON.stringify(body.filters ?? {}),
    enabled: enabled ? 1 : 0,
    disabled_reason: enabled ? null : 'client',
    disabled_at: enabled ? null : now,
    secret_sealed: scope.cipher.seal(secret),
    previous_secret_sealed: null,
    previous_secret_expires_at: null,
    last_sequence: 0,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  return scope.change(clientId, actor, async (repo, audit) => {
    await repo.lockClient(clientId);
    const kept = (await repo.idsOf(clientId)).length;
    if (cap !== null && kept >= cap) {
      throw new ApiError('CONFLICT', `this account already has ${cap} webhook endpoints, the most its tier may keep; delete one first`);
    }
    await repo.insert(row);
    const endpoint = await scope.owned(repo, clientId, row.id);
    await audit('webhook.created', null, auditedOf(endpoint));
    return { ...webhookView(endpoint, now), secret };
  });
}

async function updateEndpoint(scope: Scope, clientId: string, id: string, body: WebhookChangeBody, actor: AuditActor): Promise<Webhook> {
  const url = body.url === undefined ? undefined : (await webhookUrl(body.url, scope.urls)).href;
  return scope.change(clientId, actor, async (repo, audit) => {
    const before = await scope.owned(repo, clientId, id);
    const now = scope.clock.now();
    const changes = changesOf(before, { ...body, url }, now);
    if (Object.keys(changes).length === 0) return webhookView(before, now);
    await repo.update(id, { ...changes, updated_at: now });
    if (body.enabled === true && !before.enabled) await repo.resumePending(id, now);
    const after = await scope.owned(repo, clientId, id);
    await audit('webhook.updated', ...changedFields(auditedOf(before), auditedOf(after)));
    return webhookView(after, now);
  });
}

async function rotateSecret(scope: Scope, clientId: string, id: string, actor: AuditActor): Promise<{ id: string; secret: string; previous_secret_expires_at: string }> {
  const secret = newWebhookSecret(randomBytes);
  return scope.change(clientId, actor, async (repo, audit) => {
    const before = await scope.owned(repo, clientId, id);
    const now = scope.clock.now();
    const expiresAt = now + PREVIOUS_SECRET_SIGNS_MS;
    await repo.update(id, { secret_sealed: scope.cipher.seal(secret), previous_secret_sealed: before.secretSealed, previous_secret_expires_at: expiresAt, updated_at: now });
    // Never a secret, sealed or not: only that one was replaced, and until when it signs.
    await audit('webhook.secret_rotated', null, { id, previous_secret_expires_at: iso(expiresAt) });
    return { id, secret, previous_secret_expires_at: iso(expiresAt) };
  });
}

/** The columns a change sets: only those whose value differs. Disabling by request says so; enabling clears why it was disabled. */
function changesOf(before: WebhookEndpoint, body: WebhookChangeBody, now: number): Partial<WebhookEndpointsTable> {
  const changes: Partial<WebhookEndpointsTable> = {};
  if (body.url !== undefined && body.url !== before.url) changes.url = body.url;
  if (body.description !== undefined && body.description !== before.description) changes.description = body.description;
  if (body.event_types !== undefined && JSON.stringify(body.event_types) !== JSON.stringify(before.eventTypes)) changes.event_types = JSON.stringify(body.event_types);
  if (body.filters !== undefined && JSON.stringify(body.filters) !== JSON.stringify(before.filters)) changes.filters = JSON.stringify(body.filters);
  if (body.enabled === true && !before.enabled) Object.assign(changes, { enabled: 1, disabled_reason: null, disabled_at: null });
  if (body.enabled === false && before.enabled) Object.assign(changes, { enabled: 0, disabled_reason: 'client', disabled_at: now });
  return changes;
}

/** A URL as the logs show it: a query value named like a credential redacted, which the log would otherwise keep. */
const redactUrl = urlRedactor();

/** What the audit log keeps of an endpoint: never its secret, sealed or not. */
function auditedOf(endpoint: WebhookEndpoint): AuditFields {
  return {
    id: endpoint.id,
    url: redactUrl(endpoint.url),
    description: endpoint.description,
    event_types: endpoint.eventTypes.join(','),
    filters: JSON.stringify(endpoint.filters),
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
  };
}

/** The fields that differ, before and after, with the endpoint's id on both. */
function changedFields(before: AuditFields, after: AuditFields): [AuditFields, AuditFields] {
  const names = Object.keys(after).filter((name) => name !== 'id' && before[name] !== after[name]);
  const pick = (fields: AuditFields) => Object.fromEntries([['id', fields.id ?? null], ...names.map((name) => [name, fields[name] ?? null])]) as AuditFields;
  return [pick(before), pick(after)];
}
