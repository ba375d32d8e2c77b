/** Authentication: who is calling (API key, access token, admin token) and which flows they may use. */
export {
  type AccountLookup,
  AUTH_METHODS,
  type AuthMethod,
  type ClientAccount,
  type Flow,
  isAuthMethod,
  isFlow,
  isTier,
  type Tier,
  TIERS,
} from './account.js';
export { adminGuard } from './admin-guard.js';
export { registerAuthentication } from './auth.plugin.js';
export { type Authenticator, createAuthenticator, type Principal } from './authenticator.js';
export { digest, digestsEqual, generateCredential, isWellFormedCredential } from './credentials.js';
export { rejectDisabledClient, requireFlowEnabled } from './flow-policy.js';
export { createKeyring, type Keyring } from './keyring.js';
export { PAID_DATA, requireTier } from './tier-policy.js';
