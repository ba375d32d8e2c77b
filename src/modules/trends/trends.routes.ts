import { postListRoute } from '../../platform/http/list-route.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { FlowsBody, FlowsPage, MixedFlowsBody } from './trends.schemas.js';
import { createTrendsService } from './trends.service.js';

const FILTERS_HELP =
  'Plural id arrays (a singular `sport_id` etc. is a one-item array; an id wins over the matching key), keys plain or qualified, ' +
  'bet_type, likelihood_type, hit-rate thresholds in percent and an event start range. Ordered by id; parlays carry their legs as flow items.';

export const trendsRoutes: ModuleRoutes = async (app, ctx) => {
  const trends = createTrendsService(ctx);

  postListRoute(app, ctx.readCache, {
    url: '/v1/trends/mixed-flows',
    tag: 'trends',
    summary: 'Flows of every type',
    description: `Flows of every type (fact, fun, plain), singles and parlays, e.g. for one sport_id and league_id. ${FILTERS_HELP}`,
    body: MixedFlowsBody,
    response: FlowsPage,
    page: (body) => trends.mixedFlows(body),
  });

  postListRoute(app, ctx.readCache, {
    url: '/v1/trends/flows',
    tag: 'trends',
    summary: 'Flows of one type',
    description: `Flows of the flow_type asked (default fact). ${FILTERS_HELP}`,
    body: FlowsBody,
    response: FlowsPage,
    page: (body) => trends.flows(body),
  });
};
