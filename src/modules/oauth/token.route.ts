import { STANDARD_ENDPOINT } from '../../platform/http/strict-input.js';
import type { App } from '../../platform/http/types.js';
import { TokenPair } from '../tokens/index.js';
import { authenticateClient, clientAuthenticationOf } from './client-authentication.js';
import { invalidRequest, OAuthError } from './oauth-errors.js';
import type { OAuthDeps } from './oauth.routes.js';
import { oauthErrorResponses, TokenRequest } from './oauth.schemas.js';

export const TOKEN_PATH = '/v1/oauth/token';
const GRANTS = ['client_credentials', 'refresh_token'] as const;
type Grant = (typeof GRANTS)[number];

/**
 * POST /v1/oauth/token (RFC 6749 §3.2): the client_credentials grant (§4.4) starts an OAuth-flow
 * session, the refresh_token grant (§6) rotates one — both through the token service, so the pairs
 * and the rotation and reuse rules are those of /v1/oauth/login and /v1/oauth/refresh (0004).
 * Checks in order: a known grant type, the client's authentication, the OAuth flow of its
 * account, no scope, then the grant.
 */
export function tokenRoute(app: App, deps: OAuthDeps): void {
  const { tokens } = deps;
  app.post(
    TOKEN_PATH,
    {
      config: { policy: { auth: 'none', cache: 'token', security: [{ ClientSecretBasic: [] }, {}] } },
      schema: {
        tags: ['authentication'],
        summary: 'OAuth 2.0 token endpoint (RFC 6749): client_credentials and refresh_token grants',
        description:
          'For standard OAuth 2.0 client libraries: a form body, client authentication by HTTP Basic (`client_secret_basic`) or ' +
          '`client_id` and `client_secret` in the body (`client_secret_post`), errors as RFC 6749 §5.2 describes them, unknown ' +
          'parameters ignored. The pair is the one `/v1/oauth/login` gives (with a refresh token, although RFC 6749 §4.4.3 makes ' +
          'it optional, so that a session can be refreshed and revoked). The refresh_token grant needs the client authentication ' +
          'too, and the refresh token must have been issued to that client by an OAuth login or grant. Scopes are not supported. ' +
          'Allowed when the account auth_method is oauth or both (else 401 unauthorized_client). Discover it at ' +
          '/.well-known/oauth-authorization-server.',
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: {
          200: TokenPair,
          ...oauthErrorResponses({
            400: 'invalid_request (a missing or repeated parameter, a body that is not a form), invalid_grant (the refresh token is unknown, expired, revoked or another client’s), unsupported_grant_type, invalid_scope.',
            401: 'invalid_client (authentication failed; with `WWW-Authenticate: Basic realm="sports-data-api"`) or unauthorized_client (the account’s auth_method does not enable OAuth).',
            413: 'invalid_request: the body is over 1 MiB.',
            429: 'invalid_request: a failed client authentication from an address past its failure limit for this minute (Retry-After); correct credentials are still served.',
            500: 'server_error.',
            503: 'temporarily_unavailable: this node is shutting down; retry (Retry-After).',
          }),
        },
        [STANDARD_ENDPOINT]: 'RFC 6749',
      },
    },
    async (request) => {
      const form = request.body;
      const grant = grantOf(form.grant_type);
      const holder = await authenticateClient(request, clientAuthenticationOf(request, form, { apiKey: false }), deps);
      rejectScope(form.scope);
      if (grant === 'client_credentials') return tokens.startOAuthSession(holder);
      return tokens.refresh('oauth', requireRefreshToken(form.refresh_token), request.log, holder.account.id);
    },
  );
}

function grantOf(grantType: string): Grant {
  const grant = GRANTS.find((g) => g === grantType);
  // The value is not echoed: a client that put a secret in the wrong field must not see it logged back.
  if (grant === undefined) throw new OAuthError('unsupported_grant_type', 'grant_type must be client_credentials or refresh_token');
  return grant;
}

/**
 * RFC 6749 §3.3: a server may ignore a requested scope, but must then say which scope it granted.
 * There are no scopes here (what a client may read follows from its account), so a requested scope
 * is refused rather than silently dropped. An empty one is no scope (§3.2: treated as omitted).
 */
function rejectScope(scope: string | undefined): void {
  if (scope !== undefined) throw new OAuthError('invalid_scope', 'scopes are not supported: send no scope parameter');
}

function requireRefreshToken(refreshToken: string | undefined): string {
  if (refreshToken === undefined) throw invalidRequest('refresh_token is required with grant_type=refresh_token');
  return refreshToken;
}
