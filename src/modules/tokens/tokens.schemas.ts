import { type Static, Type } from 'typebox';

/** The token pair (docs/api.md#token-pairs), answered by both logins and both refreshes. */
export const TokenPair = Type.Object(
  {
    access_token: Type.String({ description: 'HS256 JWT for the Authorization: Bearer header.' }),
    refresh_token: Type.String({ description: 'Opaque; exchanges once for a new pair at the refresh endpoint of the same flow.' }),
    token_type: Type.Literal('Bearer', { description: 'Always Bearer.' }),
    expires_at: Type.String({ format: 'date-time', description: 'When the access token expires (its exp claim), ISO 8601 UTC.' }),
    expires_in: Type.Integer({ minimum: 1, description: 'Access token time to live, seconds.', 'x-unit': 'seconds' }),
  },
  { title: 'TokenPair', additionalProperties: false },
);
export type TokenPair = Static<typeof TokenPair>;

/**
 * OAuth 2.0 client credentials. Other fields are tolerated and ignored (decision 0014), so that
 * client-credentials libraries posting JSON work — except `grant_type`, which, when sent, must
 * name this grant: a refresh sent here by mistake must not quietly start a new session.
 */
export const ClientCredentialsBody = Type.Object(
  {
    client_id: Type.String({ description: 'The client id (UUID) given at onboarding.', example: '0b9e4f3a-6c1d-4f0e-9a55-2f1e8c7d6b5a' }),
    client_secret: Type.String({ description: 'The client secret (sds_…) given at onboarding.' }),
    grant_type: Type.Optional(
      Type.Literal('client_credentials', { description: 'Optional; when sent, must be `client_credentials` (other fields are ignored).' }),
    ),
  },
  { title: 'ClientCredentials' },
);
export type ClientCredentialsBody = Static<typeof ClientCredentialsBody>;

export const RefreshBody = Type.Object(
  {
    refresh_token: Type.String({ description: 'The refresh token (sdr_…) of the latest pair.' }),
  },
  { title: 'RefreshRequest', additionalProperties: false },
);
export type RefreshBody = Static<typeof RefreshBody>;
