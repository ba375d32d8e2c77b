import type { PagedLists } from '../../platform/lists/paged-lists.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { OddsByEventBody, OddsPage } from './odds.schemas.js';
import type { OddsService } from './odds.service.js';
import { BoardBody, BoardPage } from './board.schemas.js';
import type { BoardService } from './board.service.js';

export const oddsRoutes: ModuleRoutes<{ lists: PagedLists; odds: OddsService; board: BoardService }> = async (app, { lists, odds, board }) => {
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

  lists.post(app, {
    url: '/v1/odds/board',
    tag: 'odds',
    summary: 'The odds board: every book, the best, the consensus and the fair price per selection',
    description:
      'The current board of a day\'s events (`event_date` in `timezone`, default today) or of a list of events (`event_ids`), optionally of one sport or ' +
      'league, narrowed to markets, periods, players and books. One item per selection (event, market, period, player, position): every book\'s open ' +
      'price and line, the best price and its books, the consensus (median price and line) and the fair prices (per book, and of the consensus) by the ' +
      '`devig` method asked. Main lines only unless `include_alt_lines`. Ordered by start time, event, market, period, player, main line first, position ' +
      '(docs/data.md#the-odds-board).',
    body: BoardBody,
    response: BoardPage,
    filters: board.board.filters,
    source: lists.source(board.board),
    config: { policy: { auth: 'client', tier: 'basics', limit: 'data', usage: 'odds', cache: 'data', errors: [] } },
  });
};
