/** The standard OAuth 2.0 endpoints: token (RFC 6749), revocation (RFC 7009), metadata (RFC 8414). */
export { listenOrigin } from './issuer.js';
export { type OAuthDeps, oauthRoutes } from './oauth.routes.js';
