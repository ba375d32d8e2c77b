/** Sources: outside formats (football-data's CSV, The Odds API's JSON) read into source batches, matched to our records and imported (decisions 0295–0297), and the feed that follows an upstream. */
export { sourcesRoutes, THE_ODDS_API_LIMITS } from './sources.routes.js';
export { createSourcesService, releaseAliased, type SourcesService } from './sources.service.js';
export { readFootballData } from './football-data/football-data.reader.js';
export { readTheOddsApi, type TheOddsApiKind, type TheOddsApiOptions } from './the-odds-api/the-odds-api.reader.js';
export type { SourceBatch, SourceImporter, SourceImportOptions, SourceImportResult, SourceRow } from './source-batch.js';
export type { UpstreamSettings } from './upstream/upstream.settings.js';
export { createUpstreamFeed, type UpstreamDetails, type UpstreamFeed, type UpstreamFeedDeps } from './upstream/upstream.feed.js';
