/** The calling client's own account: configuration and credentials; the credential views, listing and deletion route the admin API and the CLI share. */
export { accountRoutes } from './account.routes.js';
export { credentialDeletionRoute } from './credentials.deletion.js';
export { type CredentialPage, credentialLists, listedCredentials } from './credentials.listing.js';
export {
  ApiKeysPage,
  CREDENTIALS_PAGE_SIZE_MAX,
  CredentialsQuery,
  Deleted,
  SecretsPage,
} from './credentials.schemas.js';
