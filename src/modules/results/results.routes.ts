import type { ModuleRoutes } from '../../platform/http/types.js';
import { listRoute } from '../../platform/lists/list-route.js';
import type { PagedLists } from '../../platform/lists/paged-lists.js';
import { ClvAnswer, ClvBody, EventResults, GradedBody, GradedPage, ResultsByEventBody } from './results.schemas.js';
import type { ResultsService } from './results.service.js';

const POLICY = { auth: 'client', tier: 'results', limit: 'data', usage: 'results', cache: 'data' } as const;

export const resultsRoutes: ModuleRoutes<{ lists: PagedLists; results: ResultsService }> = async (app, { lists, results }) => {
  app.post(
    '/v1/results/by-event',
    {
      config: { policy: { ...POLICY, errors: ['NOT_FOUND'] } },
      schema: {
        tags: ['results'],
        summary: 'An event\'s results and every odds row\'s grade',
        description:
          'The event\'s status and score, the score of each period, the players\' statistics, and the grade of every odds row that has one: ' +
          '`outcome` (`won`, `lost`, `push`, `void`, `half_won`, `half_lost`), the rule and the numbers used, or a `reason` without an outcome; ' +
          'with `closing_price` and `closing_line`. With `include_superseded`, also the grades a correction replaced. An unknown event_id is 404.',
        body: ResultsByEventBody,
        response: { 200: EventResults },
      },
    },
    async (request) => results.byEvent(request.body),
  );

  app.post(
    '/v1/results/graded',
    listRoute({
      config: { policy: { ...POLICY, errors: ['NOT_FOUND', 'AMBIGUOUS_LOOKUP'] } },
      tag: 'results',
      summary: 'Graded odds rows',
      description:
        'The current grades with an outcome, of the events that started from start_date to end_date (whole UTC days; default the last 30 days), ' +
        'ordered by the event\'s start, then event, then odds row. Filter by sport, league (ids win over keys), betting markets and outcomes.',
      body: GradedBody,
      page: GradedPage,
    }),
    lists.byBody(lists.source(results.graded), results.graded.filters),
  );

  app.post(
    '/v1/results/clv',
    {
      config: { policy: POLICY },
      schema: {
        tags: ['results'],
        summary: 'Closing-line value of prices taken',
        description:
          'For each price taken (a selection, an operator, a decimal price): the operator\'s closing price, the no-vig consensus closing price ' +
          '(the multiplicative de-vig of the books\' median closing prices of the market), and CLV% = (price ÷ that − 1) × 100; or a `reason` when there is none. ' +
          'A competition\'s selection is `unknown_selection` unless `event_kinds` includes `competition` (default matchups only).',
        body: ClvBody,
        response: { 200: ClvAnswer },
      },
    },
    async (request) => results.clv(request.body),
  );
};
