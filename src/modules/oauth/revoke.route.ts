import type { FastifyReply } from 'fastify';
import { STANDARD_ENDPOINT } from '../../platform/http/strict-input.js';
import type { App } from '../../platform/http/types.js';
import { authenticateClient, clientAuthenticationOf } from './client-authentication.js';
import { OAuthError } from './oauth-errors.js';
import type { OAuthDeps } from './oauth.routes.js';
import { oauthErrorResponses, RevocationRequest } from './oauth.schemas.js';

/** A 200 without a body: RFC 7009 §2.2 conveys everything in the status. */
const revoked = (reply: FastifyReply) => reply.code(200).send();

export const REVOKE_PATH = '/v1/oauth/revoke';

/** RFC 7009 §2.2: the answer to a revocation, and to an unknown token, is a bare 200. */
const REVOKED = {
  description: 'Revoked, or the token was not one of ours (RFC 7009 §2.2: an invalid token is not an error). No body.',
  type: 'null',
} as const;

/**
 * POST /v1/oauth/revoke (RFC 7009): a client logs out. A refresh token of either flow ends its
 * whole family. The client authenticates as at the token endpoint, or with X-API-Key when its
 * account does not enable OAuth, and may revoke only its own tokens.
 */
export function revokeRoute(app: App, deps: OAuthDeps): void {
  app.post(
    REVOKE_PATH,
    {
      config: { policy: { auth: 'none', cache: 'token', security: [{ ClientSecretBasic: [] }, { ApiKeyAuth: [] }, {}] } },
      schema: {
        tags: ['authentication'],
        summary: 'OAuth 2.0 token revocation (RFC 7009): log out by revoking a refresh token',
        description:
          'A refresh token — from either login, API key or OAuth — ends its session: it and every token rotated from the same login ' +
          'stop working. Client authentication as at the token endpoint (HTTP Basic or client_secret_post, for accounts with OAuth ' +
          'enabled), or `X-API-Key` for accounts without it; one method per request. Only the client’s own tokens: another ' +
          'client’s is invalid_request. An unknown, malformed or expired token answers 200 (RFC 7009 §2.2). An access token ' +
          'answers unsupported_token_type: it is a self-contained JWT, valid until it expires (ACCESS_TOKEN_TTL); revoke its ' +
          'refresh token. `token_type_hint` is ignored: a token’s kind is told by its form.',
        consumes: ['application/x-www-form-urlencoded'],
        body: RevocationRequest,
        response: {
          200: REVOKED,
          ...oauthErrorResponses({
            400: 'invalid_request (a missing or repeated parameter, two authentication methods, another client’s token) or unsupported_token_type (an access token).',
            401: 'invalid_client (with `WWW-Authenticate`) or unauthorized_client (a secret for an account without OAuth, an API key for one without the API-key flow).',
            413: 'invalid_request: the body is over 1 MiB.',
            429: 'invalid_request: a failed client authentication from an address past its failure limit for this minute (Retry-After); correct credentials are still served.',
            500: 'server_error.',
            503: 'temporarily_unavailable: this node is shutting down; retry (Retry-After).',
          }),
        },
        [STANDARD_ENDPOINT]: 'RFC 7009',
      },
    },
    async (request, reply) => {
      const form = request.body;
      const { account } = await authenticateClient(request, clientAuthenticationOf(request, form, { apiKey: true }), deps);
      const outcome = await deps.tokens.revoke(account, form.token);
      // RFC 7009 §2.1: a token issued to another client is refused, and left as it is.
      if (outcome === 'not_yours') throw new OAuthError('invalid_request', 'this token was not issued to the authenticated client');
      // RFC 7009 §2.2.1: the server does not support revoking this kind of token.
      if (outcome === 'access_token') {
        throw new OAuthError('unsupported_token_type', 'access tokens cannot be revoked: they stay valid until they expire; revoke the refresh token');
      }
      return revoked(reply);
    },
  );
}
