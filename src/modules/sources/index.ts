/** Sources: outside formats (football-data's CSV, The Odds API's JSON) matched to our records and imported (decisions 0295–0297). */
export { sourcesRoutes } from './sources.routes.js';
export { createSourcesService, releaseAliased, type SourcesService } from './sources.service.js';
export { readFootballData } from './football-data/football-data.reader.js';
export { readTheOddsApi } from './the-odds-api/the-odds-api.reader.js';
export type { SourceBatch, SourceImporter, SourceImportResult, SourceRow } from './source-batch.js';
