import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { ModuleRoutes } from '../../platform/http/types.js';
import type { Authenticator, CredentialFailures } from '../auth/index.js';
import type { TokenService } from '../tokens/index.js';
import { registerFormBodies } from './form-bodies.js';
import { loginRoutes } from './login.routes.js';
import { metadataRoute } from './metadata.route.js';
import { oauthErrorHandler } from './oauth-errors.js';
import { REVOKE_PATH, revokeRoute } from './revoke.route.js';
import { tokenRoute } from './token.route.js';

export interface OAuthDeps {
  tokens: TokenService;
  authenticator: Authenticator;
  /** The login-failure limits, which client authentication here counts against too. */
  failures: CredentialFailures;
  /** PUBLIC_URL, the issuer identifier; undefined → the origin of each request. */
  publicUrl: string | undefined;
  /** The listen address's origin, for a request whose Host is unusable. */
  listenOrigin: string;
}

/**
 * RFC 9110 §11.6.1 and RFC 6749 §5.2: a 401 names how to authenticate. The token endpoint takes
 * HTTP Basic (and client_secret_post, which has no scheme); the revocation endpoint X-API-Key too.
 */
const BASIC = 'Basic realm="sports-data-api"';
const challengeOf = (request: FastifyRequest) => (request.routeOptions.url === REVOKE_PATH ? `${BASIC}, ApiKey realm="sports-data-api"` : BASIC);

/**
 * Everything under /v1/oauth: the OAuth flow's JSON login and refresh, in our error shape, and the
 * standard OAuth 2.0 endpoints beside them (decision 0072): the token endpoint (RFC 6749),
 * revocation (RFC 7009) and the metadata that lets a client find both (RFC 8414). The standard
 * ones in their own scope: form bodies are read there only, and errors are answered in RFC 6749's
 * format. Every answer here is a token answer for caches (the routes' policy: `token`).
 */
export const oauthRoutes: ModuleRoutes<OAuthDeps> = async (app, deps) => {
  await app.register(async (json) => loginRoutes(json.withTypeProvider<TypeBoxTypeProvider>(), deps));
  await app.register(async (scope) => {
    const standard = scope.withTypeProvider<TypeBoxTypeProvider>();
    registerFormBodies(standard);
    standard.setErrorHandler(oauthErrorHandler(challengeOf));
    tokenRoute(standard, deps);
    revokeRoute(standard, deps);
    metadataRoute(standard, deps);
  });
};
