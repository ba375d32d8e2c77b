import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../../platform/errors.js';
import type { App, ModuleRoutes } from '../../platform/http/types.js';
import type { Authenticator, CredentialFailures, Flow } from '../auth/index.js';
import { ClientCredentialsBody, RefreshBody, TokenPair } from './tokens.schemas.js';
import type { TokenService } from './tokens.service.js';

const TAGS = ['authentication'];

/**
 * RFC 9110 §11.6.1: every 401 names how to authenticate. Each token endpoint names the credential
 * it takes (decision 0030): the API key in X-API-Key, the client secret in the body (RFC 7591's
 * `client_secret_post`), a refresh token, which is a bearer credential (RFC 6750 §3).
 */
const CHALLENGE = {
  apiKeyLogin: 'ApiKey realm="sports-data-api"',
  oauthLogin: 'ClientSecretPost realm="sports-data-api"',
  refresh: 'Bearer error="invalid_token"',
};

function challengeOn401(challenge: string) {
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode === 401) reply.header('www-authenticate', challenge);
  };
}

/**
 * The two logins and the two refreshes (docs/api.md#authentication-endpoints); each answers a
 * token pair. Each runs under the login-failure limits (per source address, and per client_id
 * from one address): past them a failure is 429 until the minute ends, while a credential that
 * verifies is still served (decision 0163).
 */
export const tokensRoutes: ModuleRoutes<{ tokens: TokenService; authenticator: Authenticator; failures: CredentialFailures }> = async (
  app,
  { tokens, authenticator, failures },
) => {
  // Token responses must not be stored by any cache (RFC 6749 §5.1) — errors included, so
  // that no intermediary keeps a response to a request that carried a credential.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('cache-control', 'no-store');
    reply.header('pragma', 'no-cache');
    done(null, payload);
  });

  app.post(
    '/v1/auth/login',
    {
      onSend: challengeOn401(CHALLENGE.apiKeyLogin),
      schema: {
        tags: TAGS,
        summary: 'Exchange an API key for a token pair',
        description: 'Send the API key in the X-API-Key header; no body. Allowed when the account auth_method is api_key or both.',
        security: [{ ApiKeyAuth: [] }],
        response: { 200: TokenPair },
      },
    },
    async (request) => {
      const apiKey = request.headers['x-api-key'];
      if (apiKey === undefined) throw unauthorized('missing_credentials', 'send the API key in the X-API-Key header');
      return failures.guard(request.ip, undefined, async () => tokens.loginWithApiKey(await authenticator.apiKeyHolder(apiKey)));
    },
  );

  app.post(
    '/v1/oauth/login',
    {
      onSend: challengeOn401(CHALLENGE.oauthLogin),
      schema: {
        tags: TAGS,
        summary: 'Exchange OAuth 2.0 client credentials for a token pair',
        description: 'Allowed when the account auth_method is oauth or both.',
        security: [],
        body: ClientCredentialsBody,
        response: { 200: TokenPair },
      },
    },
    async (request) => {
      const { client_id, client_secret } = request.body;
      return failures.guard(request.ip, client_id, () => tokens.loginWithClientCredentials(client_id, client_secret));
    },
  );

  refreshRoute(app, tokens, failures, '/v1/auth/refresh', 'api_key');
  refreshRoute(app, tokens, failures, '/v1/oauth/refresh', 'oauth');
};

function refreshRoute(app: App, tokens: TokenService, failures: CredentialFailures, url: string, flow: Flow): void {
  const login = flow === 'api_key' ? '/v1/auth/login' : '/v1/oauth/login';
  app.post(
    url,
    {
      onSend: challengeOn401(CHALLENGE.refresh),
      schema: {
        tags: TAGS,
        summary: `Rotate a refresh token issued by ${login}`,
        description:
          `Returns a new token pair and revokes the presented refresh token. Only pairs from ${login} are accepted here. ` +
          'Presenting a revoked refresh token revokes every token descended from the same login; log in again.',
        security: [],
        body: RefreshBody,
        response: { 200: TokenPair },
      },
    },
    async (request) => failures.guard(request.ip, undefined, () => tokens.refresh(flow, request.body.refresh_token, request.log)),
  );
}
