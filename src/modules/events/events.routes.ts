import { sendCachedJson } from '../../platform/http/cached-json.js';
import { CLIENT_SECURITY } from '../../platform/http/openapi.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { EventsPage, UpcomingEventsBody } from './events.schemas.js';
import { createEventsService } from './events.service.js';

export const eventsRoutes: ModuleRoutes = async (app, ctx) => {
  const events = createEventsService(ctx);

  app.post(
    '/v1/events/upcoming-events',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['events'],
        summary: 'Events of one day',
        description:
          'The events starting on `event_date` (default: today) read in `timezone` (default UTC), ordered by start time then id. ' +
          'Filter by sport and league, by id or key; an id wins over a key.',
        security: CLIENT_SECURITY,
        body: UpcomingEventsBody,
        response: { 200: EventsPage },
      },
    },
    async (request, reply) => {
      const page = events.upcoming(request.body);
      return sendCachedJson(reply, ctx.readCache, page.key, page.render);
    },
  );
};
