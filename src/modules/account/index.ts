/** The calling client's own account configuration. */
export { accountRoutes } from './account.routes.js';
