import { sendCachedJson } from '../../platform/http/cached-json.js';
import { CLIENT_SECURITY } from '../../platform/http/openapi.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { OddsByEventBody, OddsPage } from './odds.schemas.js';
import { createOddsService } from './odds.service.js';

export const oddsRoutes: ModuleRoutes = async (app, ctx) => {
  const odds = createOddsService(ctx);

  app.post(
    '/v1/odds/upcoming-odds-by-event',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['odds'],
        summary: 'Odds of one event',
        description:
          "The odds of an event from every operator, ordered by id, each price in decimal, American and implied-probability form. " +
          'Filter by operators (ids, or keys; ids win) and betting markets. An unknown event_id is 404.',
        security: CLIENT_SECURITY,
        body: OddsByEventBody,
        response: { 200: OddsPage },
      },
    },
    async (request, reply) => {
      const page = odds.byEvent(request.body);
      return sendCachedJson(reply, ctx.readCache, page.key, page.render);
    },
  );
};
