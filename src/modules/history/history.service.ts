import type { Clock } from '../../platform/clock.js';
import { DEFAULT_EVENT_KINDS, eventKindsOf, includesCompetitions } from '../../shared/event-kinds.js';
import type { EventKind } from '../../platform/db/schema.js';
import type { Database } from '../../platform/db/database.js';
import { ApiError, validationError } from '../../platform/errors.js';
import { strongTag } from '../../platform/http/etag.js';
import type { StreamedFile } from '../../platform/http/files.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import { utcDay } from '../../platform/time.js';
import { utcDays } from '../../shared/date-range.js';
import { idSet } from '../../shared/filters.js';
import type { OddsFormat } from '../../shared/odds-format.js';
import type { KeyResolver } from '../references/index.js';
import { csvFile, eventJsonFile, type FileFormat, type HistoryFileItem, ndjsonFile, withPrice } from './history-files.js';
import { createHistoryRepository, type Cursor, type HistoryRepository, type HistoryStats } from './history.repository.js';
import type { HistoryByEventBody, HistoryItem, LeagueExportQuery } from './history.schemas.js';

/** The price history as a client reads it: a paged list of an event's changes, an event's file, a league's export. */
export interface HistoryService {
  /** An event's changes in time order, as a paged list (POST /v1/odds/history-by-event). */
  byEvent: HistoryList;
  /** The whole history of one event as a CSV or JSON file, tagged by what it holds. */
  eventFile(eventId: number, format: FileFormat, oddsFormat?: OddsFormat, kinds?: readonly EventKind[]): Promise<StreamedFile>;
  /** The history of every event of a league starting in a range of days, as CSV or NDJSON. */
  leagueExport(query: LeagueExportQuery, format: FileFormat): Promise<StreamedFile>;
}

export interface HistoryServiceDeps {
  database: Database;
  clock: Clock;
  keys: KeyResolver;
  /** The event item the events lists show, of the kinds asked (404 when undefined). */
  eventItem: (id: number, kinds: readonly EventKind[]) => Promise<unknown>;
}

type HistoryList = ListSource<HistoryFilters, HistoryItem> & { filters(body: HistoryByEventBody): HistoryFilters };

/** An event's history filters: since/until as epoch ms, arrays as sets; the odds format the page's `price` is in. */
export interface HistoryFilters {
  e: number;
  o: number[] | null;
  m: number[] | null;
  since: number | null;
  until: number | null;
  f: OddsFormat | null;
  /** `event_kinds` (default matchups only). */
  k: EventKind[];
}

/** Rows per read while a file is written: a few milliseconds of query, about 150 KB of CSV. */
const FILE_CHUNK_ROWS = 1_000;
/** Events per read of a league export. */
const EVENT_CHUNK = 500;

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
} as const;

export function createHistoryService(deps: HistoryServiceDeps): HistoryService {
  const repository = createHistoryRepository(deps.database);
  return {
    byEvent: historyList(repository, deps.eventItem),
    eventFile: (eventId, format, oddsFormat, kinds = DEFAULT_EVENT_KINDS) => eventFile(deps, repository, eventId, format, oddsFormat, kinds),
    leagueExport: (query, format) => leagueExport(deps, repository, query, format),
  };
}

function historyList(repository: HistoryRepository, eventItem: HistoryServiceDeps['eventItem']): HistoryList {
  return {
    name: 'price-history',

    filters(body) {
      const since = body.since === undefined ? null : Date.parse(body.since);
      const until = body.until === undefined ? null : Date.parse(body.until);
      if (since !== null && until !== null && until < since) throw validationError('until', 'formatMinimum', 'until must not be before since');
      const f = body.odds_format ?? null;
      return { e: body.event_id, o: idSet(body.operator_ids) ?? null, m: idSet(body.betting_market_ids) ?? null, since, until, f, k: eventKindsOf(body.event_kinds) };
    },

    /** An event's changes in time order; an unknown event is 404 (checked inside the cached computation: a 404 is not cached). */
    async ids({ e, o, m, since, until, k }) {
      if ((await eventItem(e, k)) === undefined) throw new ApiError('NOT_FOUND', `no event with event_id ${e}`);
      return repository.ids({ eventId: e, operatorIds: o ?? undefined, bettingMarketIds: m ?? undefined, since: since ?? undefined, until: until ?? undefined });
    },

    items: (ids) => repository.items(ids),

    /** With odds_format, each change gains `price: {from, to}` in it (without, the item as stored: decision 0111). */
    view: (item, { f }) => (f === null ? item : withPrice(item, f)),
  };
}

/**
 * The whole history of one event as a file. Its tag is made from the event item and the
 * history's count and newest id (rows are never updated: a new change raises the id, a purge
 * lowers the count), and the file holds exactly the rows up to that id. An odds format, when
 * asked, is part of the tag (a file without one keeps the tag it had before the formats).
 */
async function eventFile(
  { eventItem }: HistoryServiceDeps,
  repository: HistoryRepository,
  eventId: number,
  format: FileFormat,
  oddsFormat: OddsFormat | undefined,
  kinds: readonly EventKind[],
): Promise<StreamedFile> {
  const event = await eventItem(eventId, kinds);
  if (event === undefined) throw new ApiError('NOT_FOUND', `no event with event_id ${eventId}`);
  const stats = await repository.eventStats(eventId);
  const changes = () => eventChanges(repository, eventId, stats.lastId, oddsFormat);
  return {
    etag: tagOf(['event', eventId, format, JSON.stringify(event), ...formatPart(oddsFormat)], stats),
    filename: `odds-history-event-${eventId}${formatSuffix(oddsFormat)}.${format}`,
    contentType: CONTENT_TYPES[format],
    chunks: () => (format === 'csv' ? csvFile(changes(), oddsFormat) : eventJsonFile(event, changes())),
  };
}

/**
 * The history of every event of a league starting in a range of days, as CSV or NDJSON: by
 * event (start time, then id), each event's changes in time order.
 */
async function leagueExport({ clock, keys }: HistoryServiceDeps, repository: HistoryRepository, query: LeagueExportQuery, format: FileFormat): Promise<StreamedFile> {
  const leagueId = await keys.requireId('league', query.league_id, 'league_id');
  const { start, end } = utcDays(query, clock.now());
  const kinds = eventKindsOf(query.event_kinds);
  const stats = await repository.leagueStats(leagueId, start, end, kinds);
  const days = `${utcDay(start)}-to-${utcDay(end - 1)}`;
  async function* changes(): AsyncGenerator<HistoryFileItem[]> {
    const chunks = chunksAfter((after, limit) => repository.leagueEvents(leagueId, start, end, after, limit, kinds), (event) => event, EVENT_CHUNK);
    for await (const events of chunks) for (const event of events) yield* eventChanges(repository, event.id, stats.lastId, query.odds_format);
  }
  const csv = format === 'csv';
  return {
    // The kinds are in the tag only when they are not the default: a matchups' export keeps the tag it had.
    etag: tagOf(['league', leagueId, start, end, format, ...formatPart(query.odds_format), ...(includesCompetitions(kinds) ? [kinds.join(',')] : [])], stats),
    filename: `odds-history-league-${leagueId}-${days}${formatSuffix(query.odds_format)}.${csv ? 'csv' : 'ndjson'}`,
    contentType: csv ? CONTENT_TYPES.csv : CONTENT_TYPES.ndjson,
    chunks: () => (csv ? csvFile(changes(), query.odds_format) : ndjsonFile(changes())),
  };
}

/** An event's changes in time order, chunk by chunk, none newer than `lastId`; with `price` in `oddsFormat` when given. */
async function* eventChanges(repository: HistoryRepository, eventId: number, lastId: number, oddsFormat: OddsFormat | undefined): AsyncGenerator<HistoryFileItem[]> {
  const chunks = chunksAfter(
    (cursor, limit) => repository.eventChunk(eventId, lastId, cursor, limit),
    ({ item }) => ({ at: Date.parse(item.changed_at), id: item.id }),
    FILE_CHUNK_ROWS,
  );
  // The grade and the closing price are the files' last columns: an addition a reader of the old columns skips.
  for await (const items of chunks) yield items.map(({ item, grade }) => ({ ...(oddsFormat === undefined ? item : withPrice(item, oddsFormat)), ...grade }));
}

/**
 * The rows of a keyset read, `limit` a read, each read after the last row of the one before (its
 * position by `cursorOf`), from the start of the order; a read of fewer rows is the last.
 */
async function* chunksAfter<R>(read: (after: Cursor, limit: number) => Promise<R[]>, cursorOf: (row: R) => Cursor, limit: number): AsyncGenerator<R[]> {
  let cursor: Cursor = { at: Number.MIN_SAFE_INTEGER, id: 0 };
  for (;;) {
    const rows = await read(cursor, limit);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < limit) return;
    cursor = cursorOf(last);
  }
}

/**
 * The odds format's part of a file's name: the name says what the file holds, and two downloads
 * that differ in it do not collide (`curl -OJ` will not overwrite the first). None without one, so
 * that those names stay as they were.
 */
const formatSuffix = (oddsFormat: OddsFormat | undefined): string => (oddsFormat === undefined ? '' : `-${oddsFormat}`);

/** The odds format's part of a file's tag: none without one, so that those tags stay as they were. */
const formatPart = (oddsFormat: OddsFormat | undefined): string[] => (oddsFormat === undefined ? [] : [`odds_format=${oddsFormat}`]);

/** A strong tag over what the file is of and how much history it holds. */
function tagOf(parts: ReadonlyArray<string | number>, stats: HistoryStats): string {
  // The grade id only when there is one: a file of ungraded odds keeps the tag it had before grading existed.
  return strongTag(JSON.stringify([...parts, stats.count, stats.lastId, ...(stats.lastGradeId > 0 ? [stats.lastGradeId] : [])]));
}
