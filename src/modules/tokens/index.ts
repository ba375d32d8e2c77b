/** Token pairs: the two logins, the two refreshes, revocation, and the purge of expired refresh tokens. */
export { createPurgeJob, PURGE_GRACE_MS, purgeExpiredRefreshTokens } from './tokens.purge.js';
export { CHALLENGE, challengeOn401, refreshSchema, TOKEN_TAGS, tokenPolicy, tokensRoutes } from './tokens.routes.js';
export { ClientCredentialsBody, TokenPair } from './tokens.schemas.js';
export { createTokenService, type RevocationOutcome, type TokenLifetimes, type TokenService } from './tokens.service.js';
