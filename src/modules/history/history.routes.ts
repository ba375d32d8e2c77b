import { type TSchema, Type } from 'typebox';
import { NOT_MODIFIED } from '../../platform/http/etag.js';
import { sendFile } from '../../platform/http/files.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { listRoute } from '../../platform/lists/list-route.js';
import type { PagedLists } from '../../platform/lists/paged-lists.js';
import type { ClientPolicy } from '../policy/index.js';
import { CSV_COLUMNS, CSV_PRICE_COLUMNS } from './history-files.js';
import { EventFileParams, EventFileQuery, eventHistoryFile, HistoryByEventBody, HistoryFileChange, HistoryPage, LeagueExportQuery } from './history.schemas.js';
import type { HistoryService } from './history.service.js';
import { eventKindsOf } from '../../shared/event-kinds.js';

/** The price history: a paged list, one event's history as a file, a league's as an export. */
export const historyRoutes: ModuleRoutes<{ lists: PagedLists; history: HistoryService; eventItem: TSchema }> = async (app, { lists, history, eventItem }) => {
  // The history is counted with the odds; an unknown event or league is 404.
  const files = { policy: { auth: 'client', tier: 'history-files', limit: 'data', usage: 'odds', cache: 'data', errors: ['NOT_FOUND'] } satisfies ClientPolicy };

  app.post(
    '/v1/odds/history-by-event',
    listRoute({
      config: { policy: { auth: 'client', tier: 'price-history', limit: 'data', usage: 'odds', cache: 'data', errors: ['NOT_FOUND'] } },
      tag: 'odds',
      summary: 'Price history of one event',
      description:
        'Every recorded change of the event’s odds (price, line or status), in time order (changed_at, then id): the opening ' +
        'price of each odds row (`from` null) and each later change, with `from` and `to`. Filter by operators, betting markets ' +
        'and a time range [since, until). With `odds_format`, each change also has `price: {from, to}` in that format, beside ' +
        '`price_decimal`. Pro and enterprise tiers; a free client gets 403. An unknown event_id is 404.',
      body: HistoryByEventBody,
      page: HistoryPage,
    }),
    lists.byBody(lists.source(history.byEvent), history.byEvent.filters),
  );

  const file = (format: 'csv' | 'json', media: Record<string, { schema: TSchema }>) =>
    app.get(
      `/v1/historical/odds/:event_id.${format}`,
      {
        config: files,
        schema: {
          tags: ['historical'],
          summary: `Price history of one event as a ${format.toUpperCase()} file`,
          description:
            `The whole price history of the event, streamed as a file (\`Content-Disposition: attachment\`): ${FORMATS[format]} ` +
            'Its ETag changes only when the history does (a new change, a purge) or, in JSON, the event: an unchanged history ' +
            `answers 304 to If-None-Match (the tag differs per odds_format). ${ODDS_FORMAT_NOTE} Pro and enterprise tiers. An unknown event_id is 404.`,
          params: EventFileParams,
          querystring: EventFileQuery,
          headers: IfNoneMatch,
          response: { 200: fileResponse(media), 304: NOT_MODIFIED },
        },
      },
      async (request, reply) => sendFile(request, reply, await history.eventFile(request.params.event_id, format, request.query.odds_format, eventKindsOf(request.query.event_kinds))),
    );
  file('json', { 'application/json': { schema: eventHistoryFile(eventItem) } });
  file('csv', { 'text/csv': { schema: CSV_SCHEMA } });

  const exported = (format: 'csv' | 'json', media: Record<string, { schema: TSchema }>) =>
    app.get(
      `/v1/historical/odds.${format}`,
      {
        config: files,
        schema: {
          tags: ['historical'],
          summary: `Price history of a league's events as ${format === 'csv' ? 'CSV' : 'NDJSON'}`,
          description:
            'The price history of every event of the league starting from start_date to end_date (whole UTC days, at most 366; ' +
            'default the last 30 days), streamed as one file: events by start time then id, each event’s changes in time order. ' +
            `${format === 'csv' ? FORMATS.csv : FORMATS.ndjson} ${ODDS_FORMAT_NOTE} This is how a season is pulled. Pro and enterprise tiers.`,
          querystring: LeagueExportQuery,
          headers: IfNoneMatch,
          response: { 200: fileResponse(media), 304: NOT_MODIFIED },
        },
      },
      async (request, reply) => sendFile(request, reply, await history.leagueExport(request.query, format)),
    );
  exported('csv', { 'text/csv': { schema: CSV_SCHEMA } });
  exported('json', {
    'application/x-ndjson': { schema: { ...HistoryFileChange, description: 'One line of the file: a price change, as the history list shows it, then its odds row\'s grade and closing price.' } },
  });
};

const FORMATS = {
  csv:
    `CSV (RFC 4180): a header row, then one record per change, CRLF line ends, text quoted, UTF-8 with a byte-order mark ` +
    `so that spreadsheets open it as it is. Columns: ${CSV_COLUMNS.join(', ')}; an empty field is null.`,
  json: 'JSON: `{"event": {…}, "changes": [...]}`, one change per line.',
  ndjson: 'NDJSON (`application/x-ndjson`): one change per line, each line a JSON object.',
} as const;

const ODDS_FORMAT_NOTE =
  'With `odds_format`, each change also has `price: {from, to}` in that format (in CSV, the columns ' +
  `${CSV_PRICE_COLUMNS.join(', ')} after price_decimal_to); without it, the file is as before the formats existed.`;

const IfNoneMatch = Type.Object({
  'if-none-match': Type.Optional(Type.String({ description: 'The ETag of the copy the client has: 304 if it is still the current one.' })),
});

const CSV_SCHEMA = Type.String({
  description: `CSV text. Header: ${CSV_COLUMNS.join(',')}; with odds_format, ${CSV_PRICE_COLUMNS.join(',')} after price_decimal_to.`,
});

function fileResponse(media: Record<string, { schema: TSchema }>) {
  return {
    description: 'The file, streamed (chunked transfer encoding; compressed when the client accepts br or gzip).',
    // Header schemas: the document wraps each in its header object.
    headers: {
      ETag: Type.String({ description: 'A digest of what the file holds: unchanged history, unchanged tag.' }),
      'Content-Disposition': Type.String({ description: 'attachment, with the file name.' }),
    },
    content: media,
  };
}
