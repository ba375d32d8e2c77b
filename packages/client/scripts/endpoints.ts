/**
 * The SDK's methods: one line per endpoint of the OpenAPI document. `npm run generate` turns this
 * table and the document into `src/generated/`: request and response types, where each parameter
 * goes, and the typed `api.<namespace>.<method>` objects.
 *
 * A list endpoint (its answer is a page) becomes a callable with `.list`, `.iterate` and
 * `.pages`; another entry may hang below it (`account.apiKeys.create` beside the list
 * `account.apiKeys`). Adding an endpoint to the server means adding its line here and running
 * `npm run -w @sports-data/client generate`; the drift test fails until both are done.
 */
export const ENDPOINTS: ReadonlyArray<readonly [name: string, operation: string]> = [
  ['account.config', 'GET /v1/account/config'],
  ['account.usage', 'GET /v1/account/usage'],
  ['account.usageHours', 'GET /v1/account/usage/hours'],
  ['account.auditLog', 'GET /v1/account/audit-log'],
  ['account.apiKeys', 'GET /v1/account/api-keys'],
  ['account.apiKeys.create', 'POST /v1/account/api-keys'],
  ['account.apiKeys.delete', 'DELETE /v1/account/api-keys/{key_code}'],
  ['account.secrets', 'GET /v1/account/secrets'],
  ['account.secrets.create', 'POST /v1/account/secret'],
  ['account.secrets.delete', 'DELETE /v1/account/secrets/{secret_code}'],
  ['account.checkEndpoint', 'GET /v1/account/check-endpoint'],
  ['account.setCheckEndpoint', 'POST /v1/account/check-endpoint'],
  ['account.deleteCheckEndpoint', 'DELETE /v1/account/check-endpoint'],
  ['references.sports', 'GET /v1/references/sports'],
  ['references.leagues', 'GET /v1/references/leagues'],
  ['references.teams', 'GET /v1/references/teams'],
  ['references.players', 'GET /v1/references/players'],
  ['references.operators', 'GET /v1/references/operators'],
  ['references.bettingMarkets', 'GET /v1/references/betting-markets'],
  ['references.countries', 'GET /v1/references/countries'],
  ['references.bettingMarketCategories', 'GET /v1/references/betting-market-categories'],
  ['references.bettingMarketPositions', 'GET /v1/references/betting-market-positions'],
  ['references.eventPeriods', 'GET /v1/references/event-periods'],
  ['references.playerStatistics', 'GET /v1/references/player-statistics'],
  ['references.oddsFormats', 'GET /v1/references/odds-format'],
  ['references.subnationalRegions', 'GET /v1/references/subnational-regions'],
  ['references.tagDimensions', 'GET /v1/references/tag-dimensions'],
  ['references.tagTypes', 'GET /v1/references/tag-types/search'],
  ['references.tagTypeChildren', 'GET /v1/references/tag-types/{tag_type_id}/children'],
  ['events.upcoming', 'POST /v1/events/upcoming-events'],
  ['events.competitions', 'GET /v1/competitions'],
  ['events.competitionParticipants', 'GET /v1/competitions/{event_id}/participants'],
  ['odds.upcomingByEvent', 'POST /v1/odds/upcoming-odds-by-event'],
  ['odds.board', 'POST /v1/odds/board'],
  ['odds.edges', 'POST /v1/odds/edges'],
  ['odds.movement', 'POST /v1/odds/movement'],
  ['odds.historyByEvent', 'POST /v1/odds/history-by-event'],
  ['odds.changes', 'GET /v1/odds/changes'],
  ['odds.moves', 'POST /v1/odds/moves'],
  ['historical.events', 'GET /v1/historical/events'],
  ['results.byEvent', 'POST /v1/results/by-event'],
  ['results.graded', 'POST /v1/results/graded'],
  ['results.clv', 'POST /v1/results/clv'],
  ['signals.list', 'POST /v1/signals'],
  ['signals.performance', 'POST /v1/signals/performance'],
  ['trends.flows', 'POST /v1/trends/flows'],
  ['trends.mixedFlows', 'POST /v1/trends/mixed-flows'],
  ['trends.flowsById', 'POST /v1/trends/flows-by-id'],
  ['trends.bySelection', 'POST /v1/trends/by-betting-market-position'],
  ['trends.leaguesWithAvailableFlows', 'GET /v1/trends/leagues-with-available-flows'],
  ['trends.flowGraphData', 'GET /v1/trends/flow-graph-data/{fact_flow_id}'],
  ['trends.quote', 'POST /v1/trends/flows/quote'],
  ['trends.quoteSandbox', 'POST /v1/trends/flows/quote-sandbox'],
  ['trends.flowTooltip', 'GET /v1/trends/flow-tooltip/{flow_type}/{flow_id}'],
  ['webhooks.list', 'GET /v1/webhooks'],
  ['webhooks.create', 'POST /v1/webhooks'],
  ['webhooks.get', 'GET /v1/webhooks/{id}'],
  ['webhooks.update', 'PATCH /v1/webhooks/{id}'],
  ['webhooks.delete', 'DELETE /v1/webhooks/{id}'],
  ['webhooks.rotateSecret', 'POST /v1/webhooks/{id}/rotate-secret'],
  ['webhooks.test', 'POST /v1/webhooks/{id}/test'],
  ['webhooks.deliveries', 'GET /v1/webhooks/{id}/deliveries'],
  ['webhooks.replay', 'POST /v1/webhooks/{id}/replay'],
  ['webhooks.retryDelivery', 'POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry'],
  ['webhooks.eventTypes', 'GET /v1/webhook-event-types'],
];

/**
 * The /v1 operations that are not methods, and why. The drift test fails on any other /v1
 * operation of the document that the table above does not name.
 */
export const NOT_METHODS: Readonly<Record<string, string>> = {
  'POST /v1/auth/login': 'the session logs in with the API key by itself',
  'POST /v1/auth/refresh': 'the session refreshes an API-key pair by itself',
  'POST /v1/oauth/login': 'the session logs in with the client credentials by itself',
  'POST /v1/oauth/refresh': 'the session refreshes an OAuth pair by itself',
  'POST /v1/oauth/revoke': 'api.logout() revokes the session’s refresh token',
  'POST /v1/oauth/token': 'the form-encoded twin of /v1/oauth/login, for off-the-shelf OAuth libraries',
  'GET /v1/historical/odds/{event_id}.json': 'a file, not JSON: fetch it with the session’s headers',
  'GET /v1/historical/odds/{event_id}.csv': 'a file, not JSON: fetch it with the session’s headers',
  'GET /v1/historical/odds.csv': 'a file, not JSON: fetch it with the session’s headers',
  'GET /v1/historical/odds.json': 'a file, not JSON: fetch it with the session’s headers',
  'GET /v1/stream/odds': 'a Server-Sent Events stream: api.oddsStream() reads it, reconnecting with Last-Event-ID',
};

/** Operations whose types the SDK's own code uses (the session's token pair), though they are not methods. */
export const TYPES_ALSO_FROM = ['POST /v1/auth/login'];
