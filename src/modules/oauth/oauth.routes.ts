import type { FastifyRequest } from 'fastify';
import type { ModuleRoutes } from '../../platform/http/types.js';
import type { Authenticator, CredentialFailures } from '../auth/index.js';
import type { TokenService } from '../tokens/index.js';
import { registerFormBodies } from './form-bodies.js';
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
 * The standard OAuth 2.0 endpoints, beside the contract's JSON ones (decision 0072): the token endpoint
 * (RFC 6749), revocation (RFC 7009) and the metadata that lets a client find both (RFC 8414). In
 * their own scope: form bodies are read here only, and errors are answered in RFC 6749's format.
 */
export const oauthRoutes: ModuleRoutes<OAuthDeps> = async (app, deps) => {
  registerFormBodies(app);
  app.setErrorHandler(oauthErrorHandler(challengeOf));
  // RFC 6749 §5.1: token responses must not be stored — errors included, as for the JSON endpoints (0014).
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('cache-control', 'no-store');
    reply.header('pragma', 'no-cache');
    done(null, payload);
  });
  tokenRoute(app, deps);
  revokeRoute(app, deps);
  metadataRoute(app, deps);
};
