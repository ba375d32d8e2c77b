/** Competitions: events of N participants (tournaments, races, futures), their lists and their participants. */
export { competitionsRoutes } from './competitions.routes.js';
export { CompetitionItem } from './competitions.schemas.js';
export { createCompetitionsService, type CompetitionsService } from './competitions.service.js';
