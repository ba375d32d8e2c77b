import type { PagedLists } from '../../platform/lists/paged-lists.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { EventsPage, HistoricalEventsQuery, UpcomingEventsBody } from './events.schemas.js';
import type { EventsService } from './events.service.js';

export const eventsRoutes: ModuleRoutes<{ lists: PagedLists; events: EventsService }> = async (app, { lists, events }) => {
  lists.post(app, {
    url: '/v1/events/upcoming-events',
    tag: 'events',
    summary: 'Events of one day',
    description:
      'The events starting on `event_date` (default: today) read in `timezone` (default UTC), ordered by start time then id. ' +
      'Filter by sport and league, by id or key; an id wins over a key.',
    body: UpcomingEventsBody,
    response: EventsPage,
    filters: events.upcoming.filters,
    source: lists.source(events.upcoming),
  });
  lists.get(app, {
    url: '/v1/historical/events',
    tag: 'historical',
    summary: 'Events that have started',
    description:
      'The events that have started, from start_date to end_date (whole UTC days; default the last 30 days up to now), ' +
      'ordered by start time then id, with their status and, when the feed has one, their score. Filter by sport, league ' +
      'and team (home or away); an unknown id is 404. Every tier may list them; their price history is for pro and enterprise.',
    query: HistoricalEventsQuery,
    response: EventsPage,
    filters: events.historical.filters,
    source: lists.source(events.historical),
  });
};
