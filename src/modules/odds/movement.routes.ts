import type { ModuleRoutes } from '../../platform/http/types.js';
import { MovementBody, MovementPage } from './movement.schemas.js';
import type { MovementService } from './movement.service.js';

export const movementRoutes: ModuleRoutes<{ movement: MovementService }> = async (app, { movement }) => {
  app.post(
    '/v1/odds/movement',
    {
      // Not a cached list: relative to now, the answer changes as time passes without any import,
      // and the read cache keeps a page for a whole data version.
      config: { policy: { auth: 'client', tier: 'odds-movement', limit: 'data', usage: 'odds', cache: 'data', errors: ['NOT_FOUND'] } },
      schema: {
        tags: ['odds'],
        summary: 'Line movement: opening, current, high, low, the moves and the recent changes per selection and book',
        description:
          'Over the selections of a board (the same scope, filters and order as POST /v1/odds/board, paged like it): per book open on the selection, its ' +
          'opening price (the first in the history kept), its current price (or the one at `as_of`), high, low, the number of moves, the first and last ' +
          'move times and the change over the last 5 minutes, hour and 24 hours, in price and in implied-probability points; the same for the ' +
          'consensus, the median of the open books\' prices recomputed at every change of any of them (docs/data.md#line-movement). With `as_of`, ' +
          'only changes at or before it count (422 outside the history\'s bounds). An unknown sport_id or league_id is 404.',
        body: MovementBody,
        response: { 200: MovementPage },
      },
    },
    async (request) => movement.movement(request.body),
  );
};
