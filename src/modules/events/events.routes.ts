import { postListRoute } from '../../platform/http/list-route.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { EventsPage, UpcomingEventsBody } from './events.schemas.js';
import { createEventsService } from './events.service.js';

export const eventsRoutes: ModuleRoutes = async (app, ctx) => {
  const events = createEventsService(ctx);

  postListRoute(app, ctx.readCache, {
    url: '/v1/events/upcoming-events',
    tag: 'events',
    summary: 'Events of one day',
    description:
      'The events starting on `event_date` (default: today) read in `timezone` (default UTC), ordered by start time then id. ' +
      'Filter by sport and league, by id or key; an id wins over a key.',
    body: UpcomingEventsBody,
    response: EventsPage,
    page: (body) => events.upcoming(body),
  });
};
