import type { FastifyRequest } from 'fastify';
import type { App, ModuleRoutes } from '../../platform/http/types.js';
import { type FlowVocabulary, principalOf } from '../auth/index.js';
import { listRoute } from '../../platform/lists/list-route.js';
import { type PagedLists, sendPage } from '../../platform/lists/paged-lists.js';
import type { ClientPolicy } from '../policy/index.js';
import {
  BY_SELECTION_PAGE_SIZE,
  FlowGraphData,
  FlowGraphParams,
  FlowsByIdBody,
  FlowsByIdPage,
  FlowsBySelectionBody,
  FlowsBySelectionPage,
  LeaguesWithFlowsPage,
  LeaguesWithFlowsQuery,
} from './lookups.schemas.js';
import { FlowsBody, FlowsPage, MixedFlowsBody } from './trends.schemas.js';
import { FlowTooltip, FlowTooltipParams } from './flow-tooltip.js';
import type { TrendsService } from './trends.service.js';

const FILTERS_HELP =
  'Plural id arrays (a singular `sport_id` etc. is a one-item array; an id wins over the matching key), keys plain or qualified, ' +
  'bet_type, likelihood_type, hit-rate thresholds in percent, implied-probability thresholds as fractions, the bet\'s market, category, ' +
  'entity type and split, an event start range and starting_soon. Ordered by id; parlays carry their legs as flow items.';

/** Trends: every tier, charged against the minute and the day, kept by the client's own cache. */
const TRENDS: ClientPolicy = { auth: 'client', tier: 'basics', limit: 'data', usage: 'trends', cache: 'data' };
/** An unknown id or key is 404; a key that names several records 409. */
const byKey = { policy: { ...TRENDS, errors: ['NOT_FOUND', 'AMBIGUOUS_LOOKUP'] } } satisfies { policy: ClientPolicy };
const byId = { policy: { ...TRENDS, errors: ['NOT_FOUND'] } } satisfies { policy: ClientPolicy };
/** The names the caller's account gives flow types in its answers. */
const vocabularyOf = (request: FastifyRequest): FlowVocabulary => principalOf(request).client.flowVocabulary;

export const trendsRoutes: ModuleRoutes<{ lists: PagedLists; trends: TrendsService }> = async (app, { lists, trends }) => {
  flowListRoutes(app, lists, trends);
  flowLookupRoutes(app, trends);
  leagueRoutes(app, lists, trends);
  flowDetailRoutes(app, trends);
};

/** POST /v1/trends/mixed-flows and /v1/trends/flows: the flows, paged. */
function flowListRoutes(app: App, lists: PagedLists, trends: TrendsService): void {
  // One source for both endpoints: they share entries.
  const flows = lists.source(trends.flows);

  app.post(
    '/v1/trends/mixed-flows',
    listRoute({
      config: byKey,
      tag: 'trends',
      summary: 'Flows of every type',
      description: `Flows of every type (fact, fun, plain), singles and parlays, e.g. for one sport_id and league_id. ${FILTERS_HELP}`,
      body: MixedFlowsBody,
      page: FlowsPage,
    }),
    lists.byBody(flows, (body, request) => trends.mixedFilters(body, vocabularyOf(request))),
  );

  app.post(
    '/v1/trends/flows',
    listRoute({
      config: byKey,
      tag: 'trends',
      summary: 'Flows of one type',
      description: `Flows of the flow_type asked (default fact). ${FILTERS_HELP}`,
      body: FlowsBody,
      page: FlowsPage,
    }),
    lists.byBody(flows, (body, request) => trends.oneTypeFilters(body, vocabularyOf(request))),
  );
}

/** Flows by id, and the flows on selections. */
function flowLookupRoutes(app: App, trends: TrendsService): void {
  app.post(
    '/v1/trends/flows-by-id',
    {
      // An id that names no flow is listed in missing_ids, not refused.
      config: { policy: TRENDS },
      schema: {
        tags: ['trends'],
        summary: 'Flows by id',
        description:
          'Up to 100 flows by id, as one page in the paginated shape, in the order asked; `missing_ids` lists the ids that name no flow ' +
          '(of `flow_type`, when given).',
        body: FlowsByIdBody,
        response: { 200: FlowsByIdPage },
      },
    },
    async (request, reply) => sendPage(reply, await trends.flowsById(request.body, vocabularyOf(request))),
  );

  app.post(
    '/v1/trends/by-betting-market-position',
    {
      config: { policy: TRENDS },
      schema: {
        tags: ['trends'],
        summary: 'Flows on selections',
        description:
          'The flows on these selections (`event_betting_market_position_id` of odds items and flows): the singles that bet on one, and the parlays ' +
          `with a leg on one, by id, as page 1 of pages of ${BY_SELECTION_PAGE_SIZE}. An id that names no selection matches nothing.`,
        body: FlowsBySelectionBody,
        response: { 200: FlowsBySelectionPage },
      },
    },
    async (request, reply) => sendPage(reply, await trends.flowsBySelection(request.body, vocabularyOf(request))),
  );
}

/** The leagues with flows. */
function leagueRoutes(app: App, lists: PagedLists, trends: TrendsService): void {
  app.get(
    '/v1/trends/leagues-with-available-flows',
    listRoute({
      config: byKey,
      tag: 'trends',
      summary: 'Leagues with flows, and how many of each type',
      description: 'The leagues that have at least one flow, by id, each with its flow counts by type; by sport_id or sport_key. page_size at most 100.',
      querystring: LeaguesWithFlowsQuery,
      page: LeaguesWithFlowsPage,
    }),
    lists.byQuery(lists.source(trends.leaguesWithFlows), trends.leaguesWithFlows.filters),
  );
}

/** One flow's details: a fact flow's games, a flow's tooltip. */
function flowDetailRoutes(app: App, trends: TrendsService): void {
  app.get(
    '/v1/trends/flow-graph-data/:fact_flow_id',
    {
      config: byId,
      schema: {
        tags: ['trends'],
        summary: "The games behind a fact flow's hit rate",
        description:
          "One entry per past game behind a fact flow's `hits` of `total`, oldest first: its date, the opponent, hit or miss. " +
          'An id that names no fact flow, or a fact flow imported without its games, is 404.',
        params: FlowGraphParams,
        response: { 200: FlowGraphData },
      },
    },
    async (request) => trends.flowGraph(request.params.fact_flow_id),
  );

  app.get(
    '/v1/trends/flow-tooltip/:flow_type/:flow_id',
    {
      config: byId,
      schema: {
        tags: ['trends'],
        summary: "A flow's tooltip",
        description:
          'The short payload a tooltip shows for one fact or fun flow: its sentence, hit rate, sample size, price, and for a parlay its legs. ' +
          'An id that names no flow of that type is 404.',
        params: FlowTooltipParams,
        response: { 200: FlowTooltip },
      },
    },
    async (request) => trends.flowTooltip(request.params, vocabularyOf(request)),
  );
}
