import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { CheckEndpointsTable, Schema } from '../../platform/db/schema.js';
import { validationError } from '../../platform/errors.js';
import { urlRedactor } from '../../platform/logging.js';
import { type AddressRules, rejectInwardAddress } from '../../platform/outbound/address-rules.js';
import type { SecretCipher } from '../../platform/secret-cipher.js';
import { iso } from '../../shared/wire.js';
import type { CheckEndpointData, SetCheckEndpointBody } from './check-endpoint.schemas.js';
import { type CheckEndpointFields, createQuotesRepository } from './quotes.repository.js';
import { type AuditActor, type AuditFields, LOCAL_OPERATOR, recordAudit } from '../audit/index.js';

export const SANDBOX_PATH = '/v1/trends/flows/quote-sandbox';

/** Where quotes go for one client, with its credential opened: held in memory for one request only. */
export interface QuoteTarget {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly allowMultiple: boolean;
}

export interface CheckEndpoints {
  view(clientId: string): Promise<CheckEndpointData | null>;
  /** `ownOrigins`: the origins this service answers on, whose sandbox URL is accepted whatever its address. */
  /** Sets it and records the change (`actor`), in one transaction. */
  set(clientId: string, body: SetCheckEndpointBody, ownOrigins: readonly string[], actor: AuditActor): Promise<CheckEndpointData>;
  /** Removes it, recording the change when there was one to remove. */
  remove(clientId: string, actor?: AuditActor): Promise<void>;
  target(clientId: string): Promise<QuoteTarget | undefined>;
}

export function createCheckEndpoints(deps: { db: Kysely<Schema>; clock: Clock; cipher: SecretCipher; rules: AddressRules }): CheckEndpoints {
  const { db, clock, cipher, rules } = deps;
  const repository = createQuotesRepository(db);

  return {
    async view(clientId) {
      const found = await repository.checkEndpoint(clientId);
      return found === undefined ? null : viewOf(found);
    },

    async set(clientId, body, ownOrigins, actor) {
      const url = endpointUrl(body.url);
      if (!isOwnSandbox(url, ownOrigins)) await rejectInwardAddress(url, rules);
      const headerName = body.auth_header_name ?? 'Authorization';
      // Odditt's default: Bearer with the default header; a header of your own takes the raw token unless told otherwise.
      const scheme = body.auth_scheme ?? (body.auth_header_name === undefined ? 'Bearer' : '');
      const now = clock.now();
      const fields: CheckEndpointFields = {
        url: url.href,
        method: body.method,
        auth_token_sealed: cipher.seal(body.auth_token),
        auth_token_preview: previewOf(body.auth_token),
        auth_header_name: headerName,
        auth_scheme: scheme,
        allow_multiple: body.allow_multiple === true ? 1 : 0,
        updated_at: now,
      };
      return db.transaction().execute(async (trx) => {
        const inTransaction = createQuotesRepository(trx);
        const before = await inTransaction.checkEndpoint(clientId);
        await inTransaction.saveCheckEndpoint(clientId, fields, now);
        const stored = await inTransaction.checkEndpoint(clientId);
        if (stored === undefined) throw new Error('the check endpoint just written is missing');
        await recordAudit(trx, { clientId, action: 'check_endpoint.set', actor, at: now, before: before === undefined ? null : auditedOf(before), after: auditedOf(stored) });
        return viewOf(stored);
      });
    },

    async remove(clientId, actor = LOCAL_OPERATOR) {
      await db.transaction().execute(async (trx) => {
        const inTransaction = createQuotesRepository(trx);
        const before = await inTransaction.checkEndpoint(clientId);
        if (before === undefined) return;
        await inTransaction.deleteCheckEndpoint(clientId);
        await recordAudit(trx, { clientId, action: 'check_endpoint.deleted', actor, at: clock.now(), before: auditedOf(before), after: null });
      });
    },

    async target(clientId) {
      const found = await repository.checkEndpoint(clientId);
      if (found === undefined) return undefined;
      const token = cipher.open(found.auth_token_sealed);
      const value = found.auth_scheme === '' ? token : `${found.auth_scheme} ${token}`;
      return { url: new URL(found.url), headers: { [found.auth_header_name.toLowerCase()]: value }, allowMultiple: found.allow_multiple === 1 };
    },
  };
}

/** Whether a URL is this service's own sandbox, which quotes answer in process instead of calling. */
export function isOwnSandbox(url: URL, ownOrigins: readonly string[]): boolean {
  return url.pathname === SANDBOX_PATH && url.search === '' && ownOrigins.includes(url.origin);
}

function viewOf(row: CheckEndpointsTable): CheckEndpointData {
  return {
    url: row.url,
    method: row.method,
    auth_header_name: row.auth_header_name,
    auth_scheme: row.auth_scheme,
    auth_token_preview: row.auth_token_preview,
    allow_multiple: row.allow_multiple === 1,
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

/** A URL as the logs show it: a query value named like a credential, or shaped like one of ours, redacted. */
const redactUrl = urlRedactor();

/**
 * What the audit log keeps of a check endpoint: never its token, sealed or in part, nor a
 * credential its URL carries (`?api_key=…`), which the log would otherwise keep for its whole retention.
 */
function auditedOf(row: CheckEndpointsTable): AuditFields {
  return { url: redactUrl(row.url), method: row.method, auth_header_name: row.auth_header_name, auth_scheme: row.auth_scheme, allow_multiple: row.allow_multiple === 1 };
}

/** Four characters tell tokens apart; a short token shows none, or the preview would be most of it. */
function previewOf(token: string): string {
  return token.length < 8 ? '…' : `…${token.slice(-4)}`;
}

/** An absolute http(s) URL without credentials or fragment: what a call can be sent to as it is. */
function endpointUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError('url', 'format', 'url must be an absolute http(s) URL');
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw validationError('url', 'format', 'url must be an absolute http(s) URL');
  if (url.username !== '' || url.password !== '') throw validationError('url', 'format', 'url may not carry a user or password: send the credential as auth_token');
  if (url.hash !== '') throw validationError('url', 'format', 'url may not carry a fragment');
  return url;
}
