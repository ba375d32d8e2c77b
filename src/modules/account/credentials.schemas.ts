import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { iso, Label } from '../../shared/wire.js';
import type { CreatedCredential, ListedCredential } from '../clients/index.js';

/**
 * The wire shapes of an account's API keys and client secrets (the Odditt paths), shared by the
 * client's own endpoints, the admin API and the CLI. A listing never carries a credential or a
 * digest: only the code, the name and a preview.
 */

export const CREDENTIALS_PAGE_SIZE_MAX = 100;
export const CREDENTIAL_NAME_MAX_LENGTH = 100;

const Code = (what: string) => Type.String({ format: 'uuid', description: `The ${what}'s public id (UUID): name it to delete it. Not a secret.` });
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
const NullableTimestamp = (description: string) => Type.Union([Timestamp(description), Type.Null()], { description });
const CreatedAt = (noun: string) => Timestamp(`When the ${noun} was created (ISO 8601, UTC).`);
const KeyExpiresAt = () => NullableTimestamp('When the key stops working; null: never.');
/** The credential itself, in the answer to its creation only. */
const Plaintext = (what: string, prefix: string) => Type.String({ description: `The new ${what} (\`${prefix}_…\`). Shown in this response only: store it now.` });
const NewLabel = (noun: string) => Type.String({ description: `The label given to the new ${noun}.` });
const Name = Label(CREDENTIAL_NAME_MAX_LENGTH, 'A label of your choosing, e.g. where the credential is deployed.');
const Preview = (prefix: string) =>
  Type.String({
    description:
      `\`${prefix}_…\` and the last 4 characters, to tell credentials apart. Credentials issued before an account could hold several ` +
      'show the prefix only (only their digest was ever stored).',
  });

export const ApiKeyItem = Type.Object(
  {
    key_code: Code('API key'),
    name: Type.String({ description: 'The label given when the key was created (`onboarding`, `operator reset` for keys an operator issued).' }),
    preview: Preview('sdk'),
    created_at: CreatedAt('key'),
    expires_at: KeyExpiresAt(),
    last_used_at: NullableTimestamp('The minute of the latest use of the key (X-API-Key or /v1/auth/login); null: not used yet. Updated within about 15 seconds.'),
    active: Type.Boolean({ description: 'False once expires_at has passed: an expired key is refused like a deleted one.' }),
  },
  { title: 'ApiKey', additionalProperties: false },
);
export type ApiKeyItem = Static<typeof ApiKeyItem>;

export const ApiKeysPage = PageOf(ApiKeyItem, 'ApiKeysPage');

export const SecretItem = Type.Object(
  {
    secret_code: Code('client secret'),
    name: Type.String({ description: 'The label given when the secret was created.' }),
    secret_preview: Preview('sds'),
    created_at: CreatedAt('secret'),
  },
  { title: 'ClientSecret', additionalProperties: false },
);
export type SecretItem = Static<typeof SecretItem>;

export const SecretsPage = PageOf(SecretItem, 'ClientSecretsPage');

export const CredentialsQuery = Type.Object(pagingProperties(CREDENTIALS_PAGE_SIZE_MAX), { additionalProperties: false });

export const NewApiKeyBody = Type.Object(
  {
    name: Name,
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the key stops working (ISO 8601, in the future); absent: never.' })),
  },
  { additionalProperties: false },
);
export type NewApiKeyBody = Static<typeof NewApiKeyBody>;

export const NewSecretBody = Type.Object({ name: Type.Optional(Name) }, { additionalProperties: false, description: 'Optional: a label for the secret.' });
export type NewSecretBody = Static<typeof NewSecretBody>;

export const CreatedApiKey = Type.Object(
  {
    api_key: Plaintext('API key', 'sdk'),
    key_code: Code('API key'),
    name: NewLabel('key'),
    created_at: CreatedAt('key'),
    expires_at: KeyExpiresAt(),
  },
  { title: 'CreatedApiKey', additionalProperties: false },
);

export const CreatedSecret = Type.Object(
  {
    client_secret: Plaintext('client secret', 'sds'),
    secret_code: Code('client secret'),
    name: NewLabel('secret'),
    secret_preview: Preview('sds'),
    created_at: CreatedAt('secret'),
  },
  { title: 'CreatedClientSecret', additionalProperties: false },
);

// Not `format: uuid`: a code that names no credential is a 404, whatever its form.
export const KeyCodeParams = Type.Object({ key_code: Type.String({ description: 'The key_code of the API key.' }) });
export const SecretCodeParams = Type.Object({ secret_code: Type.String({ description: 'The secret_code of the client secret.' }) });

/** 204: nothing to say. */
export const Deleted = Type.Null({ description: 'Deleted: it stops working at once, and so do the sessions it started.' });

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function apiKeyView(key: ListedCredential, now: number): ApiKeyItem {
  return {
    key_code: key.code,
    name: key.name,
    preview: key.preview,
    created_at: iso(key.createdAt),
    expires_at: isoOrNull(key.expiresAt),
    last_used_at: isoOrNull(key.lastUsedAt),
    active: key.expiresAt === null || key.expiresAt > now,
  };
}

export function secretView(secret: ListedCredential): SecretItem {
  return { secret_code: secret.code, name: secret.name, secret_preview: secret.preview, created_at: iso(secret.createdAt) };
}

export function createdApiKeyView({ credential, plaintext }: CreatedCredential): Static<typeof CreatedApiKey> {
  return { api_key: plaintext, key_code: credential.code, name: credential.name, created_at: iso(credential.createdAt), expires_at: isoOrNull(credential.expiresAt) };
}

export function createdSecretView({ credential, plaintext }: CreatedCredential): Static<typeof CreatedSecret> {
  return { client_secret: plaintext, secret_code: credential.code, name: credential.name, secret_preview: credential.preview, created_at: iso(credential.createdAt) };
}
