/** Authentication: who is calling (API key, access token, admin token) and which flows they may use. */
export {
  ACCOUNT_CREDENTIALS,
  type AccountCredential,
  type AccountCredentialKind,
  type AccountLookup,
  AUTH_METHODS,
  type AuthMethod,
  type ClientAccount,
  type CredentialHolder,
  credentialKindOf,
  type Flow,
  FLOW_VOCABULARIES,
  type FlowVocabulary,
  isAccountCredentialKind,
  isActive,
  isAuthMethod,
  isFlow,
  isFlowVocabulary,
  isRevocationReason,
  isTier,
  REVOCATION_REASONS,
  type RevocationReason,
  type Tier,
  TIERS,
} from './account.js';
export { adminGuard } from './admin-guard.js';
export { type CallbackHook, type HookDone, principalOf, registerAuthentication } from './auth.plugin.js';
export { type Authenticator, createAuthenticator, type CredentialUsed, type Principal } from './authenticator.js';
export {
  createCredentialFailures,
  type CredentialFailures,
  type FailureLimits,
  type ThrottleListener,
  type ThrottleScope,
} from './credential-failures.js';
export { CREDENTIAL_PREFIX, type CredentialKind, digest, digestsEqual, generateCredential, isSecretText, isWellFormedCredential, previewOf } from './credentials.js';
export { flowEnabled, rejectDeletedClient, rejectDisabledClient, requireFlowEnabled } from './flow-policy.js';
export { createKeyring, type Keyring } from './keyring.js';
export { unauthorized, UNAUTHORIZED_REASONS, type UnauthorizedReason } from './unauthorized.js';
