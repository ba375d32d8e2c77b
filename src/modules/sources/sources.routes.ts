import { Type } from 'typebox';
import { IMPORT_LIMITS, registerDatasetParser } from '../import/index.js';
import { ApiError } from '../../platform/errors.js';
import { describeBytes } from '../../platform/json-limits.js';
import type { App, ModuleRoutes } from '../../platform/http/types.js';
import { readFootballData } from './football-data/football-data.reader.js';
import { readTheOddsApi } from './the-odds-api/the-odds-api.reader.js';
import type { SourceName } from './source-batch.js';
import type { SourcesService } from './sources.service.js';
import {
  AliasAnswer, AliasBody, AliasesQuery, AliasList, ExternalIdList, ExternalIdsQuery, FootballDataQuery, SourceImportAnswer, TheOddsApiQuery, UnmatchedList, UnmatchedQuery,
} from './sources.schemas.js';

const admin = { policy: { auth: 'admin', cache: 'no-store' } } as const;
/** The Odds API's JSON nests deeper than a dataset (event → bookmakers → markets → outcomes): the route and the CLI read it with these. */
export const THE_ODDS_API_LIMITS = { ...IMPORT_LIMITS, maxDepth: 16 };
const SIZE = describeBytes(IMPORT_LIMITS.maxBytes);

/**
 * The source imports and the mapping they keep (docs/operations.md#loading-real-data). The two
 * import routes are documented exceptions to JSON-only bodies and to no query on a POST (decision
 * 0303, amending 0071): the file's own format is the body, and how to read it is the query.
 */
export const sourcesRoutes: ModuleRoutes<{ sources: SourcesService }> = async (app, { sources }) => {
  // Each import reads its format in a scope of its own: no other route takes CSV, nor JSON as deep.
  await app.register(async (scope) => footballDataRoute(scope, sources));
  await app.register(async (scope) => theOddsApiRoute(scope, sources));
  mappingRoutes(app, sources);
};

/** The import of a football-data.co.uk file: CSV as downloaded. */
function footballDataRoute(app: App, sources: SourcesService): void {
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: IMPORT_LIMITS.maxBytes }, (_request, body, done) => done(null, String(body)));

  app.post(
    '/admin/v1/import/football-data',
    {
      config: admin,
      bodyLimit: IMPORT_LIMITS.maxBytes,
      schema: {
        tags: ['admin'],
        summary: 'Import a football-data.co.uk CSV file',
        description:
          `The body is the file as downloaded (\`Content-Type: text/csv\`, at most ${SIZE}, 413 above). Rows are matched to stored records ` +
          '(docs/operations.md#loading-real-data); a name no rule matches waits in the review queue. A row with a problem refuses the ' +
          'whole file (422 naming each row and column) unless `skip_invalid=true`.',
        consumes: ['text/csv'],
        querystring: FootballDataQuery,
        body: Type.String({ description: 'The CSV file.' }),
        response: { 200: SourceImportAnswer },
      },
    },
    async (request) => sources.importBatch(readFootballData(request.body), { skipInvalid: request.query.skip_invalid === true }),
  );
}

/** The import of an answer of The Odds API: its JSON as fetched. */
function theOddsApiRoute(app: App, sources: SourcesService): void {
  // The Odds API's JSON nests deeper than a dataset (event → bookmakers → markets → outcomes).
  registerDatasetParser(app, THE_ODDS_API_LIMITS, 'body');

  app.post(
    '/admin/v1/import/the-odds-api',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Import an answer of The Odds API v4',
        description:
          `The body is the JSON answer as fetched (at most ${SIZE}, 413 above); \`odds_format\` is the oddsFormat it was fetched with, \`kind\` ` +
          'what it is. Matching, the review queue and `skip_invalid` as for football-data.',
        querystring: TheOddsApiQuery,
        body: Type.Unknown({ description: 'The JSON answer: an array of events, or a historical snapshot object.' }),
        response: { 200: SourceImportAnswer },
      },
    },
    async (request) => {
      const { odds_format: oddsFormat = 'decimal', kind, skip_invalid: skipInvalid } = request.query;
      if (request.body === undefined) throw new ApiError('BAD_REQUEST', 'send the answer as the JSON body');
      const batch = readTheOddsApi(request.body, { oddsFormat, ...(kind ? { kind } : {}) });
      return sources.importBatch(batch, { skipInvalid: skipInvalid === true });
    },
  );
}

/** The mapping: the sources' keys of our records, the names bound to them, and the review queue. */
function mappingRoutes(app: App, sources: SourcesService): void {
  app.get(
    '/admin/v1/mapping/external-ids',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: "Sources' keys of our records",
        description: 'By record (`entity_type` and `entity_id`: its key in each source), or by key (`source` and `external_id`, optionally `entity_type`: the record it names).',
        querystring: ExternalIdsQuery,
        response: { 200: ExternalIdList },
      },
    },
    async (request) => {
      const q = request.query;
      const rows = await sources.externalIds({
        ...(q.source ? { source: q.source } : {}),
        ...(q.entity_type ? { entityType: q.entity_type } : {}),
        ...(q.external_id ? { externalId: q.external_id } : {}),
        ...(q.entity_id ? { entityId: q.entity_id } : {}),
      });
      return { data: rows.map((r) => ({ source: r.source as SourceName, entity_type: r.entity_type, external_id: r.external_id, entity_id: r.entity_id, created: r.created === 1 })) };
    },
  );

  app.get(
    '/admin/v1/mapping/aliases',
    { config: admin, schema: { tags: ['admin'], summary: 'Names bound to our records', querystring: AliasesQuery, response: { 200: AliasList } } },
    async (request) => {
      const rows = await sources.listAliases({ ...(request.query.source ? { source: request.query.source } : {}), ...(request.query.entity_type ? { entityType: request.query.entity_type } : {}) });
      return { data: rows.map((r) => ({ source: r.source as SourceName, entity_type: r.entity_type, name: r.name, name_key: r.name_key, scope_id: r.scope_id, entity_id: r.entity_id })) };
    },
  );

  app.post(
    '/admin/v1/mapping/aliases',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Bind a name to a record, or make one for it',
        description:
          'With `entity_id`: the source\'s name now stands for that record. With `create: true`: a record is made of a name the queue waits on (404 when none does). ' +
          'Either way the rows waiting in the queue are imported at once, in the same transaction.',
        body: AliasBody,
        response: { 200: AliasAnswer },
      },
    },
    async (request) => sources.postAlias(request.body),
  );

  app.get(
    '/admin/v1/mapping/unmatched',
    { config: admin, schema: { tags: ['admin'], summary: 'The review queue: names no rule matched', querystring: UnmatchedQuery, response: { 200: UnmatchedList } } },
    async (request) => ({ data: await sources.unmatched(request.query.source) }),
  );
}
