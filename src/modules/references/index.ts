/** Reference data (sports, leagues, teams, players, operators, betting markets), and the key resolver the data features share. */
export { createKeyResolver, type KeyedEntity, type KeyResolver } from './key-resolver.js';
export { referencesRoutes } from './references.routes.js';
export { createReferencesService, type ReferencesService } from './references.service.js';
