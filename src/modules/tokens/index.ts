/** Token pairs: the two logins, the two refreshes, and the purge of expired refresh tokens. */
export { createPurgeJob, PURGE_GRACE_MS, purgeExpiredRefreshTokens } from './tokens.purge.js';
export { tokensRoutes } from './tokens.routes.js';
export { createTokenService, type TokenLifetimes, type TokenService } from './tokens.service.js';
