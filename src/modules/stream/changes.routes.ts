import type { ModuleRoutes } from '../../platform/http/types.js';
import type { ChangeCursor, HistoryRepository } from '../history/index.js';
import type { KeyResolver } from '../references/index.js';
import { CHANGES_DEFAULT_LIMIT, CHANGES_DESCRIPTION, ChangesPage, ChangesQuery } from './changes.schemas.js';
import { filterOf } from './stream.filter.js';

/** GET /v1/odds/changes: the odds stream's replay, read a page at a time (decision 0313). */
export const changesRoutes: ModuleRoutes<{ cursor: ChangeCursor; history: HistoryRepository; keys: KeyResolver }> = async (app, deps) => {
  app.get(
    '/v1/odds/changes',
    {
      // The price history read by id: the history's tier rule, counted with the odds.
      config: { policy: { auth: 'client', tier: 'price-history', limit: 'data', usage: 'odds', cache: 'data', errors: ['NOT_FOUND'] } },
      schema: {
        tags: ['odds'],
        summary: 'Price changes after an id (a keyset cursor over the stream’s replay)',
        description: CHANGES_DESCRIPTION,
        querystring: ChangesQuery,
        response: { 200: ChangesPage },
      },
    },
    async (request) => {
      const { after, limit } = request.query;
      return deps.cursor.page(after ?? 0, limit ?? CHANGES_DEFAULT_LIMIT, await filterOf(request.query, deps));
    },
  );
};
