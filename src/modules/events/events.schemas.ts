import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { Id, TeamRef } from '../../shared/wire.js';

export const EVENTS_MAX_PAGE_SIZE = 100;

export const EventItem = Type.Object(
  {
    id: Type.Integer(),
    sport_id: Type.Integer(),
    league_id: Type.Integer(),
    league_key: Type.String({ description: "The league's key (plain, as in the league item's `key`)." }),
    start_time: Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' }),
    status: Type.String({ example: 'scheduled' }),
    home_team: TeamRef,
    away_team: TeamRef,
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
    sport_id: Type.Optional(Id('Wins over sport_key.')),
    sport_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    league_id: Type.Optional(Id('Wins over league_key.')),
    league_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Plain (`nba`) or qualified (`united-states.nba`).' })),
    ...pagingProperties(EVENTS_MAX_PAGE_SIZE),
  },
  { additionalProperties: false },
);
export type UpcomingEventsBody = Static<typeof UpcomingEventsBody>;

export const EventsPage = PageOf(EventItem, 'EventsPage');
