import { listRoute } from '../../platform/lists/list-route.js';
import type { PagedLists } from '../../platform/lists/paged-lists.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { OddsByEventBody, OddsPage } from './odds.schemas.js';
import type { OddsService } from './odds.service.js';
import { BoardBody, BoardPage } from './board.schemas.js';
import type { BoardService } from './board.service.js';
import { EdgesAnswer, EdgesBody } from './edges.schemas.js';
import type { EdgesService } from './edges.service.js';

/** as_of is a rule on the field, pro and up (decision 0317); an out-of-bounds instant is 422. */
const AS_OF_FIELD = { as_of: 'as-of' } as const;

export const oddsRoutes: ModuleRoutes<{ lists: PagedLists; odds: OddsService; board: BoardService; edges: EdgesService }> = async (
  app,
  { lists, odds, board, edges },
) => {
  app.post(
    '/v1/odds/upcoming-odds-by-event',
    listRoute({
      // An unknown event, operator or market is 404, an operator key that names several 409.
      config: { policy: { auth: 'client', tier: 'basics', fields: AS_OF_FIELD, limit: 'data', usage: 'odds', cache: 'data', errors: ['NOT_FOUND', 'AMBIGUOUS_LOOKUP'] } },
      tag: 'odds',
      summary: 'Odds of one event',
      description:
        'The odds of an event from every operator, ordered by id. Each item has `price_decimal`, and `price`: in the `odds_format` asked ' +
        '(decimal, american, fractional or implied_probability), or without one the object of decimal, American and implied-probability ' +
        'forms. Filter by operators (ids, or keys; ids win) and betting markets. An unknown event_id is 404.' +
        ' With `as_of` (pro and enterprise), the answer as of that instant as the price history knows it (docs/data.md#as-of-an-instant); out of its bounds, 422.',
      body: OddsByEventBody,
      page: OddsPage,
    }),
    lists.byBody(lists.source(odds.byEvent), odds.byEvent.filters),
  );

  app.post(
    '/v1/odds/board',
    listRoute({
      // An unknown sport_id or league_id is 404, as every scope id is.
      config: { policy: { auth: 'client', tier: 'basics', fields: AS_OF_FIELD, limit: 'data', usage: 'odds', cache: 'data', errors: ['NOT_FOUND'] } },
      tag: 'odds',
      summary: 'The odds board: every book, the best, the consensus and the fair price per selection',
      description:
        'The current board of a day\'s events (`event_date` in `timezone`, default today) or of a list of events (`event_ids`), optionally of one sport or ' +
        'league, narrowed to markets, periods, players and books. One item per selection (event, market, period, player, position): every book\'s open ' +
        'price and line, the best price and its books, the consensus (median price and line) and the fair prices (per book, and of the consensus) by the ' +
        '`devig` method asked. Main lines only unless `include_alt_lines`. Ordered by start time, event, market, period, player, main line first, position ' +
        '(docs/data.md#the-odds-board). An unknown sport_id or league_id is 404.' +
        ' With `as_of` (pro and enterprise), the answer as of that instant as the price history knows it (docs/data.md#as-of-an-instant); out of its bounds, 422.',
      body: BoardBody,
      page: BoardPage,
    }),
    lists.byBody(lists.source(board.board), board.board.filters),
  );

  app.post(
    '/v1/odds/edges',
    {
      // An unknown scope id or reference book is 404, a reference key that names several books 409.
      config: { policy: { auth: 'client', tier: 'odds-edges', fields: AS_OF_FIELD, limit: 'data', usage: 'odds', cache: 'data', errors: ['NOT_FOUND', 'AMBIGUOUS_LOOKUP'] } },
      schema: {
        tags: ['odds'],
        summary: 'Value bets, arbitrages, middles and low-hold markets over a board',
        description:
          'Over the selections of a board (the same scope and filters as POST /v1/odds/board): every book\'s price whose expected value against the ' +
          'consensus fair probability is at least `min_edge` percent, EV% = (price × p_fair − 1) × 100; and the arbitrages, markets whose best prices ' +
          'across books imply less than 1, with the stakes per 100 units that lock the margin. Each value bet has its Kelly stake (`kelly_fraction`); ' +
          'with `devig_reference_operator_id` or `_key` the fair prices are that book\'s own market\'s. Middles: two books\' lines of a total or a spread ' +
          'leaving a window in which both bets win, with the stakes that pay the same outside it. With `max_hold`, the low-hold markets. The largest ' +
          'first, at most 100 of each; the totals count them all (docs/data.md#edges). An unknown sport_id, league_id or reference book is 404.' +
        ' With `as_of` (pro and enterprise), the answer as of that instant as the price history knows it (docs/data.md#as-of-an-instant); out of its bounds, 422.',
        body: EdgesBody,
        response: { 200: EdgesAnswer },
      },
    },
    async (request) => edges.edges(request.body),
  );
};
