import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { type Authenticator, type CredentialFailures, unauthorized } from '../auth/index.js';
import type { PublicPolicy, Security } from '../policy/index.js';
import { RefreshBody, TokenPair } from './tokens.schemas.js';
import type { TokenService } from './tokens.service.js';

export const TOKEN_TAGS = ['authentication'];

/**
 * RFC 9110 §11.6.1: every 401 names how to authenticate. Each token endpoint names the credential
 * it takes (decision 0030): the API key in X-API-Key, the client secret in the body (RFC 7591's
 * `client_secret_post`), a refresh token, which is a bearer credential (RFC 6750 §3).
 */
export const CHALLENGE = {
  apiKeyLogin: 'ApiKey realm="sports-data-api"',
  oauthLogin: 'ClientSecretPost realm="sports-data-api"',
  refresh: 'Bearer error="invalid_token"',
};

export function challengeOn401(challenge: string) {
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode === 401) reply.header('www-authenticate', challenge);
  };
}

/**
 * The policy of a login or refresh: the handler checks the credential itself, under the
 * login-failure limits (401, 429), and no cache may keep a token answer, errors included
 * (RFC 6749 §5.1). `security`: the credential the document names.
 */
export function tokenPolicy(security: Security): PublicPolicy {
  return { auth: 'none', cache: 'token', security, errors: ['UNAUTHORIZED', 'RATE_LIMIT_EXCEEDED'] };
}

/**
 * The API-key login and its refresh (docs/api.md#authentication-endpoints); the OAuth flow's pair
 * is under /v1/oauth (modules/oauth). Each answers a token pair, and runs under the login-failure
 * limits (per source address, and per client_id from one address): past them a failure is 429
 * until the minute ends, while a credential that verifies is still served (decision 0163).
 */
export const tokensRoutes: ModuleRoutes<{ tokens: TokenService; authenticator: Authenticator; failures: CredentialFailures }> = async (
  app,
  { tokens, authenticator, failures },
) => {
  app.post(
    '/v1/auth/login',
    {
      config: { policy: tokenPolicy([{ ApiKeyAuth: [] }]) },
      onSend: challengeOn401(CHALLENGE.apiKeyLogin),
      schema: {
        tags: TOKEN_TAGS,
        summary: 'Exchange an API key for a token pair',
        description: 'Send the API key in the X-API-Key header; no body. Allowed when the account auth_method is api_key or both.',
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
    '/v1/auth/refresh',
    { config: { policy: tokenPolicy([]) }, onSend: challengeOn401(CHALLENGE.refresh), schema: refreshSchema('/v1/auth/login') },
    async (request) => failures.guard(request.ip, undefined, () => tokens.refresh('api_key', request.body.refresh_token, request.log)),
  );
};

/** The schema of a refresh (POST /v1/auth/refresh, /v1/oauth/refresh): it rotates a refresh token issued by its flow's login. */
export function refreshSchema(login: '/v1/auth/login' | '/v1/oauth/login') {
  return {
    tags: TOKEN_TAGS,
    summary: `Rotate a refresh token issued by ${login}`,
    description:
      `Returns a new token pair and revokes the presented refresh token. Only pairs from ${login} are accepted here. ` +
      'Presenting a revoked refresh token revokes every token descended from the same login; log in again.',
    body: RefreshBody,
    response: { 200: TokenPair },
  };
}
