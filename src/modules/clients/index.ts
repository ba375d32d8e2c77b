/** Client accounts: onboarding and management (the one writer), and the cached directory authentication reads. */
export { type ClientDirectory, createClientDirectory } from './client-directory.js';
export { type ClientCredentials, type ClientsService, createClientsService, type NewClient } from './clients.service.js';
