import type { App } from '../../platform/http/types.js';
import { CHALLENGE, ClientCredentialsBody, challengeOn401, refreshSchema, TOKEN_TAGS, TokenPair, tokenPolicy } from '../tokens/index.js';
import type { OAuthDeps } from './oauth.routes.js';

/**
 * The OAuth flow's own login and refresh, in JSON and our error shape like /v1/auth/login and
 * /v1/auth/refresh (docs/api.md#authentication-endpoints); standard OAuth 2.0 clients use the
 * token endpoint beside them instead.
 */
export function loginRoutes(app: App, { tokens, failures }: Pick<OAuthDeps, 'tokens' | 'failures'>): void {
  app.post(
    '/v1/oauth/login',
    {
      config: { policy: tokenPolicy([]) },
      onSend: challengeOn401(CHALLENGE.oauthLogin),
      schema: {
        tags: TOKEN_TAGS,
        summary: 'Exchange OAuth 2.0 client credentials for a token pair',
        description: 'Allowed when the account auth_method is oauth or both.',
        body: ClientCredentialsBody,
        response: { 200: TokenPair },
      },
    },
    async (request) => {
      const { client_id, client_secret } = request.body;
      return failures.guard(request.ip, client_id, () => tokens.loginWithClientCredentials(client_id, client_secret));
    },
  );

  app.post(
    '/v1/oauth/refresh',
    { config: { policy: tokenPolicy([]) }, onSend: challengeOn401(CHALLENGE.refresh), schema: refreshSchema('/v1/oauth/login') },
    async (request) => failures.guard(request.ip, undefined, () => tokens.refresh('oauth', request.body.refresh_token, request.log)),
  );
}
