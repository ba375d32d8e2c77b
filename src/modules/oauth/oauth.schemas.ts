import { type Static, type TSchema, Type } from 'typebox';
import { OAUTH_ERROR_CODES } from './oauth-errors.js';

/**
 * The standard endpoints' bodies are forms: every value is text (a list of texts when a parameter
 * was repeated, which the string type refuses). Unknown parameters are allowed and ignored
 * (RFC 6749 §3.2), so the objects stay open.
 */
const text = (description: string, example?: string) => Type.String({ description, ...(example === undefined ? {} : { example }) });

const clientFields = {
  client_id: Type.Optional(text('client_secret_post: the client id (UUID). With HTTP Basic it may be sent too, and must then match.')),
  client_secret: Type.Optional(text('client_secret_post: the client secret (sds_…). Not with HTTP Basic.')),
};

export const TokenRequest = Type.Object(
  {
    grant_type: text('`client_credentials` (RFC 6749 §4.4) or `refresh_token` (§6).', 'client_credentials'),
    refresh_token: Type.Optional(text('refresh_token grant: the refresh token of the latest pair, issued to the authenticated client.')),
    scope: Type.Optional(text('Not supported: this server defines no scopes, and a non-empty scope is answered invalid_scope.')),
    ...clientFields,
  },
  { title: 'TokenRequest' },
);
export type TokenRequest = Static<typeof TokenRequest>;

export const RevocationRequest = Type.Object(
  {
    token: text('The token to revoke: a refresh token (ends its whole session) or an access token (answered unsupported_token_type).'),
    token_type_hint: Type.Optional(text('Ignored: the kind of a token is told by its form (RFC 7009 §2.1 allows it).')),
    ...clientFields,
  },
  { title: 'RevocationRequest' },
);
export type RevocationRequest = Static<typeof RevocationRequest>;

/** RFC 6749 §5.2's error body. */
const oauthErrorSchema = (description: string) =>
  Type.Object(
    {
      error: Type.Enum([...OAUTH_ERROR_CODES], { description: 'RFC 6749 §5.2 (and RFC 7009 §2.2.1) error code.' }),
      error_description: Type.String({ description: 'Human-readable explanation (printable ASCII). Never contains credentials.' }),
    },
    { title: 'OAuthError', description, additionalProperties: false },
  );

/** Error responses in RFC 6749's format, by status, for a route's `response` (and so the document). */
export function oauthErrorResponses(statuses: Record<number, string>): Record<number, TSchema> {
  return Object.fromEntries(Object.entries(statuses).map(([status, description]) => [Number(status), oauthErrorSchema(description)]));
}

const url = (description: string) => Type.String({ format: 'uri', description });
const list = (description: string) => Type.Array(Type.String(), { description });

/** RFC 8414 §2: what a client needs to use the standard endpoints. */
export const AuthorizationServerMetadata = Type.Object(
  {
    issuer: url('The issuer identifier: PUBLIC_URL, or the origin the request came to. Not the `iss` of access tokens (JWT_ISSUER).'),
    token_endpoint: url('POST, application/x-www-form-urlencoded (RFC 6749).'),
    token_endpoint_auth_methods_supported: list('client_secret_basic and client_secret_post.'),
    grant_types_supported: list('client_credentials and refresh_token.'),
    response_types_supported: list('Empty: there is no authorization endpoint (client credentials only).'),
    scopes_supported: list('Empty: scopes are not supported; what a client may read follows from its account.'),
    revocation_endpoint: url('POST, application/x-www-form-urlencoded (RFC 7009).'),
    revocation_endpoint_auth_methods_supported: list('client_secret_basic and client_secret_post (an account without the OAuth flow sends X-API-Key instead).'),
    service_documentation: url('The API reference.'),
  },
  { title: 'AuthorizationServerMetadata', additionalProperties: false },
);
export type AuthorizationServerMetadata = Static<typeof AuthorizationServerMetadata>;
