import type { PagedLists } from '../../platform/lists/paged-lists.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { OddsByEventBody, OddsPage } from './odds.schemas.js';
import type { OddsService } from './odds.service.js';

export const oddsRoutes: ModuleRoutes<{ lists: PagedLists; odds: OddsService }> = async (app, { lists, odds }) => {
  lists.post(app, {
    url: '/v1/odds/upcoming-odds-by-event',
    tag: 'odds',
    summary: 'Odds of one event',
    description:
      'The odds of an event from every operator, ordered by id. Each item has `price_decimal`, and `price`: in the `odds_format` asked ' +
      '(decimal, american, fractional or implied_probability), or without one the object of decimal, American and implied-probability ' +
      'forms. Filter by operators (ids, or keys; ids win) and betting markets. An unknown event_id is 404.',
    body: OddsByEventBody,
    response: OddsPage,
    filters: odds.byEvent.filters,
    source: lists.source(odds.byEvent),
    // An unknown event, operator or market is 404, an operator key that names several 409.
    config: { policy: { auth: 'client', tier: 'basics', limit: 'data', usage: 'odds', cache: 'data', errors: ['NOT_FOUND', 'AMBIGUOUS_LOOKUP'] } },
  });
};
