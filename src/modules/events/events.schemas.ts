import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { dateRangeProperties } from '../../shared/date-range.js';
import { EVENT_STATUSES } from '../../shared/event-status.js';
import { Id, SchemaVersion, TeamRef } from '../../shared/wire.js';
import { eventKindsProperty, eventKindsQueryProperty } from '../../shared/event-kinds.js';
import { CompetitionItem } from '../competitions/index.js';

export const EVENTS_MAX_PAGE_SIZE = 100;

export const EventItem = Type.Object(
  {
    id: Type.Integer({ description: 'Event id.' }),
    sport_id: Type.Integer({ description: 'Sport of the event (that of its league).' }),
    league_id: Type.Integer({ description: 'League the event belongs to.' }),
    league_key: Type.String({ description: "The league's key (plain, as in the league item's `key`)." }),
    start_time: Type.String({ format: 'date-time', description: 'Scheduled start, ISO 8601, UTC.' }),
    status: Type.Enum(EVENT_STATUSES, {
      description:
        'As the data feed last reported it: `scheduled` (the default), `live`, `final`, `postponed` or `cancelled`. ' +
        'The service does not move it as time passes. See docs/data.md#events.',
      example: 'scheduled',
    }),
    home_team: TeamRef('The home team (in tennis, the first-named player).'),
    away_team: TeamRef('The away team (in tennis, the second-named player).'),
    home_score: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: "The home side's score as the feed last reported it (live or final; sets in tennis); null when the feed has none.",
    }),
    away_score: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: "The away side's score; null exactly when home_score is." }),
  },
  { title: 'Event', additionalProperties: false },
);
export type EventItem = Static<typeof EventItem>;

export const UpcomingEventsBody = Type.Object(
  {
    event_date: Type.Optional(
      Type.String({ format: 'date', description: 'The day to list, YYYY-MM-DD, read in `timezone`. Default: today in `timezone`.' }),
    ),
    timezone: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, default: 'UTC', description: 'IANA time zone in which `event_date` is read.', example: 'America/New_York' }),
    ),
    sport_id: Type.Optional(Id('Only events of this sport. Wins over sport_key.')),
    sport_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only events of the sport with this key, e.g. `basketball`.' })),
    league_id: Type.Optional(Id('Only events of this league. Wins over league_key.')),
    league_key: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Only events of this league: plain (`nba`) or qualified (`united-states.nba`).' }),
    ),
    ...eventKindsProperty,
    ...pagingProperties(EVENTS_MAX_PAGE_SIZE),
  },
  {
    additionalProperties: false,
    // The request "Try it out" in /docs sends: today's events (the default day), whatever the hour.
    examples: [{ timezone: 'UTC', page: 1, page_size: 20 }],
  },
);
export type UpcomingEventsBody = Static<typeof UpcomingEventsBody>;

/** An item of the events lists: a matchup, or with `event_kinds` including `competition` a competition (docs/data.md#competitions). */
export const EventOrCompetition = Type.Union([EventItem, CompetitionItem]);
export type EventOrCompetition = Static<typeof EventOrCompetition>;

export const EventsPage = PageOf(EventOrCompetition, 'EventsPage');

/** A historical event: an event with where its price-history files are. */
export const HistoricalEventItem = Type.Object(
  {
    ...EventItem.properties,
    ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When the event first became final (the import that made it so), ISO 8601 UTC; null while it is not, and for events final before ends were recorded. ' +
        'The instant `as_of` answers take an event to be over from.',
    }),
    json_url: Type.String({
      description:
        "The event's price history as a JSON file (GET /v1/historical/odds/{event_id}.json), relative to the API's base URL. " +
        'Listed for every tier; the file itself is for pro and enterprise (403 below).',
      example: '/v1/historical/odds/12345.json',
    }),
    csv_url: Type.String({
      description: 'The same history as a CSV file (GET /v1/historical/odds/{event_id}.csv), relative; pro and enterprise.',
      example: '/v1/historical/odds/12345.csv',
    }),
  },
  { title: 'HistoricalEvent', additionalProperties: false },
);
export type HistoricalEventItem = Static<typeof HistoricalEventItem>;

/** Where a historical event's files are, and when it ended: what a historical event adds to an event. */
const historicalProperties = {
  ended_at: HistoricalEventItem.properties.ended_at,
  json_url: HistoricalEventItem.properties.json_url,
  csv_url: HistoricalEventItem.properties.csv_url,
};

/** A competition that has started, with its price-history files, as the historical events list shows it with `event_kinds`. */
export const HistoricalCompetitionItem = Type.Object({ ...CompetitionItem.properties, ...historicalProperties }, { title: 'HistoricalCompetition', additionalProperties: false });
export type HistoricalCompetitionItem = Static<typeof HistoricalCompetitionItem>;

export const HistoricalEventsPage = PageOf(Type.Union([HistoricalEventItem, HistoricalCompetitionItem]), 'HistoricalEventsPage');

export const HistoricalEventsQuery = Type.Object(
  {
    sport_id: Type.Optional(Id('Only events of this sport (404 when unknown).')),
    league_id: Type.Optional({ ...Id('Only events of this league (404 when unknown).'), example: 12 }),
    team_id: Type.Optional(Id('Only events this team plays in, home or away (404 when unknown).')),
    ...dateRangeProperties('the events, by start time'),
    ...eventKindsQueryProperty,
    schema_version: SchemaVersion,
    ...pagingProperties(EVENTS_MAX_PAGE_SIZE),
  },
  { additionalProperties: false },
);
export type HistoricalEventsQuery = Static<typeof HistoricalEventsQuery>;
