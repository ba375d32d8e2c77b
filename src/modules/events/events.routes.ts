import type { PagedLists } from '../../platform/lists/paged-lists.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { EventsPage, UpcomingEventsBody } from './events.schemas.js';
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
};
