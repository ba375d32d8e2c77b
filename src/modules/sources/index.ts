/** Sources: outside formats (The Odds API's JSON, football-data's CSV) read into source batches, and the feed that follows an upstream. */
export * from './source-batch.js';
export { readTheOddsApi, type TheOddsApiKind, type TheOddsApiOptions } from './the-odds-api/the-odds-api.reader.js';
export type { UpstreamSettings } from './upstream/upstream.settings.js';
export { createUpstreamFeed, type UpstreamDetails, type UpstreamFeed, type UpstreamFeedDeps } from './upstream/upstream.feed.js';
export { createLeasesRepository, type LeasesRepository } from './upstream/leases.repository.js';
