import { listRoute } from '../../platform/lists/list-route.js';
import type { PagedLists } from '../../platform/lists/paged-lists.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { EventsPage, UpcomingEventsBody } from './events.schemas.js';
import type { EventsService } from './events.service.js';
import { historicalEventsRoutes } from './historical-events.routes.js';

/** POST /v1/events/upcoming-events here; GET /v1/historical/events in historical-events.routes.ts. */
export const eventsRoutes: ModuleRoutes<{ lists: PagedLists; events: EventsService }> = async (app, deps) => {
  const { lists, events } = deps;
  app.post(
    '/v1/events/upcoming-events',
    listRoute({
      // An unknown id or key is 404, a key that names several leagues 409.
      config: { policy: { auth: 'client', tier: 'basics', limit: 'data', usage: 'events', cache: 'data', errors: ['NOT_FOUND', 'AMBIGUOUS_LOOKUP'] } },
      tag: 'events',
      summary: 'Events of one day',
      description:
        'The events starting on `event_date` (default: today) read in `timezone` (default UTC), ordered by start time then id. ' +
        'Filter by sport and league, by id or key; an id wins over a key.',
      body: UpcomingEventsBody,
      page: EventsPage,
    }),
    lists.byBody(lists.source(events.upcoming), events.upcoming.filters),
  );
  historicalEventsRoutes(app, deps);
};
