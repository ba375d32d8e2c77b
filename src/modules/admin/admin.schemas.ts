import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { iso, Label, NO_NUL } from '../../shared/wire.js';
import { AUTH_METHODS, type ClientAccount, FLOW_VOCABULARIES, TIERS } from '../auth/index.js';
import type { ClientCredentials } from '../clients/index.js';
import { LIMIT_MAX, type Limits } from '../limits/index.js';

/** Client names are labels for operators: 1 to 200 characters, not only blanks, no U+0000 (PostgreSQL text cannot hold it). */
export const NAME_MAX_LENGTH = 200;
export const CLIENTS_PAGE_SIZE_MAX = 100;

const ClientId = Type.String({ format: 'uuid', description: 'Client identifier (UUID).' });
const TenantId = Type.String({ format: 'uuid', description: 'Tenant identifier (UUID). A tenant owns one or more client accounts.' });
const Name = Label(NAME_MAX_LENGTH, 'A label for operators, e.g. the customer name.');
// `enum` rather than a union of literals: a bad value is then reported as "must be one of …".
const TierSchema = Type.Enum(TIERS, { description: 'Account tier.' });
const AuthMethodSchema = Type.Enum(AUTH_METHODS, {
  description: 'Which authentication flows the account may use: api_key, oauth or both (docs/api.md#which-flows-an-account-may-use).',
});
const FlowVocabularySchema = Type.Enum(FLOW_VOCABULARIES, {
  description:
    'The names its flow answers give `flow_type` in: `ours` (fact, fun, plain; the default) or `odditt` (fact_flow, fun_flow, fact_flow_parlay, ' +
    'fun_flow_parlay, plain_flow_parlay), for a client written for Odditt (docs/api.md#coming-from-odditt).',
});
const Disabled = Type.Boolean({ description: 'A disabled client gets 401 everywhere, also with an unexpired access token.' });
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
const ApiKey = Type.String({ description: 'The API key (`sdk_…`). Shown only in this response: it is stored as a digest.' });
const ClientSecret = Type.String({ description: 'The OAuth client secret (`sds_…`). Shown only in this response: it is stored as a digest.' });

/**
 * An operator's override of one limit: a positive integer, or null for the tier's default. One
 * schema with a type list (not a union), so that 0 breaks a rule (422) and "10" is a wrong type (400).
 */
const Override = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: LIMIT_MAX, description: `${description} null: the tier's default.` });
const RateLimitOverride = Override('Per-client override of the per-minute rate (every /v1 call, per UTC minute).');
const DailyQuotaOverride = Override('Per-client override of the daily quota (data calls, per UTC day).');
const Cap = (description: string) => Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: `${description} null: no cap.` });

const clientProperties = {
  client_id: ClientId,
  tenant_id: TenantId,
  name: Type.String({ description: 'The label given at onboarding, e.g. the customer name.' }),
  tier: TierSchema,
  auth_method: AuthMethodSchema,
  disabled: Disabled,
  rate_limit_per_minute: RateLimitOverride,
  daily_quota: DailyQuotaOverride,
  flow_vocabulary: FlowVocabularySchema,
  effective_limits: Type.Object(
    { per_minute: Cap('Requests per UTC minute.'), per_day: Cap('Data requests per UTC day.') },
    { additionalProperties: false, description: "The limits in force: the overrides, else the tier's (TIER_LIMITS)." },
  ),
  created_at: Timestamp('When the client was onboarded (ISO 8601, UTC).'),
};

/** A client account as the admin API shows it: never with credentials. */
export const Client = Type.Object(
  {
    ...clientProperties,
    updated_at: Timestamp('Last change by an operator (ISO 8601, UTC).'),
    deleted_at: Type.Union([Timestamp('When the client was offboarded (DELETE): 401 client_deleted everywhere since.'), Type.Null()], {
      description: 'When the client was offboarded (DELETE): 401 client_deleted everywhere since; null while it exists.',
    }),
  },
  { title: 'Client', additionalProperties: false },
);
export type ClientView = Static<typeof Client>;

/** The answer to onboarding: the one time the credentials are shown. */
export const CreatedClient = Type.Object(
  { ...clientProperties, api_key: ApiKey, client_secret: ClientSecret },
  { title: 'CreatedClient', additionalProperties: false },
);
export type CreatedClientView = Static<typeof CreatedClient>;

/** The answer to a credential rotation: the client with its new credentials, shown once. */
export const ClientWithCredentials = Type.Object(
  { ...Client.properties, api_key: ApiKey, client_secret: ClientSecret },
  { title: 'ClientWithCredentials', additionalProperties: false },
);
export type ClientWithCredentialsView = Static<typeof ClientWithCredentials>;

export const ClientsPage = PageOf(Client, 'ClientsPage');

export const NewClientBody = Type.Object(
  {
    name: Name,
    tier: TierSchema,
    auth_method: AuthMethodSchema,
    tenant_id: Type.Optional(Type.String({ format: 'uuid', description: 'An existing tenant to add the client to; a new tenant is created when absent.' })),
  },
  // Unknown fields are refused: a typo such as `authMethod` must not pass silently.
  { additionalProperties: false },
);
export type NewClientBody = Static<typeof NewClientBody>;

export const ClientPatchBody = Type.Object(
  {
    auth_method: Type.Optional(AuthMethodSchema),
    tier: Type.Optional(TierSchema),
    disabled: Type.Optional(Disabled),
    rate_limit_per_minute: Type.Optional(RateLimitOverride),
    daily_quota: Type.Optional(DailyQuotaOverride),
    flow_vocabulary: Type.Optional(FlowVocabularySchema),
  },
  {
    additionalProperties: false,
    description: 'At least one of auth_method, tier, disabled, rate_limit_per_minute, daily_quota, flow_vocabulary. Takes effect on the next request.',
  },
);
export type ClientPatchBody = Static<typeof ClientPatchBody>;

// Not `format: uuid`: any id that names no client is a 404, not a validation error (the service
// answers 404 for a non-UUID without asking the database, which may not be able to compare it).
export const ClientParams = Type.Object({ client_id: Type.String({ description: 'Client identifier (UUID).' }) });

export const ClientsQuery = Type.Object(
  {
    ...pagingProperties(CLIENTS_PAGE_SIZE_MAX),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, ...NO_NUL, description: 'A part of the name, ignoring the case of ASCII letters.' })),
  },
  { additionalProperties: false },
);

// The mapping from accounts to the wire shapes, shared by the admin API and the CLI so both
// print the same JSON.

export function clientView(account: ClientAccount, limits: Limits): ClientView {
  return {
    client_id: account.id,
    tenant_id: account.tenantId,
    name: account.name,
    tier: account.tier,
    auth_method: account.authMethod,
    disabled: account.disabled,
    rate_limit_per_minute: account.rateLimitPerMinute,
    daily_quota: account.dailyQuota,
    flow_vocabulary: account.flowVocabulary,
    effective_limits: { per_minute: limits.perMinute, per_day: limits.perDay },
    created_at: iso(account.createdAt),
    updated_at: iso(account.updatedAt),
    deleted_at: account.deletedAt === null ? null : iso(account.deletedAt),
  };
}

export function createdClientView(account: ClientAccount, limits: Limits, credentials: ClientCredentials): CreatedClientView {
  const { updated_at: _updatedAt, deleted_at: _deletedAt, ...client } = clientView(account, limits);
  return { ...client, api_key: credentials.apiKey, client_secret: credentials.clientSecret };
}

export function clientWithCredentialsView(account: ClientAccount, limits: Limits, credentials: ClientCredentials): ClientWithCredentialsView {
  return { ...clientView(account, limits), api_key: credentials.apiKey, client_secret: credentials.clientSecret };
}
