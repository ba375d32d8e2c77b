/** Client accounts and their credentials: onboarding and management (the one writer), and the cached directory authentication reads. */
export { type ClientDirectory, createClientDirectory } from './client-directory.js';
export { type ClientCredentials, type ClientsService, createClientsService, type NewClient } from './clients.service.js';
export { createCredentialUsage, type CredentialUsage, USAGE_FLUSH_MS } from './credential-usage.js';
export type { ListedCredential } from './credentials.repository.js';
export { type CreatedCredential, createCredentialsService, type CredentialsService, MAX_ACTIVE_CREDENTIALS } from './credentials.service.js';
