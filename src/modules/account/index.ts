/** The calling client's own account: configuration and credentials; the credential views the admin API and the CLI share. */
export { accountRoutes } from './account.routes.js';
export {
  ApiKeysPage,
  apiKeyView,
  CREDENTIALS_PAGE_SIZE_MAX,
  CredentialsQuery,
  Deleted,
  SecretsPage,
  secretView,
} from './credentials.schemas.js';
