/** Reference data (sports, countries, leagues, teams, players, operators, betting markets and their categories and positions, event periods, odds formats), and the key resolver the data features share. */
export { createKeyResolver, type KeyedEntity, type KeyResolver, leagueQualifiedKey } from './key-resolver.js';
export { referencesRoutes } from './references.routes.js';
export { createReferencesService, type ReferencesService } from './references.service.js';
export { League, type LeagueItem } from './references.schemas.js';
