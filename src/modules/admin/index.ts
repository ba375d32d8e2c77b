/** The admin API's client management, and the wire views of accounts the CLI prints too. */
export { adminRoutes } from './admin.routes.js';
export { clientsList } from './clients.list.js';
export { CLIENTS_PAGE_SIZE_MAX, clientView, clientWithCredentialsView, createdClientView, NAME_MAX_LENGTH } from './admin.schemas.js';
