import type { ModuleRoutes } from '../../platform/http/types.js';
import { MovesBody, MovesPage } from './moves.schemas.js';
import type { MovesService } from './moves.service.js';

/** POST /v1/odds/moves: the steam moves and drops found as the imports landed. */
export const movesRoutes: ModuleRoutes<{ moves: MovesService }> = async (app, { moves }) => {
  app.post(
    '/v1/odds/moves',
    {
      // Read as stored at each request: the moves are stored after the import's commit, so a list cached per data version could miss them.
      config: { policy: { auth: 'client', tier: 'odds-moves', limit: 'data', usage: 'odds', cache: 'no-store', errors: ['NOT_FOUND'] } },
      schema: {
        tags: ['odds'],
        summary: 'Steam moves and drops',
        description:
          'The steam moves (at least `min_books` books shortening one selection by at least `min_move` implied-probability points within `window` seconds) ' +
          'and drops (one book shortening by at least `min_drop` percent against its price `window` seconds before) found as the imports landed, with ' +
          'the configured thresholds (MOVES_*), each stored once with its size (docs/data.md#steam-moves-and-drops). The board\'s scope and filters ' +
          '(`event_ids`, or the events of `event_date`), a time range on `changed_at` (`from`, `to`) and the `types`; newest first. A request may only ' +
          'tighten the thresholds (a looser value is 422 naming the field): the stored moves are then shown as those thresholds see them. ' +
          'With `operator_ids`, only those books count. The moves of competitions only when `event_kinds` includes `competition` (default matchups only).',
        body: MovesBody,
        response: { 200: MovesPage },
      },
    },
    async (request) => moves.list(request.body),
  );
};
