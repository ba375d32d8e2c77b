import { type Static, type TSchema, Type } from 'typebox';
import { eventKindsProperty, eventKindsQueryProperty } from '../../shared/event-kinds.js';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { dateRangeProperties } from '../../shared/date-range.js';
import { ODDS_FORMATS } from '../../shared/odds-format.js';
import { Id, MAX_FILTER_ITEMS, SchemaVersion } from '../../shared/wire.js';
import { PRICE_FORMS } from '../odds/index.js';

export const HISTORY_MAX_PAGE_SIZE = 100;

/** `{from, to}` of one value: `from` is null on the opening entry (and where the value was null). */
const Change = <T extends TSchema>(to: T, description: string) =>
  Type.Object(
    {
      from: Type.Union([to, Type.Null()], { description: 'The value before this change; null on the opening entry (the first import of the row).' }),
      to: { ...to, description: 'The value from this change on.' } as T,
    },
    { additionalProperties: false, description },
  );

/** The optional `odds_format` of the history list and files: with it, each change gains `price` in that format. */
const OddsFormat = Type.Enum(ODDS_FORMATS, {
  description:
    'The format of each change\'s `price: {from, to}`: `decimal`, `american`, `fractional`, `implied_probability`, `multiplier` or `percent` ' +
    '(GET /v1/references/odds-format). Without it the changes have no `price`; `price_decimal` is always there.',
});

/**
 * One recorded change of an odds row (docs/data.md#price-history). History rows are never
 * updated: an item is the same bytes for as long as it is kept.
 */
export const HistoryItem = Type.Object(
  {
    id: Type.Integer({
      minimum: 1,
      description: 'History id: grows with every change recorded, in the order imports commit them. The `id` of the stream event carrying it.',
    }),
    odds_id: Type.Integer({ description: 'The odds row that changed (as in POST /v1/odds/upcoming-odds-by-event).' }),
    event_id: Type.Integer({ description: 'The event the odds row prices.' }),
    operator_id: Type.Integer({ description: 'The operator (sportsbook) quoting the price.' }),
    betting_market_id: Type.Integer({ description: 'The betting market priced.' }),
    position: Type.String({ description: 'The selection priced (`home`, `over`, a player name, …), as on the odds item.', example: 'home' }),
    changed_at: Type.String({
      format: 'date-time',
      description: "When the change happened: the dataset's `updated_at` for the row, else the time of the import. ISO 8601, UTC.",
    }),
    price: Type.Optional(
      Change(
        Type.Union([...PRICE_FORMS], { description: 'A price in the `odds_format` asked.' }),
        'The price before and after the change, in the `odds_format` asked (decision 0111): only when the request names one. `price_decimal` is always there.',
      ),
    ),
    price_decimal: Change(Type.Number({ description: 'A decimal price.', example: 1.91 }), 'The decimal price before and after the change.'),
    line: Change(Type.Union([Type.Number(), Type.Null()], { description: 'A line (handicap or total); null for markets without one.' }), 'The line before and after.'),
    status: Change(Type.String({ description: '`open` or `suspended`, as the feed reports it.', example: 'open' }), 'The status before and after.'),
  },
  { title: 'PriceChange', additionalProperties: false },
);
export type HistoryItem = Static<typeof HistoryItem>;

const ids = (description: string) => Type.Array(Id('An id.'), { maxItems: MAX_FILTER_ITEMS, description });
const Instant = (description: string) => Type.Optional(Type.String({ format: 'date-time', description }));

export const HistoryByEventBody = Type.Object(
  {
    event_id: Id('The event whose price history to list (404 when unknown).'),
    operator_ids: Type.Optional(ids('Only changes of these operators’ odds.')),
    betting_market_ids: Type.Optional(ids('Only changes of odds of these betting markets.')),
    since: Instant('Only changes at or after this instant (ISO 8601 with a time zone).'),
    until: Instant('Only changes before this instant; not before `since`.'),
    odds_format: Type.Optional(OddsFormat),
    ...eventKindsProperty,
    ...pagingProperties(HISTORY_MAX_PAGE_SIZE),
  },
  {
    additionalProperties: false,
    // Every demo odds row has its opening entry, and event 1 is priced in every demo dataset.
    examples: [{ event_id: 1, page: 1, page_size: 20 }],
  },
);
export type HistoryByEventBody = Static<typeof HistoryByEventBody>;

export const HistoryPage = PageOf(HistoryItem, 'PriceChangesPage');

/**
 * A change as the files show it: the history item and, last, its odds row's grade and closing
 * price (docs/data.md#results-and-grading). Added after the other fields, so that a reader of
 * the earlier files reads these unchanged.
 */
export const HistoryFileChange = Type.Object(
  {
    ...HistoryItem.properties,
    outcome: Type.Union([Type.String(), Type.Null()], {
      description: 'The odds row\'s current grade (`won`, `lost`, `push`, `void`, `half_won`, `half_lost`); null until it has one (POST /v1/results/by-event).',
    }),
    closing_price: Type.Union([Type.Number(), Type.Null()], { description: 'The odds row\'s last decimal price before the event started; null until it is graded.' }),
  },
  { title: 'PriceChangeInFile', additionalProperties: false },
);

/** The JSON file of one event's history: the event as the events lists show it, and every change. */
export const eventHistoryFile = (event: TSchema) =>
  Type.Object(
    {
      event: { ...event, description: 'The event, as GET /v1/historical/events shows it.' },
      changes: Type.Array(HistoryFileChange, { description: 'Every recorded change of the event’s odds, by changed_at then id.' }),
    },
    { title: 'EventPriceHistory', additionalProperties: false },
  );

// Event 1 exists in every demo dataset, and every odds row has its opening entry.
export const EventFileParams = Type.Object({ event_id: { ...Id('The event.'), example: 1 } }, { additionalProperties: false });
export type EventFileParams = Static<typeof EventFileParams>;

/** The query of a history file or export: `odds_format` adds `price` to each change (in CSV, the columns price_from and price_to). */
const formatQuery = { odds_format: Type.Optional(OddsFormat), schema_version: SchemaVersion };

export const EventFileQuery = Type.Object({ ...formatQuery, ...eventKindsQueryProperty }, { additionalProperties: false });
export type EventFileQuery = Static<typeof EventFileQuery>;

export const LeagueExportQuery = Type.Object(
  {
    league_id: { ...Id('The league to export (404 when unknown).'), example: 12 },
    ...dateRangeProperties('the events whose history is exported, by start time'),
    ...formatQuery,
    ...eventKindsQueryProperty,
  },
  { additionalProperties: false },
);
export type LeagueExportQuery = Static<typeof LeagueExportQuery>;
