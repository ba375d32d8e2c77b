import type { PagedLists } from '../../platform/lists/paged-lists.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { FlowsBody, FlowsPage, MixedFlowsBody } from './trends.schemas.js';
import type { TrendsService } from './trends.service.js';

const FILTERS_HELP =
  'Plural id arrays (a singular `sport_id` etc. is a one-item array; an id wins over the matching key), keys plain or qualified, ' +
  'bet_type, likelihood_type, hit-rate thresholds in percent and an event start range. Ordered by id; parlays carry their legs as flow items.';

export const trendsRoutes: ModuleRoutes<{ lists: PagedLists; trends: TrendsService }> = async (app, { lists, trends }) => {
  // One source for both endpoints: they share entries.
  const flows = lists.source(trends.flows);

  lists.post(app, {
    url: '/v1/trends/mixed-flows',
    tag: 'trends',
    summary: 'Flows of every type',
    description: `Flows of every type (fact, fun, plain), singles and parlays, e.g. for one sport_id and league_id. ${FILTERS_HELP}`,
    body: MixedFlowsBody,
    response: FlowsPage,
    filters: trends.mixedFilters,
    source: flows,
  });

  lists.post(app, {
    url: '/v1/trends/flows',
    tag: 'trends',
    summary: 'Flows of one type',
    description: `Flows of the flow_type asked (default fact). ${FILTERS_HELP}`,
    body: FlowsBody,
    response: FlowsPage,
    filters: trends.oneTypeFilters,
    source: flows,
  });
};
